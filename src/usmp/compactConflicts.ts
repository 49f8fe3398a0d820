/**
 * The conflicts of a compiled model's buffers, kept compact. extractBufferInfo's definition has
 * two kinds of buffer: a workspace buffer conflicts with the workspace buffers whose live ranges
 * share a statement with its own (its list ordered by their first use, ties by buffer order, as
 * TVM's sweep lists them), and a constant with every other constant (live for the whole run; its
 * list in buffer order). Written out as lists of names that is n^2 entries for n buffers live at
 * once: 5,000 ADDs feeding one CONCATENATION (5,000 workspace buffers and 5,000 distinct
 * constants) held 50M names, and its compile took 2.1 GB and 73 s, 46 s of them planning (most
 * of that reading the lists) and 15 s collecting garbage.
 *
 * Here they are first/last uses and a class per buffer; `BufferInfo.conflicts` is a lazy getter
 * building the same list (same names, same order) when something reads it, so custom planners
 * and the TVM-named algorithms see what they saw. The bounds, the verifier, the split into pool
 * groups and `auto` recognise a registered set (or a part of one) and work from the ranges and
 * classes instead, with the same results.
 */
import { countAtMost, countBelow } from '../util/sortedSearch';
import { IntervalConflicts } from './intervalConflicts';
import { BufferInfo } from './types';

/** Conflicts by live-range overlap (workspace buffers) or by membership of one clique (constants). */
export class CompactConflicts {
  readonly count: number;
  private rangeOrder?: Int32Array;
  private cliqueCache?: Int32Array;
  private csrCache?: { readonly start: Int32Array; readonly adj: Int32Array };
  private rangeCache?: { readonly start: Int32Array; readonly adj: Int32Array };
  private intervalsCache?: IntervalConflicts;

  constructor(
    readonly first: Float64Array,
    readonly last: Float64Array,
    /** 1 where a buffer is in the clique (conflicts with every other clique member), else 0. */
    readonly clique: Uint8Array,
  ) {
    this.count = first.length;
  }

  /** The part of this set at `indices` (ascending), as a set of its own (index k is indices[k]). */
  restrict(indices: Int32Array): CompactConflicts {
    return new CompactConflicts(
      Float64Array.from(indices, (i) => this.first[i]),
      Float64Array.from(indices, (i) => this.last[i]),
      Uint8Array.from(indices, (i) => this.clique[i]),
    );
  }

  /** Number of clique members and of range members. */
  classSizes(): { readonly clique: number; readonly range: number } {
    const clique = this.cliqueMembers().length;
    return { clique, range: this.count - clique };
  }

  /** The clique's members, ascending. */
  cliqueMembers(): Int32Array {
    if (this.cliqueCache) return this.cliqueCache;
    const members: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.clique[i] === 1) members.push(i);
    return (this.cliqueCache = Int32Array.from(members));
  }

  /** The range members by (first use, index): the order their lists name them in. */
  rangeMembersByFirst(): Int32Array {
    if (this.rangeOrder) return this.rangeOrder;
    const members: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.clique[i] === 0) members.push(i);
    return (this.rangeOrder = sortedByKey(Int32Array.from(members), this.first));
  }

  /**
   * The range members (ascending) as interval conflicts, index k being the k-th of them: the
   * whole set when it has no clique. Kept, so the engine's rows and the exact core's share
   * one sweep.
   */
  rangeIntervals(): IntervalConflicts {
    if (this.intervalsCache) return this.intervalsCache;
    const ranged: number[] = [];
    for (let i = 0; i < this.count; i++) if (this.clique[i] === 0) ranged.push(i);
    return (this.intervalsCache = new IntervalConflicts(
      Float64Array.from(ranged, (i) => this.first[i]),
      Float64Array.from(ranged, (i) => this.last[i]),
    ));
  }

  /** Directed conflict entries (each conflicting pair counted twice), without listing any. */
  entryCount(): number {
    const { clique, range } = this.classSizes();
    let entries = clique * Math.max(0, clique - 1);
    if (range > 0) for (const d of this.rangeDegrees()) entries += d;
    return entries;
  }

  /** Per range member (in rangeMembersByFirst order), how many range members it overlaps. */
  private rangeDegrees(): Int32Array {
    const order = this.rangeMembersByFirst();
    const firsts = Float64Array.from(order, (i) => this.first[i]);
    const lasts = Float64Array.from(order, (i) => this.last[i]).sort();
    return Int32Array.from(order, (i) => {
      // Members starting no later than i ends, minus those ending before i starts, minus i.
      return countAtMost(firsts, this.last[i]) - countBelow(lasts, this.first[i]) - 1;
    });
  }

  /**
   * Buffer i's conflicts in list order. A constant's row is made on its own (as long as the
   * list it stands for); a workspace buffer's comes from the rows of all of them, swept once
   * (a row at a time, a planner reading every list of a 50,000-buffer chain would scan n^2).
   */
  row(i: number): Int32Array {
    const rows = this.csrCache ?? (this.clique[i] === 0 ? this.rows(false) : undefined);
    if (rows) return rows.adj.subarray(rows.start[i], rows.start[i + 1]);
    const members = this.cliqueMembers();
    const out = new Int32Array(members.length - 1);
    let k = 0;
    for (const j of members) if (j !== i) out[k++] = j;
    return out;
  }

  /**
   * Every row in list order as CSR arrays, 4 bytes a directed entry: O(n log n + entries), by a
   * sweep over the range members in order of first use whose open list stays in that order.
   */
  csr(): { readonly start: Int32Array; readonly adj: Int32Array } {
    return this.csrCache ?? this.rows(true);
  }

  /** The rows as CSR; `withClique`: the clique's rows too, else they are left empty. */
  private rows(withClique: boolean): { readonly start: Int32Array; readonly adj: Int32Array } {
    if (!withClique && this.rangeCache) return this.rangeCache;
    const n = this.count;
    const start = new Int32Array(n + 1);
    const members = withClique ? this.cliqueMembers() : new Int32Array(0);
    const order = this.rangeMembersByFirst();
    const degrees = this.rangeDegrees();
    const degree = new Int32Array(n);
    for (const i of members) degree[i] = members.length - 1;
    order.forEach((i, k) => (degree[i] = degrees[k]));
    for (let i = 0; i < n; i++) start[i + 1] = start[i] + degree[i];
    const adj = new Int32Array(start[n]);
    const fill = start.slice(0, n);
    for (const i of members) for (const j of members) if (j !== i) adj[fill[i]++] = j;
    sweepRanges(order, this.first, this.last, fill, adj);
    const rows = { start, adj };
    // Built with the clique (or without one), the rows are complete: the workspace rows need no copy.
    if (withClique || this.cliqueMembers().length === 0) {
      this.csrCache = rows;
      this.rangeCache = undefined;
    } else {
      this.rangeCache = rows;
    }
    return rows;
  }
}

/**
 * The conflicts without direction or order, as CSR with each row ascending: what the placement
 * engine makes of the lists (placement.ts symmetricAdjacency), built from the ranges (by
 * IntervalConflicts' sweep) and the clique, not from the lists. New arrays at each call (the
 * engine sorts its rows in place).
 */
export function symmetricRows(set: CompactConflicts): { start: Int32Array; adj: Int32Array } {
  const n = set.count;
  const members = set.cliqueMembers();
  const ranged: number[] = [];
  for (let i = 0; i < n; i++) if (set.clique[i] === 0) ranged.push(i);
  // Read, not changed: the rows are copied out below.
  const local = set.rangeIntervals().adjacency();
  const start = new Int32Array(n + 1);
  const degree = new Int32Array(n);
  for (const i of members) degree[i] = members.length - 1;
  ranged.forEach((i, k) => (degree[i] = local.start[k + 1] - local.start[k]));
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + degree[i];
  const adj = new Int32Array(start[n]);
  for (const i of members) {
    let w = start[i];
    for (const j of members) if (j !== i) adj[w++] = j;
  }
  // Range members ascend, so their local rows map to ascending rows.
  ranged.forEach((i, k) => {
    let w = start[i];
    for (let a = local.start[k]; a < local.start[k + 1]; a++) adj[w++] = ranged[local.adj[a]];
  });
  return { start, adj };
}

/**
 * Fills the range members' rows: a member's row is the members open when it starts, in the
 * order they started, then those starting while it is open. The open list keeps start order;
 * members that ended are marked and dropped when they are half of it.
 */
function sweepRanges(order: Int32Array, first: Float64Array, last: Float64Array, fill: Int32Array, adj: Int32Array): void {
  const m = order.length;
  const byLast = sortedByKey(order.slice(), last);
  const open = new Int32Array(m);
  const ended = new Uint8Array(first.length);
  let openCount = 0;
  let endedOpen = 0;
  let expired = 0;
  for (let k = 0; k < m; k++) {
    const i = order[k];
    // At one statement starts come before ends: ranges sharing a statement conflict.
    while (expired < m && last[byLast[expired]] < first[i]) {
      const j = byLast[expired++];
      // Every member in byLast before i's turn has started (its last use is before i's first).
      ended[j] = 1;
      endedOpen++;
    }
    if (endedOpen * 2 > openCount) {
      let w = 0;
      for (let s = 0; s < openCount; s++) if (ended[open[s]] === 0) open[w++] = open[s];
      openCount = w;
      endedOpen = 0;
    }
    for (let s = 0; s < openCount; s++) {
      const j = open[s];
      if (ended[j] === 1) continue;
      adj[fill[i]++] = j;
      adj[fill[j]++] = i;
    }
    open[openCount++] = i;
  }
}

/** `members` ordered by key[member], ties by member (a stable sort of ascending members). */
function sortedByKey(members: Int32Array, key: Float64Array): Int32Array {
  return Int32Array.from(Array.from(members).sort((a, b) => key[a] - key[b] || a - b));
}

interface Member {
  readonly set: CompactConflicts;
  readonly index: number;
}

const members = new WeakMap<BufferInfo, Member>();

/**
 * BufferInfos for a compact set, in its order: `fields[i]` with a `conflicts` getter that lists
 * buffer i's conflicts by name (built on first read, then kept), registered so that
 * `compactPartOf` finds them.
 */
export function compactBufferInfos(set: CompactConflicts, fields: readonly Omit<BufferInfo, 'conflicts'>[]): BufferInfo[] {
  const names = fields.map((f) => f.name);
  return fields.map((f, i) => {
    let list: string[] | undefined;
    const buffer: BufferInfo = {
      ...f,
      get conflicts(): string[] {
        return (list ??= Array.from(set.row(i), (j) => names[j]));
      },
    };
    members.set(buffer, { set, index: i });
    return buffer;
  });
}

/** A part of one compact set: the set and, per buffer given, its index there. */
export interface CompactPart {
  readonly set: CompactConflicts;
  readonly indices: Int32Array;
  /** Whether the buffers are the whole set, in its order (then indices[k] = k). */
  readonly whole: boolean;
}

/**
 * The compact set `buffers` belong to, when they all belong to one (each once; any part, in any
 * order), with their indices there; undefined otherwise, and callers read the lists. Conflicts
 * among a part are the set's restricted to it, exactly what the lists say with the other names
 * left out.
 */
export function compactPartOf(buffers: readonly BufferInfo[]): CompactPart | undefined {
  if (buffers.length === 0) return undefined;
  const head = members.get(buffers[0]);
  if (!head) return undefined;
  const indices = new Int32Array(buffers.length);
  const seen = new Uint8Array(head.set.count);
  let whole = buffers.length === head.set.count;
  for (let k = 0; k < buffers.length; k++) {
    const m = members.get(buffers[k]);
    if (!m || m.set !== head.set || seen[m.index] === 1) return undefined;
    seen[m.index] = 1;
    indices[k] = m.index;
    if (m.index !== k) whole = false;
  }
  return { set: head.set, indices, whole };
}

/**
 * `buffers` (a part of a compact set, in the set's order) as a compact set of their own: new
 * BufferInfos with the same fields, each listing only the conflicts inside the part, in the same
 * order as before. What `b.conflicts.filter(inPart)` gives, without the lists; `edit` may change
 * the other fields (a buffer pinned to one pool).
 */
export function restrictCompact(
  buffers: readonly BufferInfo[],
  part: CompactPart,
  edit: (fields: Omit<BufferInfo, 'conflicts'>, k: number) => Omit<BufferInfo, 'conflicts'> = (fields) => fields,
): BufferInfo[] {
  const set = part.whole ? part.set : part.set.restrict(part.indices);
  return compactBufferInfos(
    set,
    buffers.map((b, k) => edit(fieldsOf(b), k)),
  );
}

/** A BufferInfo's own fields but its conflicts (read as descriptors: a getter is not called). */
function fieldsOf(b: BufferInfo): Omit<BufferInfo, 'conflicts'> {
  const descriptors = Object.getOwnPropertyDescriptors(b) as Record<string, PropertyDescriptor>;
  delete descriptors.conflicts;
  return Object.defineProperties({}, descriptors) as Omit<BufferInfo, 'conflicts'>;
}

/** Whether the indices are ascending (a part in the set's order). */
export function ascending(indices: Int32Array): boolean {
  for (let k = 1; k < indices.length; k++) if (indices[k] <= indices[k - 1]) return false;
  return true;
}

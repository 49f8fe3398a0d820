/**
 * Conflicts defined by live ranges: two buffers conflict when their inclusive [first, last]
 * operator ranges share an operator. Built by sweep line in O(n log n + conflicts) and kept as
 * typed arrays; names are only produced when a caller asks for a buffer's list. Times are
 * doubles (any safe integer), never 32-bit, so uses past 2^31 cannot wrap and lose conflicts.
 *
 * A buffer set made by `intervalsToBufferInfos` is registered here as an interval group, so the
 * planners and the verifier can work from the intervals directly: a 20k all-live set has 400M
 * directed conflicts, which must never be materialised as lists.
 */
import { MemoryPlanningError } from '../errors';
import { countAtMost } from '../util/sortedSearch';
import { gathered } from './algo/gathered';
import { BufferInfo } from './types';

/** Sorted distinct values of `a` and `b` together. */
function distinctTimes(a: Float64Array, b: Float64Array): Float64Array {
  const all = new Float64Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  all.sort();
  let m = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[m++] = all[i];
  return all.slice(0, m);
}

/**
 * Indices 0..n-1 ordered by time, ties by index. Time * 2^k + index is one exact double for
 * non-negative integer times when below 2^53 (a native numeric sort, no comparator calls); otherwise a comparator sort.
 */
function sortedByTime(time: Float64Array): Int32Array {
  const n = time.length;
  let scale = 1;
  while (scale < n) scale *= 2;
  let exact = true;
  for (let i = 0; i < n && exact; i++) exact = Number.isInteger(time[i]) && time[i] >= 0 && (time[i] + 1) * scale <= MAX_EXACT_KEY;
  if (!exact) return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => time[a] - time[b] || a - b);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = time[i] * scale + i;
  keys.sort();
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = keys[k] % scale;
  return order;
}

/** Keys below this are exact doubles. */
const MAX_EXACT_KEY = 2 ** 53;

/** Index of `t` in sorted distinct `times` (which must contain it). */
export function timeIndex(times: Float64Array, t: number): number {
  return countAtMost(times, t) - 1;
}

export class IntervalConflicts {
  readonly count: number;
  private degreeCache?: Int32Array;
  private csr?: { readonly start: Int32Array; readonly adj: Int32Array };
  private timesCache?: Float64Array;

  constructor(
    readonly first: Float64Array,
    readonly last: Float64Array,
  ) {
    this.count = first.length;
  }

  /**
   * The conflicts among `members` (indices into this set), renumbered 0..k-1 in that order. When
   * this set's rows are built and `members` ascend, the subset's rows are read from them (the
   * same rows, ascending, that a sweep of its ranges lists): an exact core re-solves a region of
   * 300-1,600 buffers 10-30 times a 2,000-buffer plan, and a sweep per region built four times
   * the entries of the whole set's rows.
   */
  subset(members: ArrayLike<number>): IntervalConflicts {
    const sub = new IntervalConflicts(gathered(this.first, members), gathered(this.last, members));
    if (this.csr && ascending(members)) {
      const csr = restrictedRows(this.csr, this.count, members);
      sub.csr = csr;
      sub.degreeCache = rowLengths(csr.start);
    }
    return sub;
  }

  /** Sorted distinct first/last times (the compressed time axis). */
  times(): Float64Array {
    return (this.timesCache ??= distinctTimes(this.first, this.last));
  }

  /** Per buffer, the number of other buffers it overlaps; O(n log n), nothing enumerated. */
  degrees(): Int32Array {
    if (this.degreeCache) return this.degreeCache;
    const deg = new Int32Array(this.count);
    overlapCounts(this.first, this.last, deg);
    return (this.degreeCache = deg);
  }

  /** Directed conflict entries (each overlapping pair counted twice). */
  entryCount(): number {
    let s = 0;
    for (const d of this.degrees()) s += d;
    return s;
  }

  /**
   * Symmetric conflicts as CSR, each row ascending by index (the order a pairwise scan would
   * list them). Memory is 4 bytes per directed entry; callers check entryCount() first.
   */
  adjacency(): { readonly start: Int32Array; readonly adj: Int32Array } {
    if (this.csr) return this.csr;
    const n = this.count;
    const deg = this.degrees();
    const start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) start[i + 1] = start[i] + deg[i];
    const bucketed = new Int32Array(start[n]);
    const adj = new Int32Array(start[n]);
    sweepOverlaps(this.first, this.last, start, bucketed);
    rowsInIndexOrder(start, bucketed, adj);
    return (this.csr = { start, adj });
  }
}

/*
 * adjacency's two passes, each a function of its own with nothing after its loops: V8 compiles
 * long loops on stack replacement, and such code that meets an allocation or an object literal
 * after the loop is thrown away there (at every build: about ten per multi-pool plan).
 */

/** Per buffer, into `deg`, the number of others whose ranges overlap its own. */
function overlapCounts(first: Float64Array, last: Float64Array, deg: Int32Array): void {
  const firsts = Float64Array.from(first).sort();
  const lasts = Float64Array.from(last).sort();
  for (let i = 0; i < first.length; i++) {
    // Buffers starting no later than i ends, minus those ending before i starts, minus i.
    const startedBy = countAtMost(firsts, last[i]);
    let lo = 0;
    let hi = lasts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (lasts[mid] < first[i]) lo = mid + 1;
      else hi = mid;
    }
    deg[i] = startedBy - lo - 1;
  }
}

/**
 * Lists each overlapping pair once, in sweep order, into both rows (`bucketed`, rows at
 * `start`): buffers open in order of first use, and expire when a later one starts after
 * their last use.
 */
function sweepOverlaps(first: Float64Array, last: Float64Array, start: Int32Array, bucketed: Int32Array): void {
  const n = first.length;
  const fill = start.slice(0, n);
  const byFirst = sortedByTime(first);
  const byLast = sortedByTime(last);
  // The open buffers, unordered, with each one's slot for O(1) removal.
  const open = new Int32Array(n);
  const slot = new Int32Array(n).fill(-1);
  let openCount = 0;
  let expired = 0;
  for (let k = 0; k < n; k++) {
    const i = byFirst[k];
    const t = first[i];
    while (expired < n && last[byLast[expired]] < t) {
      const j = byLast[expired++];
      const s = slot[j];
      if (s < 0) continue;
      const moved = open[--openCount];
      open[s] = moved;
      slot[moved] = s;
      slot[j] = -1;
    }
    for (let s = 0; s < openCount; s++) {
      const j = open[s];
      bucketed[fill[i]++] = j;
      bucketed[fill[j]++] = i;
    }
    open[openCount] = i;
    slot[i] = openCount++;
  }
}

/**
 * The rows of `bucketed` in index order, into `adj`: appending x to the rows of its bucket's
 * entries, for x ascending, gives every row ascending (the pairs are symmetric), with no sort.
 */
function rowsInIndexOrder(start: Int32Array, bucketed: Int32Array, adj: Int32Array): void {
  const n = start.length - 1;
  const fill = start.slice(0, n);
  for (let x = 0; x < n; x++) {
    for (let ai = start[x]; ai < start[x + 1]; ai++) adj[fill[bucketed[ai]]++] = x;
  }
}

function ascending(a: ArrayLike<number>): boolean {
  for (let i = 1; i < a.length; i++) if (a[i] <= a[i - 1]) return false;
  return true;
}

function rowLengths(start: Int32Array): Int32Array {
  const deg = new Int32Array(start.length - 1);
  for (let i = 0; i < deg.length; i++) deg[i] = start[i + 1] - start[i];
  return deg;
}

/**
 * The rows of `members` (ascending) with only members kept, renumbered by their place in
 * `members`: the map is monotone, so each row stays ascending. One pass, the kept entries
 * written without a branch (a conflict kept or not goes either way at random).
 */
function restrictedRows(csr: { readonly start: Int32Array; readonly adj: Int32Array }, n: number, members: ArrayLike<number>): { start: Int32Array; adj: Int32Array } {
  const m = members.length;
  const renumbered = new Int32Array(n).fill(-1);
  let entries = 0;
  for (let k = 0; k < m; k++) {
    const b = members[k];
    renumbered[b] = k;
    entries += csr.start[b + 1] - csr.start[b];
  }
  const start = new Int32Array(m + 1);
  const adj = new Int32Array(entries);
  keepMemberEntries(csr.start, csr.adj, members, renumbered, start, adj);
  return { start, adj: adj.subarray(0, start[m]) };
}

/** restrictedRows' pass: a function of its own with nothing after its loop (see adjacency's passes above). */
function keepMemberEntries(parentStart: Int32Array, parentAdj: Int32Array, members: ArrayLike<number>, renumbered: Int32Array, start: Int32Array, adj: Int32Array): void {
  let w = 0;
  for (let k = 0; k < members.length; k++) {
    const b = members[k];
    for (let ai = parentStart[b], end = parentStart[b + 1]; ai < end; ai++) {
      const j = renumbered[parentAdj[ai]];
      adj[w] = j;
      w += +(j >= 0);
    }
    start[k + 1] = w;
  }
}

const groups = new WeakMap<BufferInfo, { readonly buffers: readonly BufferInfo[]; readonly conflicts: IntervalConflicts }>();

/** Registers `buffers` (in this order) as conflicting exactly where their live ranges overlap. */
export function registerIntervalGroup(buffers: readonly BufferInfo[], conflicts: IntervalConflicts): void {
  const group = { buffers, conflicts };
  for (const b of buffers) groups.set(b, group);
}

/**
 * The interval conflicts of `buffers` when they are exactly one registered group, in its order
 * (then index i of the conflicts is buffers[i]); undefined otherwise, and callers fall back to
 * the conflict lists.
 */
export function intervalGroupOf(buffers: readonly BufferInfo[]): IntervalConflicts | undefined {
  if (buffers.length === 0) return undefined;
  const group = groups.get(buffers[0]);
  if (!group || group.buffers.length !== buffers.length) return undefined;
  for (let i = 0; i < buffers.length; i++) if (group.buffers[i] !== buffers[i]) return undefined;
  return group.conflicts;
}

/** Validates one interval's numbers: safe non-negative integers, last >= first. */
export function checkInterval(name: string, sizeBytes: number, firstUse: number, lastUse: number): void {
  const bad = (what: string) => {
    throw new MemoryPlanningError(`buffer '${name}': ${what}`, { buffer: name });
  };
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0) bad(`size ${sizeBytes} is not a non-negative integer below 2^53`);
  if (!Number.isSafeInteger(firstUse) || firstUse < 0) bad(`first use ${firstUse} is not a non-negative integer below 2^53`);
  if (!Number.isSafeInteger(lastUse) || lastUse < 0) bad(`last use ${lastUse} is not a non-negative integer below 2^53`);
  if (lastUse < firstUse) bad(`last use ${lastUse} is before first use ${firstUse}`);
}

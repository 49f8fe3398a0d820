/**
 * Dense, index-based view of a planning problem. Planners work on integer indices and typed
 * arrays (thousands of buffers, hundreds of thousands of conflict entries); names and PoolInfo
 * objects only come back when the plan is handed out.
 */
import { lcm } from '../stackBound';
import { MemoryPlanningError } from '../../errors';
import { ascending, CompactConflicts, compactPartOf } from '../compactConflicts';
import { intervalGroupOf, IntervalConflicts } from '../intervalConflicts';
import { BufferInfo, BufferPlan, PoolAllocation, PoolInfo } from '../types';

export interface IndexedProblem {
  readonly buffers: readonly BufferInfo[];
  readonly count: number;
  readonly sizes: Float64Array;
  readonly alignments: Float64Array;
  /**
   * Conflicts exactly as given: directional, repeats kept (TVM planners rely on both). For an
   * interval group they are the rows of its sweep-line adjacency, for a compiled model's buffers
   * (compactConflicts.ts) the rows of their lists; both built on first read.
   */
  readonly conflicts: readonly Int32Array[];
  /** Set when the buffers are one interval group: conflicts are the overlapping live ranges. */
  readonly intervals?: IntervalConflicts;
  /**
   * Set when the buffers are a compiled model's (or a part of them, in their order): the same
   * conflicts as ranges and the constants' clique, index k being buffer k (compactConflicts.ts).
   */
  readonly compact?: CompactConflicts;
  /** Distinct pools by name, in first-seen order. */
  readonly pools: readonly PoolInfo[];
  /** Per buffer: pool indices in preference order. */
  readonly candidates: readonly Int32Array[];
  /** Per pool: size limit in bytes, Infinity when unbounded. */
  readonly poolLimits: Float64Array;
  /** Per buffer: rank of its name in byte-wise (UTF-8, as std::string) order. */
  readonly nameRank: Int32Array;
}

/** Offsets and pools by buffer index; pool -1 means "not placed". */
export interface IndexedPlan {
  readonly pool: Int32Array;
  readonly offset: Float64Array;
}

export function poolLimitOf(pool: PoolInfo): number {
  const hint = pool.sizeHintBytes;
  return hint === undefined || hint < 0 ? Infinity : hint;
}

export function indexProblem(buffers: readonly BufferInfo[]): IndexedProblem {
  const count = buffers.length;
  const indexOf = new Map<string, number>();
  buffers.forEach((b, i) => {
    if (indexOf.has(b.name)) {
      throw new MemoryPlanningError(`duplicate buffer name '${b.name}' given to the memory planner`, {
        buffer: b.name,
      });
    }
    indexOf.set(b.name, i);
  });

  const pools: PoolInfo[] = [];
  const poolIndex = new Map<string, number>();
  const sizes = new Float64Array(count);
  const alignments = new Float64Array(count);
  const conflicts: Int32Array[] = [];
  const intervals = intervalGroupOf(buffers);
  // A compiled model's buffers (or a part of them): their rows come from the ranges and the
  // constants' clique, index based and only when read (compactConflicts.ts).
  const compact = intervals ? undefined : compactPartOf(buffers);
  const candidates: Int32Array[] = [];
  buffers.forEach((b, i) => {
    if (!(b.sizeBytes >= 0) || !Number.isSafeInteger(b.sizeBytes)) {
      throw new MemoryPlanningError(`buffer '${b.name}' has an invalid size ${b.sizeBytes}`, { buffer: b.name });
    }
    if (!(b.alignment >= 1) || !Number.isSafeInteger(b.alignment)) {
      throw new MemoryPlanningError(`buffer '${b.name}' has an invalid alignment ${b.alignment}`, {
        buffer: b.name,
      });
    }
    if (b.poolCandidates.length === 0) {
      throw new MemoryPlanningError(`buffer '${b.name}' has no candidate pools`, { buffer: b.name });
    }
    sizes[i] = b.sizeBytes;
    alignments[i] = b.alignment;
    // A pool named twice is one choice, at its first place: the planners count a buffer with
    // more than one candidate as free to move, and a move needs another pool to go to.
    const listed: number[] = [];
    for (const p of b.poolCandidates) {
      let pi = poolIndex.get(p.name);
      if (pi === undefined) {
        pi = pools.length;
        pools.push(p);
        poolIndex.set(p.name, pi);
      }
      if (!listed.includes(pi)) listed.push(pi);
    }
    candidates.push(Int32Array.from(listed));
    if (intervals || compact) return;
    const conf = new Int32Array(b.conflicts.length);
    b.conflicts.forEach((name, k) => {
      const j = indexOf.get(name);
      if (j === undefined) {
        throw new MemoryPlanningError(`buffer '${b.name}' conflicts with unknown buffer '${name}'`, {
          buffer: b.name,
        });
      }
      conf[k] = j;
    });
    conflicts.push(conf);
  });

  const poolLimits = Float64Array.from(pools, poolLimitOf);
  const base = { buffers, count, sizes, alignments, pools, candidates, poolLimits, nameRank: rankNames(buffers) };
  if (compact) {
    const part = compact.whole ? compact.set : compact.set.restrict(compact.indices);
    let listed: Int32Array[] | undefined;
    const ordered = compact.whole || ascending(compact.indices);
    return {
      ...base,
      ...(ordered ? { compact: part } : {}),
      get conflicts() {
        // A part out of the set's order lists its range conflicts in the set's order of ties.
        listed ??= ordered ? rowsOf(part.csr(), count) : remappedRows(compact.set, compact.indices);
        return listed;
      },
    };
  }
  if (!intervals) return { ...base, conflicts };
  let rows: Int32Array[] | undefined;
  return {
    ...base,
    intervals,
    get conflicts() {
      if (!rows) {
        const { start, adj } = intervals.adjacency();
        rows = Array.from({ length: count }, (_, i) => adj.subarray(start[i], start[i + 1]));
      }
      return rows;
    },
  };
}

function rowsOf(csr: { readonly start: Int32Array; readonly adj: Int32Array }, count: number): Int32Array[] {
  return Array.from({ length: count }, (_, i) => csr.adj.subarray(csr.start[i], csr.start[i + 1]));
}

/** The rows of the part of `set` at `part` (its indices there, any order), in the part's indices. */
function remappedRows(set: CompactConflicts, part: Int32Array): Int32Array[] {
  const at = new Int32Array(set.count).fill(-1);
  part.forEach((i, k) => (at[i] = k));
  return Array.from(part, (i) => Int32Array.from(Array.from(set.row(i)).filter((j) => at[j] >= 0), (j) => at[j]));
}

/**
 * std::string compares bytes; JS compares UTF-16 units. Rank by UTF-8 bytes to match TVM. The
 * two orders differ only where a name holds a unit at U+D800 or above (a surrogate against
 * U+E000..U+FFFF), so other names are compared as strings, without encoding each one and a
 * native Buffer.compare call per comparison (about 15 ms per 2,000 names in a fresh process).
 */
function rankNames(buffers: readonly BufferInfo[]): Int32Array {
  const rank = new Int32Array(buffers.length);
  if (!buffers.some((b) => HIGH_UNITS.test(b.name))) {
    const order = Array.from({ length: buffers.length }, (_, i) => i);
    order.sort((a, b) => {
      const x = buffers[a].name;
      const y = buffers[b].name;
      return x < y ? -1 : x > y ? 1 : 0;
    });
    order.forEach((b, r) => (rank[b] = r));
    return rank;
  }
  const encoded = buffers.map((b, i) => ({ i, bytes: Buffer.from(b.name, 'utf8') }));
  encoded.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
  encoded.forEach((e, r) => (rank[e.i] = r));
  return rank;
}
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/** Buffer b's alignment in pool p: the lcm of its own and the pool's (a pool without one: 1). */
export function alignmentInPool(problem: IndexedProblem, b: number, p: number): number {
  return lcm(problem.alignments[b], Math.max(1, problem.pools[p].alignment || 1));
}

export function roundUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

/** Turns an indexed plan back into the name-keyed plan every caller sees. */
export function toBufferPlan(problem: IndexedProblem, plan: IndexedPlan): BufferPlan {
  const result = new Map<string, PoolAllocation>();
  for (let i = 0; i < problem.count; i++) {
    const p = plan.pool[i];
    if (p < 0) {
      throw new MemoryPlanningError(`internal: buffer '${problem.buffers[i].name}' left unplaced`, {
        buffer: problem.buffers[i].name,
      });
    }
    result.set(problem.buffers[i].name, { pool: problem.pools[p].name, offset: plan.offset[i] });
  }
  return result;
}

/** The message TVM's SelectPlacementPool gives, kept so users can search for it. */
export function poolsExhaustedError(buffer: BufferInfo): MemoryPlanningError {
  return new MemoryPlanningError(
    `the space available in the provided pools exceeded when trying to allocate the buffer: ${buffer.name}`,
    { buffer: buffer.name, pool: buffer.poolCandidates.map((p) => p.name).join(',') },
  );
}

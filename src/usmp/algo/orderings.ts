/**
 * Placement orders tried by `auto` before it starts searching. Each suits a different shape:
 * size order is strong on chains, urgency (peak live bytes during the buffer's lifetime) packs
 * the busiest moment first, weighted degree stands in for urgency when no live ranges exist.
 * (Start-time order was tried and never won on chains or random intervals.)
 */
import { IndexedProblem } from './indexed';
import { orderByColumnsDescending } from './permutation';
import { PlacementEngine } from './placement';

export interface NamedOrder {
  readonly name: string;
  readonly order: Int32Array;
  /** Tried with first-fit only (its point is first-fit's reuse of dead buffers' space). */
  readonly firstFitOnly?: boolean;
}

/**
 * The indices 0..n-1 by the columns, each descending (`ascending` turns one around), ties by
 * index: one native sort of packed ranks (orderByColumnsDescending), where comparator sorts
 * called a function per pair, in a cold plan first in the interpreter, then compiled (five
 * orders of 2,000 buffers per plan, each n log n calls).
 */
function sortedIndices(n: number, ...columns: Float64Array[]): Int32Array {
  return orderByColumnsDescending(columns, n);
}

/** A column negated, so that sortedIndices orders it ascending (0 - v: no negative zero). */
function ascending(values: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = 0 - values[i];
  return out;
}

/** The indices themselves as a column. */
function indexColumn(n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Size plus the sizes of all neighbours: how crowded a buffer's neighbourhood is. */
export function weightedDegree(engine: PlacementEngine): Float64Array {
  const w = new Float64Array(engine.n);
  for (let b = 0; b < engine.n; b++) {
    let s = engine.sizes[b];
    for (let ai = engine.adjStart[b]; ai < engine.adjStart[b + 1]; ai++) s += engine.sizes[engine.adj[ai]];
    w[b] = s;
  }
  return w;
}

/** Max over the buffer's lifetime of the bytes live at once (needs every live range). */
function urgencyOfLiveRanges(problem: IndexedProblem): Float64Array | undefined {
  const n = problem.count;
  const firsts = new Float64Array(n);
  const lasts = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    const r = problem.buffers[b].liveRange;
    if (r === undefined) return undefined;
    firsts[b] = r[0];
    lasts[b] = r[1];
  }
  // Distinct time points, sorted; typed arrays and binary search keep this a few ms at 2000.
  const all = new Float64Array(2 * n);
  all.set(firsts);
  all.set(lasts, n);
  all.sort();
  let m = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[m++] = all[i];
  const times = all.subarray(0, m);
  const at = (t: number): number => {
    let lo = 0;
    let hi = m - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const from = Int32Array.from(firsts, at);
  const to = Int32Array.from(lasts, at);
  const delta = new Float64Array(m + 1);
  for (let b = 0; b < n; b++) {
    delta[from[b]] += problem.sizes[b];
    delta[to[b] + 1] -= problem.sizes[b];
  }
  const live = new Float64Array(m);
  let run = 0;
  for (let i = 0; i < m; i++) live[i] = run += delta[i];
  const urgency = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    let peak = 0;
    for (let i = from[b]; i <= to[b]; i++) if (live[i] > peak) peak = live[i];
    urgency[b] = peak;
  }
  return urgency;
}

/**
 * Urgency first, then longer life, earlier start, larger size, lower index: Vela's order, and
 * the one of our starts that suits irregular live ranges. Undefined without live ranges.
 */
export function urgencyOrder(problem: IndexedProblem): Int32Array | undefined {
  const urgency = urgencyOfLiveRanges(problem);
  if (!urgency) return undefined;
  const n = problem.count;
  const first = new Float64Array(n);
  const duration = new Float64Array(n);
  for (let b = 0; b < n; b++) {
    const r = problem.buffers[b].liveRange!;
    first[b] = r[0];
    duration[b] = r[1] - r[0];
  }
  return sortedIndices(n, urgency, duration, ascending(first, n), problem.sizes);
}

/**
 * TFLite Micro's GreedyMemoryPlanner order: larger first, and among equal sizes the buffer added
 * later first (TFLM fills its sort array from the last buffer and sorts it with a stable bubble
 * sort). Placed first-fit, each buffer lands at the lowest offset that clears the placed buffers
 * it conflicts with, which is where TFLM's walk over the time-overlapping placed buffers in
 * offset order stops; with conflicts = overlapping live ranges and sizes that keep offsets
 * aligned, the engine reproduces TFLM's plan offset for offset, so `auto` is never worse.
 */
export function tflmOrder(problem: IndexedProblem): Int32Array {
  const size = problem.sizes;
  return sortedIndices(problem.count, size, indexColumn(problem.count));
}

/** TFLM plans one arena from live ranges; on problems of that shape its order is the size start. */
export function tflmStartApplies(problem: IndexedProblem): boolean {
  return problem.pools.length === 1 && problem.buffers.every((b) => b.liveRange !== undefined);
}

/** The name of the urgency order among the initial orders. */
export const URGENCY_ORDER = 'urgency';

export function initialOrders(problem: IndexedProblem, engine: PlacementEngine): NamedOrder[] {
  const n = problem.count;
  const size = problem.sizes;
  const degree = weightedDegree(engine);
  // Where TFLM's planner applies, its order is the size order (only the ties differ), so it
  // takes that slot: first-fit it is TFLM's plan, and the greedy phase costs no extra placement.
  const bySize: NamedOrder = tflmStartApplies(problem)
    ? { name: 'tflm size', order: tflmOrder(problem) }
    : { name: 'size', order: sortedIndices(n, size, degree) };
  const orders: NamedOrder[] = [bySize, { name: 'degree', order: sortedIndices(n, degree, size) }];
  const urgency = urgencyOrder(problem);
  if (urgency) orders.push({ name: URGENCY_ORDER, order: urgency });
  const chronological = chronologicalOrder(problem);
  if (chronological) orders.push({ name: 'chronological', order: chronological, firstFitOnly: true });
  // With pins (some buffers have fewer candidate pools), free buffers placed first can take the
  // only pool a pinned one may use: the constrained buffers then go first.
  if (problem.candidates.some((c) => c.length !== problem.candidates[0].length)) {
    const fewerChoices = ascending(
      problem.candidates.map((c) => c.length),
      n,
    );
    orders.push({ name: 'pinned first', order: sortedIndices(n, fewerChoices, size, degree) });
    // Then by urgency: the free buffers of the busiest moments come first and take the
    // size-limited pool there, so the unlimited pool's peak (at those moments) comes down.
    if (urgency) {
      const rank = new Int32Array(n);
      urgency.forEach((b, r) => (rank[b] = r));
      orders.push({ name: 'pinned first/urgency', order: sortedIndices(n, fewerChoices, ascending(rank, n)) });
    }
  }
  return orders;
}

/**
 * Buffers in the order they come alive (larger first among those starting together). Placed
 * first-fit, each lands over the buffers already dead, like a runtime allocator; on chains
 * where a big early buffer (a model input) dies before the peak, it finds the packing the size
 * order misses by putting the biggest buffer first. Needs a live range on every buffer.
 */
export function chronologicalOrder(problem: IndexedProblem): Int32Array | undefined {
  if (problem.buffers.some((b) => b.liveRange === undefined)) return undefined;
  const n = problem.count;
  const first = new Float64Array(n);
  for (let b = 0; b < n; b++) first[b] = problem.buffers[b].liveRange![0];
  return sortedIndices(n, ascending(first, n), problem.sizes);
}

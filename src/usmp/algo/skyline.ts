/**
 * The highest end over a time range, for interval problems placed "on top of every placed
 * conflict" (TVM's greedy placement with one unbounded pool): a segment tree over the compressed
 * time axis with range chmax and range max, O(log n) per buffer, so a 100k-buffer set plans
 * without enumerating a single conflict pair.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';
import { alignmentInPool, IndexedPlan, IndexedProblem, poolsExhaustedError, roundUp } from './indexed';

export class Skyline {
  private readonly size: number;
  /** Max over the node's range of every end written to it or below it. */
  private readonly high: Float64Array;
  /** Max of the ends written to the node's whole range. */
  private readonly cover: Float64Array;
  private readonly from: Int32Array;
  private readonly to: Int32Array;

  constructor(intervals: IntervalConflicts) {
    const times = intervals.times();
    let size = 1;
    while (size < times.length) size *= 2;
    this.size = size;
    this.high = new Float64Array(2 * size);
    this.cover = new Float64Array(2 * size);
    this.from = Int32Array.from(intervals.first, (t) => timeIndex(times, t));
    this.to = Int32Array.from(intervals.last, (t) => timeIndex(times, t));
  }

  /** Highest end written over buffer b's live range (0 when none). */
  highest(b: number): number {
    return this.query(1, 0, this.size - 1, this.from[b], this.to[b]);
  }

  /** Records that buffer b's live range is occupied up to `end`. */
  raise(b: number, end: number): void {
    this.update(1, 0, this.size - 1, this.from[b], this.to[b], end);
  }

  private query(node: number, lo: number, hi: number, l: number, r: number): number {
    if (l <= lo && hi <= r) return this.high[node];
    const mid = (lo + hi) >> 1;
    let best = this.cover[node];
    if (l <= mid) best = Math.max(best, this.query(2 * node, lo, mid, l, r));
    if (r > mid) best = Math.max(best, this.query(2 * node + 1, mid + 1, hi, l, r));
    return best;
  }

  private update(node: number, lo: number, hi: number, l: number, r: number, v: number): void {
    if (v > this.high[node]) this.high[node] = v;
    if (l <= lo && hi <= r) {
      if (v > this.cover[node]) this.cover[node] = v;
      return;
    }
    const mid = (lo + hi) >> 1;
    if (l <= mid) this.update(2 * node, lo, mid, l, r, v);
    if (r > mid) this.update(2 * node + 1, mid + 1, hi, l, r, v);
  }
}

/**
 * Places buffers in `order`, each in the first candidate pool where it fits, on top of every
 * placed buffer of that pool its live range overlaps. The fallback of `auto` for interval sets
 * with too many conflicts to list (all-live sets, where stacking is optimal anyway).
 */
export function skylinePlacement(problem: IndexedProblem, intervals: IntervalConflicts, order: Int32Array): IndexedPlan {
  const skylines = problem.pools.map(() => new Skyline(intervals));
  const pool = new Int32Array(problem.count).fill(-1);
  const offset = new Float64Array(problem.count);
  for (const b of order) {
    for (const p of problem.candidates[b]) {
      const align = alignmentInPool(problem, b, p);
      const at = roundUp(skylines[p].highest(b), align);
      if (at + problem.sizes[b] > problem.poolLimits[p]) continue;
      pool[b] = p;
      offset[b] = at;
      skylines[p].raise(b, at + problem.sizes[b]);
      break;
    }
    if (pool[b] < 0) throw poolsExhaustedError(problem.buffers[b]);
  }
  return { pool, offset };
}

/**
 * The highest end over a time range, for interval problems placed "on top of every placed
 * conflict" (TVM's greedy placement with one unbounded pool): a segment tree over the compressed
 * time axis with range chmax and range max, O(log n) per buffer, so a 100k-buffer set plans
 * without enumerating a single conflict pair.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';

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

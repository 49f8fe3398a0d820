/**
 * How many buffers placed so far in a pool overlap a given buffer's live range, in O(log T)
 * (T distinct times), for a full placement of an interval set (placement.ts): a buffer with
 * many placed neighbours then finds its gap by walking the pool's placed buffers in offset order
 * and testing live ranges, without collecting its conflict row; one with few keeps the exact
 * rescanning pass over its collected neighbours, whose predecessor can differ from the walk's.
 *
 * Placed buffers overlapping [f, l] = those starting at or before l minus those ending before f
 * (a range ending before f starts before l too): two Fenwick trees over the time axis per pool.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';

export class PlacedOverlaps {
  private readonly firstAt: Int32Array;
  private readonly lastAt: Int32Array;
  private readonly span: number;
  /** Per pool, Fenwick trees of placed buffers by first-use and by last-use time index. */
  private readonly byFirst: Int32Array[];
  private readonly byLast: Int32Array[];

  constructor(intervals: IntervalConflicts, nPools: number) {
    const times = intervals.times();
    const n = intervals.count;
    this.span = times.length;
    this.firstAt = new Int32Array(n);
    this.lastAt = new Int32Array(n);
    for (let b = 0; b < n; b++) {
      this.firstAt[b] = timeIndex(times, intervals.first[b]);
      this.lastAt[b] = timeIndex(times, intervals.last[b]);
    }
    this.byFirst = Array.from({ length: nPools }, () => new Int32Array(this.span + 1));
    this.byLast = Array.from({ length: nPools }, () => new Int32Array(this.span + 1));
  }

  /** Forgets every placement (a full placement starts). */
  clear(): void {
    for (const t of this.byFirst) t.fill(0);
    for (const t of this.byLast) t.fill(0);
  }

  /** Records buffer b placed in pool p. */
  add(b: number, p: number): void {
    const first = this.byFirst[p];
    const last = this.byLast[p];
    for (let i = this.firstAt[b] + 1; i <= this.span; i += i & -i) first[i]++;
    for (let i = this.lastAt[b] + 1; i <= this.span; i += i & -i) last[i]++;
  }

  /** The buffers placed in pool p whose live ranges overlap b's. */
  overlapping(b: number, p: number): number {
    return prefix(this.byFirst[p], this.lastAt[b] + 1) - prefix(this.byLast[p], this.firstAt[b]);
  }
}

/** Entries 1..i of a Fenwick tree, summed. */
function prefix(tree: Int32Array, i: number): number {
  let s = 0;
  for (; i > 0; i -= i & -i) s += tree[i];
  return s;
}

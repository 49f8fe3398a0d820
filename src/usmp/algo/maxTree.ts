/** A max segment tree with range additions, for the exact core's per-section bytes still to place. */
export class MaxTree {
  private readonly size: number;
  private readonly t: Float64Array;
  constructor(values: Float64Array) {
    let size = 1;
    while (size < values.length) size *= 2;
    this.size = size;
    // Node 0 is no node (the root is 1) and stays -Infinity: rangeMax reads it for "none".
    this.t = new Float64Array(2 * size).fill(-Infinity);
    this.t.set(values, size);
    for (let i = size - 1; i >= 1; i--) this.t[i] = Math.max(this.t[2 * i], this.t[2 * i + 1]);
  }
  /**
   * Adds `delta` to values[lo..hi] (the array the caller keeps in step with the tree) and to
   * those leaves, then repairs the nodes above them a level at a time: about twice the range
   * plus the height, where a point update per leaf walked up from each (a buffer's placement
   * changes the 50-100 sections it lives in).
   */
  addRange(values: Float64Array, lo: number, hi: number, delta: number): void {
    const { t, size } = this;
    for (let i = lo; i <= hi; i++) {
      values[i] += delta;
      t[i + size] = values[i];
    }
    for (let l = (lo + size) >> 1, r = (hi + size) >> 1; l >= 1; l >>= 1, r >>= 1) {
      let changed = false;
      for (let k = l; k <= r; k++) {
        const m = greater(t[2 * k], t[2 * k + 1]);
        if (t[k] !== m) {
          t[k] = m;
          changed = true;
        }
      }
      // Nodes above an unchanged level see the same children.
      if (!changed) break;
    }
  }
  max(): number {
    return this.t[1];
  }
  /**
   * The largest value in [lo, hi]. Each level reads a node at either end, or node 0 (never
   * written, -Infinity) where the end takes none: no branch on the ends' parity, which is as
   * random as a coin per query and level (the dives' queries, a quarter of their time on dense
   * sets, 20-25% faster than with `if (l & 1)`). The larger of two is a branch on a new
   * maximum, which is rarer.
   */
  rangeMax(lo: number, hi: number): number {
    const t = this.t;
    let m = -Infinity;
    for (let l = lo + this.size, r = hi + this.size + 1; l < r; l >>= 1, r >>= 1) {
      const takeLeft = l & 1;
      const left = t[l & -takeLeft];
      if (left > m) m = left;
      l += takeLeft;
      const takeRight = r & 1;
      r -= takeRight;
      const right = t[r & -takeRight];
      if (right > m) m = right;
    }
    return m;
  }
}

/**
 * The larger of two values, never NaN (byte counts and -Infinity): Math.max's result, where
 * Math.max itself also tests for NaN and -0 (the trees are most of the exact core's dives).
 */
function greater(a: number, b: number): number {
  return a >= b ? a : b;
}

/** Work units charged for one range-max query (a few tree levels). */
export const RANGE_QUERY_WORK = 8;

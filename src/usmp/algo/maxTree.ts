/** A max segment tree with point updates, for the exact core's per-section bytes still to place. */
export class MaxTree {
  private readonly size: number;
  private readonly t: Float64Array;
  constructor(values: Float64Array) {
    let size = 1;
    while (size < values.length) size *= 2;
    this.size = size;
    this.t = new Float64Array(2 * size).fill(-Infinity);
    this.t.set(values, size);
    for (let i = size - 1; i >= 1; i--) this.t[i] = Math.max(this.t[2 * i], this.t[2 * i + 1]);
  }
  set(i: number, v: number): void {
    let k = i + this.size;
    this.t[k] = v;
    for (k >>= 1; k >= 1; k >>= 1) {
      const m = Math.max(this.t[2 * k], this.t[2 * k + 1]);
      if (this.t[k] === m) break;
      this.t[k] = m;
    }
  }
  max(): number {
    return this.t[1];
  }
  /** The largest value in [lo, hi]. */
  rangeMax(lo: number, hi: number): number {
    let m = -Infinity;
    for (let l = lo + this.size, r = hi + this.size + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) m = Math.max(m, this.t[l++]);
      if (r & 1) m = Math.max(m, this.t[--r]);
    }
    return m;
  }
}

/** Work units charged for one range-max query (a few tree levels). */
export const RANGE_QUERY_WORK = 8;

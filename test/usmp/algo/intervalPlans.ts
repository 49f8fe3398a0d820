import { PushDownInput } from '../../../src/usmp/algo/pushDown';

/** A buffer of a small one-pool interval set: size, live range [first, last], alignment. */
export interface Iv {
  size: number;
  first: number;
  last: number;
  alignment: number;
}

/** The set's sizes, alignments and overlap conflicts (CSR), as pushDown and the lift moves take them. */
export function inputOf(ivs: Iv[]): PushDownInput {
  const rows = ivs.map((a, i) => ivs.flatMap((b, j) => (i !== j && a.first <= b.last && b.first <= a.last ? [j] : [])));
  const adjStart = new Int32Array(ivs.length + 1);
  rows.forEach((r, i) => (adjStart[i + 1] = adjStart[i] + r.length));
  return {
    sizes: Float64Array.from(ivs, (iv) => iv.size),
    alignments: Float64Array.from(ivs, (iv) => iv.alignment),
    adjStart,
    adj: Int32Array.from(rows.flat()),
  };
}

/** Every offset aligned, every pair of overlapping non-empty buffers apart. */
export function expectValid(ivs: Iv[], offsets: Float64Array): void {
  ivs.forEach((a, i) => {
    expect(offsets[i] % a.alignment).toBe(0);
    ivs.forEach((b, j) => {
      if (j <= i || a.size === 0 || b.size === 0 || a.first > b.last || b.first > a.last) return;
      const apart = offsets[i] + a.size <= offsets[j] || offsets[j] + b.size <= offsets[i];
      expect(apart).toBe(true);
    });
  });
}

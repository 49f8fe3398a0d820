import { PushDownInput } from '../../../src/usmp/algo/pushDown';

/** A buffer of a small one-pool interval set: size, live range [first, last], alignment. */
export interface Iv {
  size: number;
  first: number;
  last: number;
  alignment: number;
}

/**
 * The set's sizes, alignments and overlap conflicts (CSR), as pushDown and the lift moves take
 * them; with `spans`, also the live ranges as spans of time sections (as the exact core's tables).
 */
export function inputOf(ivs: Iv[], spans = false): PushDownInput {
  const rows = ivs.map((a, i) => ivs.flatMap((b, j) => (i !== j && a.first <= b.last && b.first <= a.last ? [j] : [])));
  const adjStart = new Int32Array(ivs.length + 1);
  rows.forEach((r, i) => (adjStart[i + 1] = adjStart[i] + r.length));
  const times = [...new Set(ivs.flatMap((iv) => [iv.first, iv.last]))].sort((a, b) => a - b);
  const sections = spans
    ? { secFrom: Int32Array.from(ivs, (iv) => times.indexOf(iv.first)), secTo: Int32Array.from(ivs, (iv) => times.indexOf(iv.last)) }
    : {};
  return {
    ...sections,
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

/** A valid plan with holes: each buffer, in random order, some random distance above its first fit. */
export function holeyPlan(ivs: Iv[], r: () => number): Float64Array {
  const offsets = new Float64Array(ivs.length).fill(-1);
  const order = ivs.map((_, i) => i).sort(() => r() - 0.5);
  for (const b of order) {
    const iv = ivs[b];
    let at = Math.ceil((r() * 40) / iv.alignment) * iv.alignment;
    for (let moved = true; moved; ) {
      moved = false;
      ivs.forEach((o, j) => {
        if (offsets[j] < 0 || o.size === 0 || iv.size === 0 || o.first > iv.last || iv.first > o.last) return;
        if (offsets[j] < at + iv.size && at < offsets[j] + o.size) {
          at = Math.ceil((offsets[j] + o.size) / iv.alignment) * iv.alignment;
          moved = true;
        }
      });
    }
    offsets[b] = at;
  }
  return offsets;
}

/**
 * stableOrderByValue: positions in ascending value order, ties by position, whichever way it
 * sorts (packed 32-bit keys, packed double keys, packed 64-bit keys for values past a double's
 * exact range, or a comparator for the rest).
 */
import fc from 'fast-check';
import { orderByColumnsDescending, stableOrderByValue, stableOrderInto } from '../../../src/usmp/algo/permutation';
import { FUZZ_SEED } from '../../fuzz/harness';

function reference(values: readonly number[]): number[] {
  return values.map((_, i) => i).sort((x, y) => values[x] - values[y] || x - y);
}

function ordered(values: readonly number[]): number[] {
  const m = values.length;
  return Array.from(stableOrderByValue(Float64Array.from(values), m, new Float64Array(m), new Int32Array(m)));
}

describe('stableOrderByValue', () => {
  const small = fc.integer({ min: 0, max: 20 });
  // Past 32-bit keys once scaled by the positions (2^26 * 64 = 2^32), within doubles' range.
  const mid = fc.integer({ min: 0, max: 20 }).map((k) => 2 ** 26 + k);
  const negative = fc.integer({ min: -20, max: 20 });
  const huge = fc.integer({ min: 0, max: 40 }).map((k) => 2 ** 47 + k * 2 ** 20);
  const beyond = fc.integer({ min: 0, max: 5 }).map((k) => 2 ** 60 + k * 2 ** 50);
  const fraction = fc.integer({ min: 0, max: 9 }).map((k) => k / 4);

  it.each([
    ['small whole values packed in 32 bits', small],
    ['whole values packed in doubles', mid],
    ['negative whole values (packed doubles)', negative],
    ['values past the exact range of packed doubles (64-bit keys)', huge],
    ['values past 64-bit keys (comparator)', beyond],
    ['fractions (comparator)', fraction],
  ])('%s: ascending, ties in position order', (_, value) => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 0, maxLength: 300 }), (values) => {
        expect(ordered(values)).toEqual(reference(values));
      }),
      { seed: FUZZ_SEED + 51, numRuns: 100 },
    );
  });

  it('packs keys into 32 bits up to the last that fits, and past it into doubles, in the same order', () => {
    // 4 positions (scale 4): the greatest key of values up to 2^30 - 1 is 2^32 - 1.
    for (const top of [2 ** 30 - 1, 2 ** 30, 2 ** 30 + 1]) {
      const values = [top, 0, top, top - 1];
      expect(ordered(values)).toEqual(reference(values));
    }
  });

  it('stableOrderInto: the same order into the first m entries of out, the rest untouched, whichever way it sorts', () => {
    for (const values of [[5, 1, 5, 0, 3], [2 ** 30, 7, 2 ** 30, 7], [2 ** 60, 1, 0], [0.5, 0.25, 0.5], [-2, 3, -2]]) {
      const m = values.length;
      const out = new Int32Array(m + 3).fill(-7);
      const returned = stableOrderInto(Float64Array.from(values), m, new Float64Array(m), out);
      expect(returned).toBe(out);
      expect(Array.from(out.subarray(0, m))).toEqual(reference(values));
      expect(Array.from(out.subarray(m))).toEqual([-7, -7, -7]);
    }
  });
});

describe('orderByColumnsDescending', () => {
  const small = fc.integer({ min: 0, max: 6 });
  const large = fc.integer({ min: 0, max: 6 }).map((k) => 2 ** 40 + k * 2 ** 30);
  const fraction = fc.integer({ min: -6, max: 6 }).map((k) => k / 3);

  it.each([
    ['small whole values (ranks from 32-bit keys)', small],
    ['large whole values (ranks by search)', large],
    ['fractions and negatives (ranks by search)', fraction],
  ])('%s: each column descending, ties by the next, then by position', (_, value) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.array(fc.tuple(value, value, value), { minLength: 0, maxLength: 200 }), (k, rows) => {
        const columns = [0, 1, 2].slice(0, k).map((c) => Float64Array.from(rows, (r) => r[c]));
        const expected = rows
          .map((_, i) => i)
          .sort((a, b) => {
            for (const col of columns) if (col[a] !== col[b]) return col[b] - col[a];
            return a - b;
          });
        expect(Array.from(orderByColumnsDescending(columns, rows.length))).toEqual(expected);
      }),
      { seed: FUZZ_SEED + 52, numRuns: 100 },
    );
  });
});

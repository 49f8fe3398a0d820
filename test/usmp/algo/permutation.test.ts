/**
 * stableOrderByValue: positions in ascending value order, ties by position, whichever way it
 * sorts (packed double keys, packed 64-bit keys for values past a double's exact range, or a
 * comparator for the rest).
 */
import fc from 'fast-check';
import { stableOrderByValue } from '../../../src/usmp/algo/permutation';
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
  const huge = fc.integer({ min: 0, max: 40 }).map((k) => 2 ** 47 + k * 2 ** 20);
  const beyond = fc.integer({ min: 0, max: 5 }).map((k) => 2 ** 60 + k * 2 ** 50);
  const fraction = fc.integer({ min: 0, max: 9 }).map((k) => k / 4);

  it.each([
    ['whole values packed in doubles', small],
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
});

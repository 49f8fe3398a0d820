import { orderByKeys, SortKey } from '../../../src/usmp/algo/keyOrder';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';

/** The comparator sort orderByKeys stands in for. */
function byComparator(n: number, keys: readonly SortKey[], indexDescending = false): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    for (const k of keys) {
      const d = k.descending ? k.values[b] - k.values[a] : k.values[a] - k.values[b];
      if (d !== 0) return d;
    }
    return indexDescending ? b - a : a - b;
  });
}

describe('orderByKeys', () => {
  it('gives the comparator sort\'s order: many ties, both directions, index either way', () => {
    const random = seededRandom(7);
    for (const n of [0, 1, 2, 17, 500, 2000]) {
      const small = Float64Array.from({ length: n }, () => Math.floor(random() * 4));
      const big = Float64Array.from({ length: n }, () => Math.floor(random() * 3) * 2 ** 40 + Math.floor(random() * 3));
      const fractional = Float64Array.from({ length: n }, () => Math.floor(random() * 5) * 0.1 * (random() < 0.5 ? 1 : -1));
      const cases: SortKey[][] = [
        [{ values: small, descending: true }],
        [{ values: small }, { values: big, descending: true }],
        [{ values: fractional, descending: true }, { values: small }, { values: big }],
        [{ values: big }, { values: fractional }, { values: small, descending: true }, { values: small }],
      ];
      for (const keys of cases) {
        for (const indexDescending of [false, true]) {
          expect(Array.from(orderByKeys(n, keys, indexDescending))).toEqual(Array.from(byComparator(n, keys, indexDescending)));
        }
      }
    }
  });

  it('treats -0 and 0 as equal, as a comparator does', () => {
    const values = [0, -0, 0, -0];
    expect(Array.from(orderByKeys(4, [{ values }]))).toEqual([0, 1, 2, 3]);
    expect(Array.from(orderByKeys(4, [{ values, descending: true }], true))).toEqual([3, 2, 1, 0]);
  });
});

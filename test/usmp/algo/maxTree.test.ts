import { MaxTree } from '../../../src/usmp/algo/maxTree';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';

describe('MaxTree', () => {
  // Range additions repair the nodes above a level at a time and stop at a level that did not
  // change: every maximum must still be the one of the values.
  it('answers max and range max as the values do after range additions', () => {
    const r = seededRandom(11);
    for (const length of [1, 2, 3, 7, 64, 100, 257]) {
      const values = Float64Array.from({ length }, () => Math.floor(r() * 1000));
      const tree = new MaxTree(values);
      for (let step = 0; step < 150; step++) {
        const lo = Math.floor(r() * length);
        const hi = lo + Math.floor(r() * (length - lo));
        const delta = Math.floor(r() * 400) - 200;
        const expected = Float64Array.from(values);
        for (let i = lo; i <= hi; i++) expected[i] += delta;
        tree.addRange(values, lo, hi, delta);
        expect(Array.from(values)).toEqual(Array.from(expected));
        expect(tree.max()).toBe(Math.max(...values));
        const a = Math.floor(r() * length);
        const b = a + Math.floor(r() * (length - a));
        expect(tree.rangeMax(a, b)).toBe(Math.max(...values.subarray(a, b + 1)));
      }
    }
  });

  // rangeMax reads node 0 (never a node of the tree) where an end of the range takes no node at
  // a level: it must stay -Infinity, below any value, also after range additions.
  it('answers every range of negative values, before and after range additions', () => {
    const r = seededRandom(12);
    for (const length of [1, 2, 5, 8, 13, 33]) {
      const values = Float64Array.from({ length }, () => -1 - Math.floor(r() * 1000));
      const tree = new MaxTree(values);
      for (let step = 0; step < 3; step++) {
        for (let a = 0; a < length; a++) {
          for (let b = a; b < length; b++) expect(tree.rangeMax(a, b)).toBe(Math.max(...values.subarray(a, b + 1)));
        }
        const lo = Math.floor(r() * length);
        tree.addRange(values, lo, lo + Math.floor(r() * (length - lo)), -Math.floor(r() * 300));
      }
    }
  });
});

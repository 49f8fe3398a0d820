import { mixedFamily } from '../../bench/generators';
import { compareWithReferences } from '../../bench/portfolio';

describe('the bench\'s mixed family', () => {
  test('each seed draws one set, the same every time, of valid live ranges and an alignment of 1, 16 or 64', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const a = mixedFamily(seed, 300);
      expect(mixedFamily(seed, 300)).toEqual(a);
      expect(a.intervals).toHaveLength(300);
      expect([1, 16, 64]).toContain(a.alignment);
      const ops = Number(/x(\d+)_/.exec(a.name)![1]);
      for (const iv of a.intervals) {
        expect(Number.isInteger(iv.size) && iv.size >= 1).toBe(true);
        expect(iv.first).toBeGreaterThanOrEqual(0);
        expect(iv.last).toBeGreaterThanOrEqual(iv.first);
        expect(iv.last).toBeLessThan(ops);
      }
      seen.add(a.description!.split(',').slice(0, 2).join(','));
    }
    // The draws cover many of the 24 size x lifetime kinds, not one.
    expect(seen.size).toBeGreaterThan(12);
  });

  test('the comparison plans each set in its own alignment, and TFLite Micro gets sizes rounded up to it', () => {
    // Seed 3 draws alignment 64 with sizes that are not multiples of it.
    const set = mixedFamily(3, 200);
    expect(set.alignment).toBe(64);
    expect(set.intervals.some((iv) => iv.size % 64 !== 0)).toBe(true);
    const r = compareWithReferences(set);
    expect(r.buffers.every((b) => b.alignment === 64 && b.poolCandidates[0].alignment === 64)).toBe(true);
    expect(r.auto).toBeGreaterThanOrEqual(r.bound);
    expect(r.auto).toBeLessThanOrEqual(r.tflm);
    expect(r.vela).toBeGreaterThanOrEqual(r.bound);
  });
});

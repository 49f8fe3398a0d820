import { mirroredOffsets } from '../../../src/usmp/algo/mirror';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { expectValid, holeyPlan, inputOf, Iv } from './intervalPlans';

const totalOf = (ivs: Iv[], offsets: Float64Array): number => ivs.reduce((m, iv, i) => Math.max(m, offsets[i] + iv.size), 0);

describe('mirroredOffsets', () => {
  test('a hole at the bottom of a busy moment comes to the top, offsets padded to the alignment', () => {
    // At time 1, [0, 16) is free under the 20-byte buffer, which sits on a buffer living at 0 only.
    const ivs: Iv[] = [
      { size: 16, first: 0, last: 0, alignment: 16 },
      { size: 20, first: 0, last: 1, alignment: 16 },
      { size: 32, first: 1, last: 1, alignment: 16 },
    ];
    const offsets = Float64Array.from([0, 16, 48]);
    expectValid(ivs, offsets);
    const mirrored = mirroredOffsets(inputOf(ivs), offsets)!;
    // Top 80; each buffer takes its size rounded up to 16 below the mirror of its offset.
    expect([...mirrored]).toEqual([64, 32, 0]);
    expectValid(ivs, mirrored);
    // At time 1 the buffers now sit from 0 and the free room is on top, [52, 80); the same total.
    expect(totalOf(ivs, mirrored)).toBe(80);
  });

  test('random plans: the mirror is valid, aligned, and at most the total rounded up to the alignment', () => {
    let lower = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const r = seededRandom(seed);
      const alignment = [1, 4, 16][seed % 3];
      const ivs: Iv[] = Array.from({ length: 25 }, () => {
        const first = Math.floor(r() * 12);
        return { size: 1 + Math.floor(r() * 40), first, last: first + Math.floor(r() * 5), alignment };
      });
      const offsets = holeyPlan(ivs, r);
      expectValid(ivs, offsets);
      const mirrored = mirroredOffsets(inputOf(ivs), offsets)!;
      expectValid(ivs, mirrored);
      const total = totalOf(ivs, offsets);
      expect(Math.min(...mirrored)).toBeGreaterThanOrEqual(0);
      expect(totalOf(ivs, mirrored)).toBeLessThanOrEqual(Math.ceil(total / alignment) * alignment);
      if (totalOf(ivs, mirrored) < total) lower++;
    }
    // Sizes off the alignment: the padding of a buffer at the top goes, so some mirrors are lower.
    expect(lower).toBeGreaterThan(0);
  });

  test('buffers of different alignments: no mirror (a padding could reach into the next buffer)', () => {
    const ivs: Iv[] = [
      { size: 8, first: 0, last: 1, alignment: 8 },
      { size: 16, first: 0, last: 1, alignment: 16 },
    ];
    expect(mirroredOffsets(inputOf(ivs), Float64Array.from([0, 16]))).toBeUndefined();
  });
});

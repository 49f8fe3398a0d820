import { mirroredOffsets, mirroredOrder } from '../../../src/usmp/algo/mirror';
import { pushDown } from '../../../src/usmp/algo/pushDown';
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

  test('buffers of different alignments: no exact mirror (a padding could reach into the next buffer)', () => {
    const ivs: Iv[] = [
      { size: 8, first: 0, last: 1, alignment: 8 },
      { size: 16, first: 0, last: 1, alignment: 16 },
    ];
    expect(mirroredOffsets(inputOf(ivs), Float64Array.from([0, 16]))).toBeUndefined();
  });
});

describe('mirroredOrder (several alignments)', () => {
  test('a padding reaching into the buffer above overlaps it in the mirror, and the push-down packs the order', () => {
    // The 5-byte buffer (alignment 16) takes 16 bytes rounded up, the 4-byte one (alignment 4) sits at 8.
    const ivs: Iv[] = [
      { size: 5, first: 0, last: 1, alignment: 16 },
      { size: 4, first: 0, last: 1, alignment: 4 },
    ];
    const offsets = Float64Array.from([0, 8]);
    expectValid(ivs, offsets);
    // Top 16: the 16-aligned buffer at 16 - 0 - 16 = 0, the other at 16 - 8 - 4 = 4, inside [0, 5).
    const mirrored = mirroredOrder(inputOf(ivs), offsets)!;
    expect([...mirrored]).toEqual([0, 4]);
    // The order is the plan's upside down: the 16-aligned buffer first, the other on it at 8 (its alignment).
    expect([...pushDown(inputOf(ivs), mirrored).offsets]).toEqual([0, 8]);
  });

  test('random plans: aligned, and buffers apart with their paddings are swapped', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const r = seededRandom(seed);
      const ivs: Iv[] = Array.from({ length: 25 }, () => {
        const first = Math.floor(r() * 12);
        return { size: 1 + Math.floor(r() * 40), first, last: first + Math.floor(r() * 5), alignment: [1, 4, 16, 64][Math.floor(r() * 4)] };
      });
      const offsets = holeyPlan(ivs, r);
      expectValid(ivs, offsets);
      const mirrored = mirroredOrder(inputOf(ivs), offsets)!;
      const padded = ivs.map((iv) => Math.ceil(iv.size / iv.alignment) * iv.alignment);
      ivs.forEach((a, i) => {
        expect(mirrored[i] % a.alignment).toBe(0);
        expect(mirrored[i]).toBeGreaterThanOrEqual(0);
        ivs.forEach((b, j) => {
          if (offsets[i] + padded[i] <= offsets[j]) expect(mirrored[j] + padded[j]).toBeLessThanOrEqual(mirrored[i]);
        });
      });
      expectValid(ivs, pushDown(inputOf(ivs), mirrored).offsets);
    }
  });

  test('an alignment that does not divide the largest: no mirror', () => {
    const ivs: Iv[] = [
      { size: 8, first: 0, last: 1, alignment: 8 },
      { size: 12, first: 0, last: 1, alignment: 12 },
    ];
    expect(mirroredOrder(inputOf(ivs), Float64Array.from([0, 12]))).toBeUndefined();
  });
});

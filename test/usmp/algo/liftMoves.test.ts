import { liftAboveBound } from '../../../src/usmp/algo/liftMoves';
import { pushDown } from '../../../src/usmp/algo/pushDown';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { alignedLivePeak } from '../../../src/usmp/stackBound';
import { expectValid, inputOf, Iv } from './intervalPlans';

const totalOf = (ivs: Iv[], offsets: Float64Array): number => Math.max(...ivs.map((iv, i) => offsets[i] + iv.size));
const boundOf = (ivs: Iv[]): number =>
  alignedLivePeak(
    ivs.map((iv) => iv.first),
    ivs.map((iv) => iv.last),
    ivs.map((iv) => iv.size),
    ivs.map((iv) => iv.alignment),
  );

describe('liftAboveBound', () => {
  test('moves the buffer with the largest rounding from the middle of a full stack to its top', () => {
    // One moment, alignment 16: the bound keeps only the 15 bytes of rounding of the 17-byte
    // buffer unused (32 + 16 + 32 - 15 = 65). The plan tops the stack with the 18-byte one (66).
    const ivs: Iv[] = [
      { size: 17, first: 0, last: 0, alignment: 16 },
      { size: 16, first: 0, last: 0, alignment: 16 },
      { size: 18, first: 0, last: 0, alignment: 16 },
    ];
    const plan = Float64Array.from([0, 32, 48]);
    expectValid(ivs, plan);
    expect(boundOf(ivs)).toBe(65);
    // Pushed down alone it stays where it is: only a lift closes the byte.
    expect(pushDown(inputOf(ivs), plan).total).toBe(66);
    const lifted = liftAboveBound(inputOf(ivs), plan, 65);
    expect(lifted.total).toBe(65);
    expectValid(ivs, lifted.offsets);
    expect(lifted.offsets[0]).toBe(48);
    expect(lifted.work).toBeGreaterThan(0);
  });

  test('skips a lift that does not lower the total and keeps looking', () => {
    // The stack of the first test, the 18-byte buffer living on into a second moment with a
    // 1-byte buffer (rounding 15 too, ending higher than the 17-byte one, so tried first).
    // Lifting it leaves the 18-byte buffer where it is; lifting the 17-byte one packs the bound.
    const ivs: Iv[] = [
      { size: 17, first: 0, last: 0, alignment: 16 },
      { size: 16, first: 0, last: 0, alignment: 16 },
      { size: 18, first: 0, last: 1, alignment: 16 },
      { size: 1, first: 1, last: 1, alignment: 16 },
    ];
    const plan = Float64Array.from([0, 32, 48, 32]);
    expectValid(ivs, plan);
    expect(totalOf(ivs, plan)).toBe(66);
    const bound = boundOf(ivs);
    expect(bound).toBe(65);
    const lifted = liftAboveBound(inputOf(ivs), plan, bound);
    expect(lifted.total).toBe(65);
    expectValid(ivs, lifted.offsets);
    expect(lifted.offsets[0]).toBe(48);
  });

  test('a plan it cannot lower comes back as given', () => {
    const ivs: Iv[] = [
      { size: 17, first: 0, last: 0, alignment: 16 },
      { size: 17, first: 0, last: 0, alignment: 16 },
    ];
    const plan = Float64Array.from([0, 32]);
    const lifted = liftAboveBound(inputOf(ivs), plan, boundOf(ivs) - 1);
    expect(lifted.total).toBe(49);
    expect(Array.from(lifted.offsets)).toEqual([0, 32]);
  });

  test('random sets with unaligned sizes: valid plans, never a larger total, and some smaller', () => {
    const r = seededRandom(2026);
    let lowered = 0;
    for (let t = 0; t < 300; t++) {
      const count = 3 + Math.floor(r() * 10);
      const alignment = [4, 16, 64][t % 3];
      const ivs: Iv[] = Array.from({ length: count }, () => {
        const first = Math.floor(r() * 6);
        return { size: 1 + Math.floor(r() * 3 * alignment), first, last: first + Math.floor(r() * 4), alignment };
      });
      // A pushed-down plan of a random order: each buffer first fit over those before it.
      const offsets = new Float64Array(count);
      const order = ivs.map((_, i) => i).sort(() => r() - 0.5);
      for (const [k, b] of order.entries()) {
        offsets[b] = 2 ** 20 + k * 4 * alignment;
      }
      const plan = pushDown(inputOf(ivs), offsets).offsets;
      const before = totalOf(ivs, plan);
      const bound = boundOf(ivs);
      const lifted = liftAboveBound(inputOf(ivs), plan, bound);
      expectValid(ivs, lifted.offsets);
      expect(lifted.total).toBe(totalOf(ivs, lifted.offsets));
      expect(lifted.total).toBeLessThanOrEqual(before);
      expect(lifted.total).toBeGreaterThanOrEqual(bound);
      if (lifted.total < before) lowered++;
    }
    expect(lowered).toBeGreaterThan(10);
  });
});

import { dropInOrder, DropScratch, dropOne, pushDown } from '../../../src/usmp/algo/pushDown';
import { buffersByOffset } from '../../../src/usmp/algo/topRegion';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { expectValid, holeyPlan, inputOf, Iv } from './intervalPlans';

describe('pushDown', () => {
  test('closes a hole: a buffer left above a gap moves down onto its conflict', () => {
    const ivs: Iv[] = [
      { size: 10, first: 0, last: 2, alignment: 1 },
      { size: 8, first: 1, last: 3, alignment: 4 },
      { size: 5, first: 3, last: 4, alignment: 1 },
    ];
    const r = pushDown(inputOf(ivs), Float64Array.from([0, 24, 40]));
    // 8 bytes on the 10-byte buffer, rounded up to 4: 12; the third clears only the second.
    expect([...r.offsets]).toEqual([0, 12, 0]);
    expect(r.total).toBe(20);
    expect(r.work).toBeGreaterThan(0);
    // Offsets too large to pack with a buffer number into one exact double: the same plan.
    const far = pushDown(inputOf(ivs), Float64Array.from([2 ** 50, 2 ** 51, 2 ** 52]));
    expect([...far.offsets]).toEqual([0, 12, 0]);
  });

  test('random plans with holes: valid, aligned, no buffer moves up, the total never grows', () => {
    let lowered = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const r = seededRandom(seed);
      const ivs: Iv[] = Array.from({ length: 25 }, () => {
        const first = Math.floor(r() * 12);
        return {
          size: r() < 0.1 ? 0 : 1 + Math.floor(r() * 30),
          first,
          last: first + Math.floor(r() * 5),
          alignment: [1, 2, 8, 16][Math.floor(r() * 4)],
        };
      });
      const before = holeyPlan(ivs, r);
      expectValid(ivs, before);
      const totalBefore = ivs.reduce((m, iv, i) => Math.max(m, before[i] + iv.size), 0);
      const { offsets, total } = pushDown(inputOf(ivs), before);
      // Walking the live-range spans instead of marked conflicts: the same drops, the same work.
      expect(pushDown(inputOf(ivs, true), before)).toEqual({ offsets, total, work: pushDown(inputOf(ivs), before).work });
      expectValid(ivs, offsets);
      offsets.forEach((o, i) => expect(o).toBeLessThanOrEqual(before[i]));
      expect(total).toBe(ivs.reduce((m, iv, i) => Math.max(m, offsets[i] + iv.size), 0));
      expect(total).toBeLessThanOrEqual(totalBefore);
      if (total < totalBefore) lowered++;
    }
    expect(lowered).toBeGreaterThan(30);
  });

  test('drops in order as dropOne drops one buffer at a time: same offsets, same work, with a skip and a start', () => {
    for (let seed = 1; seed <= 80; seed++) {
      const r = seededRandom(1000 + seed);
      const ivs: Iv[] = Array.from({ length: 40 }, () => {
        const first = Math.floor(r() * 15);
        return {
          size: r() < 0.1 ? 0 : 1 + Math.floor(r() * 40),
          first,
          last: first + Math.floor(r() * 8),
          alignment: [1, 4, 16][Math.floor(r() * 3)],
        };
      });
      const input = inputOf(ivs);
      const plan = holeyPlan(ivs, r);
      const byOffset = buffersByOffset(plan).order;
      // Any order will do for the drops; the buffers below `from` then come unsorted.
      const shuffled = Int32Array.from(byOffset).sort(() => r() - 0.5);
      const skipAt = Math.floor(r() * ivs.length);
      // A push-down (from 0, nothing skipped), a lift's drops (from above a skipped buffer), the same in another order.
      for (const [order, from, skip] of [
        [byOffset, 0, -1],
        [byOffset, skipAt + 1, byOffset[skipAt]],
        [shuffled, skipAt, -1],
      ] as const) {
        const rank = new Int32Array(ivs.length);
        order.forEach((b, k) => (rank[b] = k));
        const scratch = new DropScratch(ivs.length);
        const walked = plan.slice();
        const dropped = dropInOrder(input, order, rank, from, skip, walked, Infinity, scratch);
        // The same drops over the live-range spans (the exact core's tables give them).
        const spanned = plan.slice();
        expect(dropInOrder(inputOf(ivs, true), order, rank, from, skip, spanned, Infinity, new DropScratch(ivs.length, true))).toEqual(dropped);
        expect([...spanned]).toEqual([...walked]);
        const sorted = plan.slice();
        let sortWork = 0;
        let total = 0;
        for (let k = from; k < order.length; k++) {
          if (order[k] === skip) continue;
          sortWork += dropOne(input, order[k], k, rank, skip, sorted, scratch);
          total = Math.max(total, sorted[order[k]] + ivs[order[k]].size);
        }
        expect([...walked]).toEqual([...sorted]);
        expect(dropped).toEqual({ total, sortWork });
      }
    }
  });
});

/**
 * The twenty-sixth session's held-out families (bench/heldoutFamilies.ts) as a regression check:
 * on a few of the campaign's sets whose plans and references are quick, `auto`'s plan is valid,
 * not below the bound, and at or below both TFLite Micro's greedy plan and Vela 3.10's climb, as
 * the issue asks of every set. (The campaign's whole run, about 300 sets with Vela where `auto` is
 * above the bound, takes most of an hour; see docs/memory-planner.md.)
 */
import { heldoutSet, HELDOUT_FAMILIES } from '../../../bench/heldoutFamilies';
import { tflmGreedyPlan } from '../../../bench/reference/tflmGreedy';
import { velaPlan } from '../../../bench/velaPlan';
import { planAuto } from '../../../src/usmp/algo/auto';
import { CALL_WORK_CEILING } from '../../../src/usmp/algo/callBudget';
import { intervalsToBufferInfos, lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { pool } from './helpers';

describe('held-out families', () => {
  it('draw the same set from a family and seed, another from another seed', () => {
    for (const family of Object.keys(HELDOUT_FAMILIES)) {
      const a = heldoutSet(family, 3);
      // Compared as strings: jest's deep equality takes seconds on 5,000 intervals.
      expect(JSON.stringify(heldoutSet(family, 3))).toBe(JSON.stringify(a));
      expect(JSON.stringify(heldoutSet(family, 4).intervals)).not.toBe(JSON.stringify(a.intervals));
      expect(a.intervals.every((iv) => iv.size > 0 && Number.isInteger(iv.size) && iv.first >= 0 && iv.first <= iv.last)).toBe(true);
    }
  });

  // One set of each of seven families, plus a 500-buffer set where `auto` ends above the bound
  // (n500 11: 0.07% above it; Vela 3.10 6.7%, TFLite Micro 10.4%).
  it.each([
    ['nested', 12],
    ['twophase', 14],
    ['blocky', 1],
    ['dagm', 14],
    ['iss120', 15],
    ['burst', 12],
    ['n500', 20],
    ['n500', 11],
  ])('auto is at or below TFLite Micro and Vela 3.10 on %s %d', (family, seed) => {
    const { intervals, alignment } = heldoutSet(family as string, seed as number);
    const buffers = intervalsToBufferInfos(
      intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment })),
      [pool('arena', undefined, alignment)],
    );
    const bound = lowerBoundOfBuffers(buffers);
    const { plan } = planAuto(buffers, bound);
    verifyPlan(buffers, plan);
    const total = [...poolSizesOfPlan(buffers, plan).values()].reduce((x, y) => x + y, 0);
    expect(total).toBeGreaterThanOrEqual(bound);
    // As bench/portfolio.ts compares them: TFLite Micro's arena rounds each size up to the
    // alignment; both plans end at their last buffer's given size.
    const end = (offsets: readonly number[]) => Math.max(...offsets.map((o, i) => o + intervals[i].size));
    const tflm = end(tflmGreedyPlan(intervals.map((iv) => ({ ...iv, size: Math.ceil(iv.size / alignment) * alignment, alignment }))).offsets);
    const vela = end(velaPlan(intervals.map((iv) => ({ ...iv, alignment }))).offsets);
    expect(total).toBeLessThanOrEqual(tflm);
    expect(total).toBeLessThanOrEqual(vela);
  });

  // dag 7: the call's steps left it 0.83% above its bound (Vela 3.10 0.41%) with 12.8M units
  // left under the ceiling; the bound's decision, resumed there where its share had stopped it,
  // packs it at the bound (proven), within the ceiling.
  it('the bound decision resumed with the work left under the ceiling packs dag 7 at its bound', () => {
    const { intervals, alignment } = heldoutSet('dag', 7);
    const buffers = intervalsToBufferInfos(
      intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment })),
      [pool('arena', undefined, alignment)],
    );
    const bound = lowerBoundOfBuffers(buffers);
    const { plan, stats } = planAuto(buffers, bound);
    verifyPlan(buffers, plan);
    expect(poolSizesOfPlan(buffers, plan).get('arena')).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.coreWork).toBeLessThanOrEqual(CALL_WORK_CEILING);
  });
});

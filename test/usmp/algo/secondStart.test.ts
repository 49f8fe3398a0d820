/**
 * The finish from a second start (coreSteps.ts finishSecondStart): the urgency order placed first
 * fit, pushed down, its top re-solved below it and mirrored in turns, as the call's own plan was.
 * Checked independently of the core: the plan is valid, at or above the bound, the same from a
 * second core; and on held-out 2,000-buffer sets where every step of the finish had failed on the
 * call's plan, `auto` now ends lower.
 */
import { longLifetimes, mediumLifetimes, randomIntervals } from '../../../bench/generators';
import { velaPlan } from '../../../bench/velaPlan';
import { planAuto } from '../../../src/usmp/algo/auto';
import { finishSecondStart } from '../../../src/usmp/algo/coreSteps';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { urgencyOrder } from '../../../src/usmp/algo/orderings';
import { lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { arenaBuffersOf as buffersOf, checkedTop, coreOfIntervals as coreOf } from './helpers';

describe('the finish from a second start', () => {
  it.each([false, true])('returns a valid plan, at or above the bound, no larger than the urgency placement, the same from a second core (dense: %s)', (dense) => {
    for (const seed of [1, 2, 3]) {
      const set = mediumLifetimes(seed, 300, 120);
      const bound = lowerBoundOfBuffers(buffersOf(set));
      const order = urgencyOrder(indexProblem(buffersOf(set)))!;
      const core = coreOf(set);
      const out = finishSecondStart(core, order, bound, dense, Infinity)!;
      expect(checkedTop(set, 16, out.offsets)).toBe(out.total);
      expect(out.total).toBeGreaterThanOrEqual(bound);
      // The urgency order placed first fit (the push-down of offsets in that order).
      const ranks = new Float64Array(order.length);
      order.forEach((b, k) => (ranks[b] = k));
      const placed = coreOf(set).pushDown(ranks);
      expect(checkedTop(set, 16, placed.offsets)).toBe(placed.total);
      expect(out.total).toBeLessThanOrEqual(placed.total);
      const again = finishSecondStart(coreOf(set), order, bound, dense, Infinity)!;
      expect([...again.offsets]).toEqual([...out.offsets]);
      // A push-down dearer than the whole step, or a clock run out: nothing, at no cost.
      const spent = coreOf(set);
      spent.lastPushDownWork = 12_000_000;
      const before = spent.work;
      expect(finishSecondStart(spent, order, bound, dense, Infinity)).toBeUndefined();
      expect(finishSecondStart(coreOf(set), order, bound, dense, 0)).toBeUndefined();
      expect(spent.work).toBe(before);
    }
  });
});

describe('held-out sets where the finish of the call plan had failed', () => {
  // Uniform seed 71 (randomIntervals: 2,000 buffers over 800 operators): the core's first dive
  // gave 694,048 bytes (1.20% above the bound) and no later step lowered it; Vela 3.10's climb
  // ends at 690,848 after about 2,000 iterations.
  it("uniform seed 71 ends below Vela 3.10's plan", () => {
    const set = randomIntervals(71);
    const buffers = buffersOf(set);
    const bound = lowerBoundOfBuffers(buffers);
    const { plan, stats } = planAuto(buffers, bound);
    verifyPlan(buffers, plan);
    const total = poolSizesOfPlan(buffers, plan).get('arena')!;
    const vela = velaPlan(set.intervals.map((iv) => ({ ...iv, alignment: 16 })));
    expect(total).toBe(stats.finalTotal);
    expect(total).toBeLessThan(vela.arenaBytes);
    expect(total).toBeGreaterThanOrEqual(bound);
  });

  // Long-lifetimes seed 52 (dense): the finish's mirrored rounds stopped 96 bytes above the bound
  // (Vela 3.10's climb reaches it after about 1,600 iterations); the urgency placement's descent
  // ends there.
  it('long-lifetimes seed 52 reaches its bound, proven', () => {
    const set = longLifetimes(52);
    const buffers = buffersOf(set);
    const bound = lowerBoundOfBuffers(buffers);
    const { plan, stats } = planAuto(buffers, bound);
    verifyPlan(buffers, plan);
    expect({ total: poolSizesOfPlan(buffers, plan).get('arena'), proven: stats.provenOptimal }).toEqual({ total: bound, proven: true });
  });
});

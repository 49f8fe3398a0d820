import { planAuto } from '../../../src/usmp/algo/auto';
import { choicesPeak, concentratedChoices, stackedPlan } from '../../../src/usmp/algo/concentrated';
import { indexProblem, toBufferPlan } from '../../../src/usmp/algo/indexed';
import { intervalsOf } from '../../../src/usmp/algo/multiPool';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { heavyTailed } from '../../../bench/generators';
import { pinnedBufferSet } from '../../../bench/portfolio';
import { intervalSet, pool } from './helpers';

describe('concentrated pool choices', () => {
  const sram = pool('sram', 64);
  const dram = pool('dram');
  const flash = pool('flash');

  test('every buffer that may go in the unlimited pool most buffers may use goes there; the others in their first pool they fit', () => {
    // Three buffers may use the DRAM, two the flash (both unlimited).
    const problem = indexProblem(
      intervalSet([
        [16, 0, 1, [sram, dram]],
        [8, 1, 2, [sram]],
        [32, 2, 3, [flash, sram, dram]],
        [12, 2, 3, [sram, dram]],
        [8, 0, 3, [flash]],
      ]),
    );
    const pools = problem.pools.map((p) => p.name);
    expect([...concentratedChoices(problem)!].map((p) => pools[p])).toEqual(['dram', 'sram', 'dram', 'dram', 'flash']);
  });

  test('none without an unlimited pool, or where a buffer fits none of its pools', () => {
    const limitedOnly = indexProblem(intervalSet([[16, 0, 1, [sram, pool('tcm', 32)]]]));
    expect(concentratedChoices(limitedOnly)).toBeUndefined();
    const tooBig = indexProblem(intervalSet([[16, 0, 1, [sram, dram]], [100, 0, 1, [sram]]]));
    expect(concentratedChoices(tooBig)).toBeUndefined();
  });

  test('the peaks of the choices add up per pool, alignment padding included; the stacked plan is a valid plan of them', () => {
    const sram16 = pool('sram', 64, 16);
    const bufs = intervalSet([
      [10, 0, 1, [sram16]],
      [10, 1, 2, [sram16]],
      [40, 0, 1, [sram16, dram]],
      [24, 1, 3, [dram]],
    ]);
    const problem = indexProblem(bufs);
    const engine = new PlacementEngine(problem);
    const intervals = intervalsOf(problem, engine.adjStart, engine.adj)!;
    const choices = concentratedChoices(problem)!;
    // SRAM: the two 10-byte buffers live together at 1, the first padded to 16: 26. DRAM: 40 and
    // 24 live together at 1: 64.
    expect(choicesPeak(problem, intervals, choices)).toBe(26 + 64);
    const stacked = stackedPlan(problem, choices);
    verifyPlan(bufs, toBufferPlan(problem, stacked));
    expect([...stacked.offset]).toEqual([0, 16, 0, 40]);
  });

  // Heavy-tailed sizes with pins (the bench's: SRAM limited to a third of the bound, small
  // buffers pinned to it): spread over both pools by the search the plan ended 2.2% above the
  // peaks of the concentrated choices (763,408 bytes), which one-pool auto packs the DRAM of.
  test("auto's plan of a set with pins is within 0.1% of the concentrated choices' peaks where those are below the spread plan", () => {
    const bufs = pinnedBufferSet(heavyTailed(8, 200, 80));
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    const problem = indexProblem(bufs);
    const engine = new PlacementEngine(problem);
    const peaks = choicesPeak(problem, intervalsOf(problem, engine.adjStart, engine.adj)!, concentratedChoices(problem)!);
    const total = [...poolSizesOfPlan(bufs, plan).values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(stats.finalTotal);
    expect(total).toBeLessThanOrEqual(peaks * 1.001);
    expect(total).toBeLessThan(763_408);
  });
});

import { planAuto } from '../../../src/usmp/algo/auto';
import { independentPoolGroups } from '../../../src/usmp/algo/poolGroups';
import { intervalsToBufferInfos } from '../../../src/usmp/conflicts';
import { BufferInfo } from '../../../src/usmp/types';
import { randomIntervals } from '../../../bench/generators';
import { verifyPlan } from '../../../src/usmp/verify';
import { CALL_WORK_CEILING } from '../../../src/usmp/algo/callBudget';
import { randomInt, seededRandom } from '../../../src/util/random';
import { buffers, pool } from './helpers';

describe('independent pool groups', () => {
  const sram = pool('sram', undefined, 16);
  const dram = pool('dram', undefined, 16);
  const flash = pool('flash', undefined, 16);

  it('splits buffers whose candidate pools never meet, and keeps linked pools together', () => {
    const bufs = buffers({
      a: { size: 16, conflicts: ['b', 'w'], pools: [sram] },
      b: { size: 16, conflicts: ['a'], pools: [sram, dram] },
      c: { size: 16, conflicts: [], pools: [dram] },
      w: { size: 16, conflicts: ['a', 'v'], pools: [flash] },
      v: { size: 16, conflicts: ['w'], pools: [flash] },
    });
    const groups = independentPoolGroups(bufs)!;
    expect(groups.map((g) => g.map((b) => b.name))).toEqual([
      ['a', 'b', 'c'],
      ['w', 'v'],
    ]);
    // Conflicts across parts bind nothing and are dropped.
    expect(groups[0][0].conflicts).toEqual(['b']);
    expect(groups[1][0].conflicts).toEqual(['v']);
    expect(independentPoolGroups(groups[0])).toBeUndefined();
  });

  it("lets the exact core plan a model's workspace although its constants are listed against each other", () => {
    // Workspace buffers whose lists are their live-range overlaps, and constants that conflict
    // with each other whatever their ranges: together, not an interval set.
    // A random set whose bound no greedy start reaches, but the core does.
    const ws = intervalsToBufferInfos(
      randomIntervals(1011, 200, 80).intervals.map((iv, i) => ({ name: `t${i}`, sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last })),
      [sram],
    ).map((b): BufferInfo => ({ ...b, conflicts: [...b.conflicts] }));
    const constants = buffers(
      Object.fromEntries([0, 1, 2, 3].map((k) => [`w${k}`, { size: 40 + k, conflicts: [0, 1, 2, 3].filter((j) => j !== k).map((j) => `w${j}`), pools: [flash] }])),
    ).map((b, k): BufferInfo => ({ ...b, liveRange: [k, k] }));
    const all = [...ws, ...constants];
    const { plan, stats } = planAuto(all, 0);
    verifyPlan(all, plan);
    // Planned together, no part of the problem was an interval set: no core, no proof.
    expect(stats.provenOptimal).toBe(true);
    expect(stats.coreWork).toBeGreaterThan(0);
    const alone = planAuto(ws, 0).stats;
    const constantsAlone = planAuto(constants, 0).stats;
    expect(stats.finalTotal).toBe(alone.finalTotal + constantsAlone.finalTotal);
  });

  it("shares one call's work among the groups, however many there are", () => {
    // Four pools of 500 buffers each, lifetimes up to 300 of 800 operators: none at its bound
    // within a call's work. Each group planned as a call of its own spent one each (207M units,
    // 2 s); the whole stays under one call's ceiling, smallest group first.
    const random = seededRandom(4);
    const pools = [0, 1, 2, 3].map((k) => pool(`p${k}`, undefined, 16));
    const bufs = intervalsToBufferInfos(
      Array.from({ length: 2000 }, (_, i) => {
        const first = randomInt(random, 0, 799);
        return { sizeBytes: 16 * randomInt(random, 1, 4096), firstUse: first, lastUse: Math.min(799, first + randomInt(random, 0, 300)), pools: [pools[randomInt(random, 0, 3)]] };
      }),
      pools,
    );
    expect(independentPoolGroups(bufs)).toHaveLength(4);
    const { plan, stats } = planAuto(bufs, 0);
    verifyPlan(bufs, plan);
    expect(stats.provenOptimal).toBe(false);
    // A step's last check may pass the ceiling by a few thousand units.
    expect(stats.coreWork).toBeLessThan(CALL_WORK_CEILING + 100_000);
    // The same plan again: the shares come from counted work.
    expect(planAuto(bufs, 0).plan).toEqual(plan);
  });
});

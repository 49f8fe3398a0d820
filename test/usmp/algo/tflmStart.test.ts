import { planAuto } from '../../../src/usmp/algo/auto';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { initialOrders, tflmOrder, tflmStartApplies } from '../../../src/usmp/algo/orderings';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { BenchInterval, heavyTailed, randomIntervals } from '../../../bench/generators';
import { tflmGreedyPlan } from '../../../bench/reference/tflmGreedy';
import { velaHillClimbPlan } from '../../../bench/reference/velaHillClimb';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { pool } from './helpers';

const ALIGN = 16;

function problemOf(intervals: readonly BenchInterval[]) {
  const buffers = intervalsToBufferInfos(
    intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: ALIGN })),
    [pool('arena', undefined, ALIGN)],
  );
  const bound = memoryPressureOfIntervals(intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last })));
  const refIntervals = intervals.map((iv) => ({ ...iv, alignment: ALIGN }));
  return { buffers, bound, refIntervals };
}

/** Few distinct sizes, so most buffers tie on size and TFLM's tie rule decides the order. */
function tiedSizes(seed: number, count: number, ops: number): BenchInterval[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = Math.floor(random() * ops);
    const size = [16, 64, 256, 1024][Math.floor(random() * 4)];
    return { size, first, last: Math.min(ops - 1, first + Math.floor(random() * 12)) };
  });
}

const sets: [string, BenchInterval[]][] = [
  ['uniform s11 n50', [...randomIntervals(11, 50, 30).intervals]],
  ['uniform s12 n200', [...randomIntervals(12, 200, 80).intervals]],
  ['uniform s13 n500', [...randomIntervals(13, 500, 200).intervals]],
  ['heavy s14 n300', [...heavyTailed(14, 300, 120).intervals]],
  ['heavy s15 n500', [...heavyTailed(15, 500, 200).intervals]],
  ['tied s16 n120', tiedSizes(16, 120, 40)],
  ['tied s17 n400', tiedSizes(17, 400, 100)],
];

describe("TFLM's greedy planner as a start of auto", () => {
  test('the TFLM order placed first-fit gives the reference port its offsets, buffer for buffer', () => {
    for (const [, intervals] of sets) {
      const { buffers, refIntervals } = problemOf(intervals);
      const problem = indexProblem(buffers);
      const engine = new PlacementEngine(problem);
      engine.setOrder(tflmOrder(problem));
      engine.bestFit.fill(0);
      const total = engine.placeFrom(0, Infinity);
      const ref = tflmGreedyPlan(refIntervals);
      expect(Array.from(engine.offset)).toEqual(ref.offsets);
      expect(total).toBe(ref.arenaBytes);
    }
  });

  test('ties on size go to the later buffer first', () => {
    const { buffers } = problemOf([
      { size: 32, first: 0, last: 1 },
      { size: 64, first: 0, last: 1 },
      { size: 32, first: 1, last: 2 },
      { size: 32, first: 2, last: 3 },
    ]);
    expect(Array.from(tflmOrder(indexProblem(buffers)))).toEqual([1, 3, 2, 0]);
  });

  test('takes the size slot only for one pool with live ranges', () => {
    const { buffers } = problemOf(sets[0][1]);
    const names = (bs: typeof buffers) => {
      const problem = indexProblem(bs);
      return initialOrders(problem, new PlacementEngine(problem)).map((o) => o.name);
    };
    expect(tflmStartApplies(indexProblem(buffers))).toBe(true);
    expect(names(buffers)).toEqual(['tflm size', 'degree', 'urgency', 'chronological']);
    const twoPools = buffers.map((b) => ({ ...b, poolCandidates: [pool('a', undefined, ALIGN), pool('b', undefined, ALIGN)] }));
    expect(names(twoPools)).toEqual(['size', 'degree', 'urgency', 'chronological']);
    const noRanges = buffers.map((b) => ({ ...b, liveRange: undefined }));
    expect(names(noRanges)).toEqual(['size', 'degree']);
  });

  test("auto's greedy phase alone is no larger than TFLM's arena", () => {
    for (const [, intervals] of sets) {
      const { buffers, bound, refIntervals } = problemOf(intervals);
      const { plan, stats } = planAuto(buffers, bound, { timeBudgetMs: 0 });
      verifyPlan(buffers, plan);
      expect(stats.finalTotal).toBe(stats.initialTotal);
      expect(poolSizesOfPlan(buffers, plan).get('arena')!).toBeLessThanOrEqual(tflmGreedyPlan(refIntervals).arenaBytes);
    }
  });

  test('auto is no larger than the TFLM and Vela reference ports (50-500 buffers, several seeds)', () => {
    for (const [name, intervals] of sets) {
      const { buffers, bound, refIntervals } = problemOf(intervals);
      const { plan } = planAuto(buffers, bound, { timeBudgetMs: 60_000 });
      verifyPlan(buffers, plan);
      const arena = poolSizesOfPlan(buffers, plan).get('arena')!;
      expect({ name, arena: Math.max(arena, bound) }).toEqual({ name, arena });
      expect({ name, ok: arena <= tflmGreedyPlan(refIntervals).arenaBytes }).toEqual({ name, ok: true });
      expect({ name, ok: arena <= velaHillClimbPlan(refIntervals).arenaBytes }).toEqual({ name, ok: true });
    }
  });
});

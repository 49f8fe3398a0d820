import { planAuto } from '../../../src/usmp/algo/auto';
import { BottleneckClimb, bottleneckClimbApplies } from '../../../src/usmp/algo/bottleneckClimb';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { Mt19937 } from '../../../src/usmp/algo/mt19937';
import { urgencyOrder } from '../../../src/usmp/algo/orderings';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { randomIntervals } from '../../../bench/generators';
import { tflmGreedyPlan } from '../../../bench/reference/tflmGreedy';
import { velaHillClimbPlan } from '../../../bench/reference/velaHillClimb';
import { pool } from './helpers';

const ALIGN = 16;

function irregular(seed: number, count: number, ops: number) {
  const intervals = randomIntervals(seed, count, ops).intervals;
  const buffers = intervalsToBufferInfos(
    intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: ALIGN })),
    [pool('arena', undefined, ALIGN)],
  );
  const bound = memoryPressureOfIntervals(intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last })));
  const refIntervals = intervals.map((iv) => ({ ...iv, alignment: ALIGN }));
  return { buffers, bound, refIntervals };
}

function climbAlone(buffers: ReturnType<typeof irregular>['buffers'], bound: number, iterations: number): BottleneckClimb {
  const problem = indexProblem(buffers);
  const engine = new PlacementEngine(problem);
  const climb = new BottleneckClimb(problem, engine.adjStart, engine.adj, urgencyOrder(problem)!);
  climb.run({ target: bound, workLimit: Infinity, maxIterations: iterations, stallIterations: Infinity, deadline: Infinity, now: () => 0 });
  return climb;
}

describe('Mt19937', () => {
  // Values printed by CPython 3: random.seed(s); getrandbits(32) / randint(a, b).
  test('draws what CPython draws after random.seed(n)', () => {
    const one = new Mt19937(1);
    expect([one.uint32(), one.uint32(), one.uint32()]).toEqual([577090037, 2444712010, 3639700191]);
    const again = new Mt19937(1);
    expect([0, 1, 2, 3, 4].map(() => again.randint(0, 100))).toEqual([17, 72, 97, 8, 32]);
    expect([0, 1, 2, 3, 4].map(() => again.randint(0, 6))).toEqual([0, 3, 6, 3, 3]);
    const big = new Mt19937(123456789);
    expect([0, 1, 2, 3].map(() => big.randint(0, 1999))).toEqual([1313, 905, 1110, 1453]);
  });
});

describe('bottleneck climb', () => {
  test("retraces Vela's allocator: 500 iterations end on the reference port's arena size", () => {
    for (const [seed, count, ops] of [[1, 300, 120], [2, 400, 150], [7, 250, 60]] as const) {
      const { buffers, bound, refIntervals } = irregular(seed, count, ops);
      const climb = climbAlone(buffers, bound, 500);
      expect(climb.bestSize).toBe(velaHillClimbPlan(refIntervals).arenaBytes);
    }
  });

  test('applies to one unbounded pool with live ranges only', () => {
    const { buffers } = irregular(3, 40, 20);
    expect(bottleneckClimbApplies(indexProblem(buffers))).toBe(true);
    const twoPools = buffers.map((b) => ({ ...b, poolCandidates: [pool('a'), pool('b')] }));
    expect(bottleneckClimbApplies(indexProblem(twoPools))).toBe(false);
    const limited = buffers.map((b) => ({ ...b, poolCandidates: [pool('a', 1 << 30)] }));
    expect(bottleneckClimbApplies(indexProblem(limited))).toBe(false);
    const noRanges = buffers.map((b) => ({ ...b, liveRange: undefined }));
    expect(bottleneckClimbApplies(indexProblem(noRanges))).toBe(false);
  });
});

describe('auto with the climb in its portfolio', () => {
  test('never worse than the climb alone, TFLM greedy or Vela on small irregular sets', () => {
    for (const seed of [1, 3]) {
      const { buffers, bound, refIntervals } = irregular(seed, 250, 100);
      const { plan, stats } = planAuto(buffers, bound, { timeBudgetMs: 60_000 });
      verifyPlan(buffers, plan);
      const arena = poolSizesOfPlan(buffers, plan).get('arena')!;
      expect(arena).toBe(stats.finalTotal);
      expect(arena).toBeLessThanOrEqual(climbAlone(buffers, bound, 500).bestSize);
      expect(arena).toBeLessThanOrEqual(tflmGreedyPlan(refIntervals).arenaBytes);
      expect(arena).toBeLessThanOrEqual(velaHillClimbPlan(refIntervals).arenaBytes);
    }
  });

  test('deterministic: the same input gives the same plan twice', () => {
    const { buffers, bound } = irregular(4, 400, 150);
    // Without the exact core, which would reach the bound before the climb starts.
    const a = planAuto(buffers, bound, { timeBudgetMs: 60_000, exactCore: false });
    const b = planAuto(buffers, bound, { timeBudgetMs: 60_000, exactCore: false });
    expect(a.stats.climbIterations).toBeGreaterThan(0);
    expect([...b.plan]).toEqual([...a.plan]);
    expect(b.stats).toEqual(a.stats);
  });

  test('multi-pool problems do not run the climb and keep their plan', () => {
    const { buffers, bound } = irregular(5, 200, 80);
    const pools = [pool('fast', 40_000, ALIGN), pool('slow', undefined, ALIGN)];
    const twoPools = buffers.map((b) => ({ ...b, poolCandidates: pools }));
    const { plan, stats } = planAuto(twoPools, bound, { timeBudgetMs: 60_000 });
    verifyPlan(twoPools, plan);
    expect(stats.climbIterations).toBe(0);
    expect(poolSizesOfPlan(twoPools, plan).get('fast')!).toBeLessThanOrEqual(40_000);
  });
});

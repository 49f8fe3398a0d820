import { MemoryPlanningError } from '../../../src/errors';
import { planAuto } from '../../../src/usmp/algo/auto';
import { getPlanningAlgorithm, listPlanningAlgorithms, registerPlanningAlgorithm } from '../../../src/usmp/algo/registry';
import { intervalsToBufferInfos, lowerBoundOfBuffers, memoryPressureOfIntervals } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { parseJsonBufferSet } from '../../../src/usmp/bufferSet';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { buffers, pool, poolSize } from './helpers';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { ExactCore } from '../../../src/usmp/algo/exactCore';
import { longLifetimes, mediumLifetimes, mixedFamily, packedRectangles, randomIntervals as randomBenchSet } from '../../../bench/generators';
import { compareWithReferences } from '../../../bench/portfolio';
import { tflmGreedyPlan } from '../../../bench/reference/tflmGreedy';
import { timeCapMs, UNCAPPED_UP_TO } from '../../../src/usmp/algo/safetyClock';
import { planOptimality } from '../../../src/usmp/optimality';
import { optimalityLine } from '../../../src/report/memoryReport';

function randomIntervals(seed: number, count: number, ops: number) {
  const r = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = Math.floor(r() * ops);
    return { sizeBytes: 16 * (1 + Math.floor(r() * 64)), firstUse: first, lastUse: Math.min(ops - 1, first + Math.floor(r() * 12)) };
  });
}

function benchIntervals(seed: number, count: number, ops: number) {
  return randomBenchSet(seed, count, ops).intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last }));
}

/** A bench set's buffers in one pool 'ws' aligned to `alignment` (buffers too), planned by `auto` and checked. */
function planInOnePool(set: ReturnType<typeof randomBenchSet>, alignment = 16) {
  const bufs = intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment })),
    [pool('ws', undefined, alignment)],
  );
  const bound = lowerBoundOfBuffers(bufs);
  const { plan, stats } = planAuto(bufs, bound);
  verifyPlan(bufs, plan);
  expect(poolSize(bufs, plan, 'ws')).toBe(stats.finalTotal);
  return { bound, stats };
}

describe('registry', () => {
  test('lists the built-ins and rejects unknown names with the known ones', () => {
    expect(listPlanningAlgorithms()).toEqual(expect.arrayContaining(['auto', 'greedy_by_conflicts', 'greedy_by_size', 'hill_climb']));
    expect(() => getPlanningAlgorithm('foo')).toThrow(MemoryPlanningError);
    expect(() => getPlanningAlgorithm('foo')).toThrow(
      /^unknown memory planning algorithm 'foo'; known: auto, greedy_by_conflicts, greedy_by_size, hill_climb/,
    );
  });

  test('registered algorithms can be looked up', () => {
    const everythingAtZero = getPlanningAlgorithm('greedy_by_size');
    registerPlanningAlgorithm('test_alias', everythingAtZero);
    expect(getPlanningAlgorithm('test_alias')).toBe(everythingAtZero);
  });
});

describe('auto', () => {
  test('chain with a residual skip reaches the lower bound', () => {
    // t0 -> op1 -> t1 -> op2 -> t2 -> op3(t2, t0) -> t3: t0 lives across the block.
    const intervals = [
      { sizeBytes: 400, firstUse: 0, lastUse: 3 },
      { sizeBytes: 800, firstUse: 1, lastUse: 2 },
      { sizeBytes: 300, firstUse: 2, lastUse: 3 },
      { sizeBytes: 500, firstUse: 3, lastUse: 4 },
      { sizeBytes: 100, firstUse: 4, lastUse: 5 },
    ];
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    expect(bound).toBe(1500); // op 2: 400 + 800 + 300
    const plan = getPlanningAlgorithm('auto')(bufs, bound);
    verifyPlan(bufs, plan);
    expect(poolSize(bufs, plan, 'ws')).toBe(1500);
  });

  test('a conflict listed one way: auto keeps the pair apart, but proves nothing above the bound of mutual pairs', () => {
    // Both live at once, a lists b and b lists nothing: a plan sharing their addresses is valid
    // (a listing binds only the buffer that lists it), so auto's 32 bytes are not the optimum.
    const bufs = buffers({ a: { size: 16, conflicts: ['b'] }, b: { size: 16 } }).map((b) => ({ ...b, liveRange: [0, 0] as [number, number] }));
    const shared = new Map([
      ['a', { pool: 'global_workspace', offset: 0 }],
      ['b', { pool: 'global_workspace', offset: 0 }],
    ]);
    expect(() => verifyPlan(bufs, shared)).not.toThrow();
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    expect(stats.finalTotal).toBe(32);
    expect({ proven: stats.provenOptimal, lowerBound: stats.lowerBound, provenLowerBound: stats.provenLowerBound }).toEqual({ proven: false, lowerBound: 16, provenLowerBound: 16 });
    // Listed both ways, the pair must be apart: 32 is the optimum, proven.
    const mutual = bufs.map((b) => ({ ...b, conflicts: [b.name === 'a' ? 'b' : 'a'] }));
    expect(planAuto(mutual, lowerBoundOfBuffers(mutual)).stats.provenOptimal).toBe(true);
  });

  test('a conflict listed one way, the plan not proven optimal: its proven bound is still no more than the mutual pairs prove', () => {
    // Fuzzed (three pools, every pair listed one way): all four may share offset 0 of their
    // pools, 3 bytes in all; auto keeps the pairs apart and proved 4 for that stricter problem.
    const { buffers: bufs } = parseJsonBufferSet(
      {
        pools: [{ name: 'dram0' }, { name: 'L21' }, { name: 'tcm2' }],
        buffers: [
          { name: 'b0', size: 1, liveRange: [1, 2], candidatePools: ['dram0', 'tcm2'], conflicts: [] },
          { name: 'b1', size: 1, liveRange: [1, 5], candidatePools: ['tcm2'], conflicts: ['b0'] },
          { name: 'b2', size: 2, liveRange: [7, 12], candidatePools: ['L21'], conflicts: ['b3'] },
          { name: 'b3', size: 2, liveRange: [6, 7], candidatePools: ['dram0', 'L21'], conflicts: [] },
        ],
      },
      'oneway.json',
    );
    const valid = new Map([
      ['b0', { pool: 'tcm2', offset: 0 }],
      ['b1', { pool: 'tcm2', offset: 0 }],
      ['b2', { pool: 'L21', offset: 0 }],
      ['b3', { pool: 'L21', offset: 0 }],
    ]);
    expect(() => verifyPlan(bufs, valid)).not.toThrow();
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    expect(stats.provenOptimal).toBe(false);
    expect(stats.provenLowerBound).toBeLessThanOrEqual(3);
    expect(stats.lowerBound).toBeLessThanOrEqual(3);
  });

  test('a tiny set whose bound is out of reach gets a search sized to it, not the floor for large sets', () => {
    // Five equal buffers conflicting in a ring: the heaviest clique is two of them, but an odd
    // ring needs three slots, so the search never reaches the bound and runs its whole budget.
    const ring = ['a', 'b', 'c', 'd', 'e'];
    const bufs = buffers(Object.fromEntries(ring.map((name, i) => [name, { size: 64, conflicts: [ring[(i + 1) % 5], ring[(i + 4) % 5]] }])));
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    expect(stats.lowerBound).toBe(128);
    expect(stats.finalTotal).toBe(192);
    // 10,000 full placements of 5 buffers and 10 conflict entries, where the 5M-unit floor of
    // larger sets took most of a second.
    expect(stats.iterations).toBeGreaterThan(100);
    expect(stats.work).toBeLessThanOrEqual(10_000 * (5 + 10) + 1000);
  });

  test('random interval sets: valid plans, never below the bound, never worse than its own start', () => {
    for (const seed of [1, 2, 3]) {
      const intervals = randomIntervals(seed, 150, 60);
      const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
      const bound = memoryPressureOfIntervals(intervals);
      const { plan, stats } = planAuto(bufs, bound, { maxIterations: 300, timeBudgetMs: 10_000 });
      verifyPlan(bufs, plan);
      const total = poolSize(bufs, plan, 'ws');
      expect(total).toBe(stats.finalTotal);
      expect(total).toBeGreaterThanOrEqual(bound);
      expect(total).toBeLessThanOrEqual(stats.initialTotal);
    }
  });

  test('same seed and iteration limit give the same plan', () => {
    const bufs = intervalsToBufferInfos(randomIntervals(9, 120, 40), [pool('ws')]);
    const a = planAuto(bufs, 0, { seed: 3, maxIterations: 200, timeBudgetMs: 10_000 }).plan;
    const b = planAuto(bufs, 0, { seed: 3, maxIterations: 200, timeBudgetMs: 10_000 }).plan;
    expect([...a]).toEqual([...b]);
  });

  test('its chronological start packs a big early input under the later peak (vww_96_int8 with I/O)', () => {
    // The model input dies before the peak (conv out 2 + conv out 3); larger-first places the
    // 36,864-byte tensor at 0 and the input above it, chronological order packs all in 55,296.
    const intervals = [
      { sizeBytes: 27648, firstUse: 89, lastUse: 137, alignment: 16 },
      { sizeBytes: 18432, firstUse: 89, lastUse: 241, alignment: 16 },
      { sizeBytes: 18432, firstUse: 138, lastUse: 256, alignment: 16 },
      { sizeBytes: 36864, firstUse: 242, lastUse: 305, alignment: 16 },
    ];
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    expect(bound).toBe(55296);
    const { plan, stats } = planAuto(bufs, bound, { timeBudgetMs: 0 });
    verifyPlan(bufs, plan);
    expect(stats.initialTotal).toBe(55296);
  });

  test('reproducible: the default work budget, not the clock, ends the search', () => {
    // The bench's irregular shape, big enough that the start misses the bound and the search runs.
    const intervals = benchIntervals(2, 300, 120);
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    const a = planAuto(bufs, bound, { seed: 11 });
    const b = planAuto(bufs, bound, { seed: 11 });
    const c = planAuto(bufs, bound, { seed: 11, timeBudgetMs: 60_000 });
    // Something beyond the greedy start ran (the exact core, or the search).
    expect(a.stats.iterations + a.stats.climbIterations + a.stats.coreWork).toBeGreaterThan(0);
    expect([...b.plan]).toEqual([...a.plan]);
    expect(c.stats.coreWork).toBe(a.stats.coreWork);
    expect([...c.plan]).toEqual([...a.plan]);
    expect(c.stats.iterations).toBe(a.stats.iterations);
    expect(c.stats.climbIterations).toBe(a.stats.climbIterations);
    expect(c.stats.work).toBe(a.stats.work);
  });

  test('above 5,000 buffers the counted budgets end the call, not the clock: the same plan with the default safety cap as with none', () => {
    // 5,200 buffers: the default clock was 1 s there, and cut in under load (the plan then
    // depended on speed). Now the safety cap lies far beyond what the counted work takes.
    const intervals = benchIntervals(2, 5200, 2080);
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    const capped = planAuto(bufs, bound);
    const unbounded = planAuto(bufs, bound, { timeBudgetMs: 1e9 });
    verifyPlan(bufs, capped.plan);
    // The greedy starts missed the bound: the core's search ran, checking the clock as it went.
    expect(capped.stats.initialTotal).toBeGreaterThan(bound);
    expect(capped.stats.coreWork).toBeGreaterThan(0);
    expect(capped.stats.timeCapReached).toBe(false);
    expect(unbounded.stats.timeCapReached).toBe(false);
    expect(capped.stats.coreWork).toBe(unbounded.stats.coreWork);
    expect(capped.stats.work).toBe(unbounded.stats.work);
    expect([...capped.plan]).toEqual([...unbounded.plan]);
  });

  test('a clock that runs out says so: the stats, the recorded optimality and its report line', () => {
    const intervals = benchIntervals(3, 2000, 800);
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    // 1 ms: indexing 2,000 buffers alone takes longer.
    expect(planAuto(bufs, bound, { timeBudgetMs: 1 }).stats.timeCapReached).toBe(true);
    // A zero budget asks for the greedy phase alone, whatever the speed: no cut.
    expect(planAuto(bufs, bound, { timeBudgetMs: 0 }).stats.timeCapReached).toBe(false);
    const cut = getPlanningAlgorithm('auto')(bufs, bound, { timeBudgetMs: 1 });
    const optimality = planOptimality(cut, poolSize(bufs, cut, 'ws'), bound);
    expect(optimality.timeCapReached).toBe(true);
    expect(optimalityLine(optimality)).toMatch(/; ended by the time cap: the plan depends on machine speed$/);
    const small = intervalsToBufferInfos(intervals.slice(0, 50), [pool('ws')]);
    const uncut = getPlanningAlgorithm('auto')(small, 0);
    expect(planOptimality(uncut, poolSize(small, uncut, 'ws'), 0)).not.toHaveProperty('timeCapReached');
  });

  test('the default clock: none up to 5,000 buffers, a safety cap of seconds above', () => {
    expect(timeCapMs(UNCAPPED_UP_TO, undefined)).toBe(Infinity);
    expect(timeCapMs(UNCAPPED_UP_TO + 1, undefined)).toBeGreaterThanOrEqual(10_000);
    expect(timeCapMs(100_000, undefined)).toBeGreaterThan(timeCapMs(10_000, undefined));
    expect(timeCapMs(100_000, 50)).toBe(50);
  });

  test('dense sets (over 130 conflicts per buffer) go to the core\'s dives and descent, no local search, and stay at or below TFLM', () => {
    // A set whose bound the core does not reach: on the sparse path the local search would run.
    const set = mediumLifetimes(5, 400, 150);
    const intervals = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
    const conflicts = bufs.reduce((n, b) => n + b.conflicts.length, 0);
    expect(conflicts / bufs.length).toBeGreaterThan(130);
    const bound = memoryPressureOfIntervals(intervals);
    const a = planAuto(bufs, bound);
    const b = planAuto(bufs, bound);
    verifyPlan(bufs, a.plan);
    expect([...b.plan]).toEqual([...a.plan]);
    expect(a.stats.finalTotal).toBeGreaterThan(bound);
    expect(a.stats.iterations).toBe(0);
    expect(a.stats.coreWork).toBeGreaterThan(0);
    const tflm = tflmGreedyPlan(set.intervals.map((iv) => ({ ...iv, alignment: 16 })));
    const tflmTotal = Math.max(...tflm.offsets.map((o, i) => o + set.intervals[i].size));
    expect(a.stats.finalTotal).toBeLessThanOrEqual(tflmTotal);
    expect(a.stats.finalTotal).toBeGreaterThanOrEqual(bound);
  });

  test('a dense set of five distinct sizes that Vela\'s urgency order packs at the bound gets that plan, proven, before any core work', () => {
    // Five sizes, lifetimes up to 800 of 2000 operators: about 340 conflicts per buffer. The
    // size order (TFLM's plan) ends 3.7% above the bound, and the core's dives and descent
    // stopped 0.09% above it; the urgency order placed best-fit is at the bound.
    const sizes = [1024, 4096, 12288, 65536, 196608];
    const r = seededRandom(1);
    const intervals = Array.from({ length: 1000 }, () => {
      const first = Math.floor(r() * 2000);
      return { sizeBytes: sizes[Math.floor(r() * sizes.length)], firstUse: first, lastUse: Math.min(1999, first + Math.floor(r() * 801)), alignment: 1 };
    });
    const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 1)]);
    expect(bufs.reduce((n, b) => n + b.conflicts.length, 0) / bufs.length).toBeGreaterThan(130);
    const bound = memoryPressureOfIntervals(intervals);
    const { plan, stats } = planAuto(bufs, bound);
    verifyPlan(bufs, plan);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.initialOrder).toMatch(/^urgency\//);
    expect(stats.coreWork).toBe(0);
    const tflm = tflmGreedyPlan(intervals.map((iv) => ({ size: iv.sizeBytes, first: iv.firstUse, last: iv.lastUse, alignment: 1 })));
    expect(Math.max(...tflm.offsets.map((o, i) => o + intervals[i].sizeBytes))).toBeGreaterThan(bound);
  });

  test('a small problem gets a real budget: a 200-buffer set whose bound 50 dives miss reaches it, proven', () => {
    // This set's bound takes more core work than a larger problem's floor (60M units) leaves
    // the bound (62% of it, about 37M): problems up to 500 buffers get 90M, 120M when their
    // live bytes stay near the peak (callBudget.ts).
    const intervals = benchIntervals(1002, 200, 80).map((iv) => ({ ...iv, alignment: 16 }));
    const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
    const bound = memoryPressureOfIntervals(intervals);
    const { plan, stats } = planAuto(bufs, bound);
    verifyPlan(bufs, plan);
    expect(stats.coreWork).toBeGreaterThan(40_000_000);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
  });

  test('a packed set with over 130 conflicts per buffer is not dense: its flat profile gets the bound\'s budget, and the bound', () => {
    // Cut from a 1 MiB rectangle into 800 buffers (about 195 conflicts each). Planned as a dense
    // set (the bound a third of the budget, the rest to dives) it ended 19.5% above the bound.
    const set = packedRectangles(9, 800, 600);
    const intervals = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
    expect(bufs.reduce((n, b) => n + b.conflicts.length, 0) / bufs.length).toBeGreaterThan(130);
    const p = indexProblem(bufs);
    const core = new ExactCore({ count: p.count, sizes: p.sizes, alignments: p.alignments, intervals: p.intervals! });
    expect(core.profileFill()).toBe(1);
    const { plan, stats } = planAuto(bufs, 1 << 20);
    verifyPlan(bufs, plan);
    expect(stats.finalTotal).toBe(1 << 20);
    expect(stats.provenOptimal).toBe(true);
    // Random sets are far from flat, and stay dense when they have the conflicts for it.
    const medium = mediumLifetimes(5, 400, 150).intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const q = indexProblem(intervalsToBufferInfos(medium, [pool('ws', undefined, 16)]));
    expect(new ExactCore({ count: q.count, sizes: q.sizes, alignments: q.alignments, intervals: q.intervals! }).profileFill()).toBeLessThan(0.8);
  });

  test('packed sets (a rectangle cut into buffers, like MiniMalloc\'s benchmark sets) are planned at their bound, proven', () => {
    // The optimum is the bound by construction; TFLite Micro's greedy ends about a third above it.
    for (const seed of [11, 14]) {
      const set = packedRectangles(seed, 300, 400);
      const intervals = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
      const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
      const bound = memoryPressureOfIntervals(intervals);
      expect(bound).toBe(1 << 20);
      const { plan, stats } = planAuto(bufs, bound);
      verifyPlan(bufs, plan);
      expect(stats.finalTotal).toBe(bound);
      expect(stats.provenOptimal).toBe(true);
      const tflm = tflmGreedyPlan(set.intervals.map((iv) => ({ ...iv, alignment: 16 })));
      expect(Math.max(...tflm.offsets.map((o, i) => o + set.intervals[i].size))).toBeGreaterThan(1.2 * bound);
    }
  });

  test('conflict lists that are the live-range overlaps (a JSON buffer set) get the exact core, as the interval group does', () => {
    const intervals = benchIntervals(1004, 200, 80).map((iv) => ({ ...iv, alignment: 16 }));
    const group = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
    // The same buffers as plain BufferInfos: copied conflict lists, live ranges, no interval group.
    const listed = group.map((b) => ({ ...b, conflicts: [...b.conflicts], liveRange: b.liveRange }));
    const bound = memoryPressureOfIntervals(intervals);
    const fromGroup = planAuto(group, bound);
    const fromLists = planAuto(listed, bound);
    verifyPlan(listed, fromLists.plan);
    expect(fromLists.stats.coreWork).toBeGreaterThan(0);
    expect(fromLists.stats.provenOptimal).toBe(true);
    expect(fromLists.stats.finalTotal).toBe(fromGroup.stats.finalTotal);
  });

  test('a larger work budget never gives a worse plan than a smaller one on the same seed', () => {
    const intervals = benchIntervals(1, 300, 120);
    const bufs = intervalsToBufferInfos(intervals, [pool('ws')]);
    const bound = memoryPressureOfIntervals(intervals);
    // The search's budget; the exact core (off here) has its own.
    const small = planAuto(bufs, bound, { seed: 2, workBudget: 200_000, timeBudgetMs: 60_000, exactCore: false });
    const large = planAuto(bufs, bound, { seed: 2, workBudget: 2_000_000, timeBudgetMs: 60_000, exactCore: false });
    verifyPlan(bufs, small.plan);
    verifyPlan(bufs, large.plan);
    expect(large.stats.finalTotal).toBeLessThanOrEqual(small.stats.finalTotal);
    expect(large.stats.work).toBeGreaterThan(small.stats.work);
  });

  test('a sparse set the search leaves above the bound ends at or below its tolerant dives', () => {
    // Lifetimes up to 80 operators, as the held-out family where this set (seed 15) ended 2.8%
    // above the bound after the search (Vela 1.4%); a tolerant dive reaches 0.45%.
    const random = seededRandom(15 * 7919 + 80);
    const ivs = Array.from({ length: 2000 }, () => {
      const first = Math.floor(random() * 800);
      const length = 1 + Math.floor(random() * random() * 80);
      const size = Math.ceil(2 ** (4 + random() * 12) / 16) * 16;
      return { sizeBytes: size, firstUse: first, lastUse: Math.min(799, first + length - 1), alignment: 16 };
    });
    const bufs = intervalsToBufferInfos(ivs, [pool('ws')]);
    const bound = lowerBoundOfBuffers(bufs);
    const { plan, stats } = planAuto(bufs, bound);
    verifyPlan(bufs, plan);
    const p = indexProblem(bufs);
    const core = new ExactCore({ count: p.count, sizes: p.sizes, alignments: p.alignments, intervals: p.intervals! });
    const mean = ivs.reduce((a, iv) => a + iv.sizeBytes, 0) / ivs.length;
    const dives = [1 / 4, 1 / 16].map((t) => core.greedyDive(0, mean * t).total);
    expect(stats.finalTotal).toBe(poolSize(bufs, plan, 'ws'));
    expect(stats.finalTotal).toBeLessThanOrEqual(Math.min(...dives));
    expect(stats.finalTotal).toBeLessThan(bound * 1.01);
  });

  test('a DAG-like set whose bound the core misses reaches it through a final dive with half the mean size of tolerance', () => {
    // The bench's mixed family, seed 83: linear sizes, DAG-like lifetimes, a 16-byte pool, about
    // 43 conflicts per buffer. With the two smaller tolerances alone its plan ended 2.29% above
    // the bound (Vela's climb 1.80%); a dive with 1/2 leaves the re-solve of the top a fit.
    const set = mixedFamily(83);
    expect(set.description).toMatch(/^linear sizes, DAG-like lifetimes, alignment 16/);
    const { bound, stats } = planInOnePool(set);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.initialTotal).toBeGreaterThan(bound * 1.05);
  });

  test('mixed sets a byte or two above the aligned bound reach it through a lift', () => {
    // The bench's mixed family, seeds 95 and 119: heavy-tailed sizes in bytes, a 16-byte pool.
    // The aligned bound has the buffer with the largest rounding (15 bytes) on top of the
    // busiest moment; the plans before the lift moves topped it with one of rounding 14 or 13
    // and ended 1 and 2 bytes above the bound (Vela's climb packs both at it).
    for (const seed of [95, 119]) {
      const set = mixedFamily(seed);
      expect(set.description).toMatch(/^heavy-tailed sizes, exponential lifetimes, alignment 16/);
      const { bound, stats } = planInOnePool(set);
      expect(stats.finalTotal).toBe(bound);
      expect(stats.provenOptimal).toBe(true);
    }
  });

  test("a busy moment whose top must be the buffer saving the most: the core's bound search packs it", () => {
    // The bench's mixed family, seed 189: linear sizes in a 64-byte pool. One moment sets the
    // bound, with the buffer of 62 bytes of rounding on top; every plan that put it lower ended
    // a byte above, and no lift freed it (it lives low under buffers other moments hold up).
    // The core's runs, counting what the unplaced buffers of each section still save on top,
    // stop searching under it at once and pack the bound.
    const set = mixedFamily(189);
    expect(set.description).toMatch(/^linear sizes, bimodal lifetimes, alignment 64/);
    const { bound, stats } = planInOnePool(set, 64);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.strategy).toBe('exact core');
  });

  test("a dense set of unaligned sizes: the top's re-solve, counting stacked heights, packs it at the bound", () => {
    // The bench's mixed family, seed 19: linear sizes in a 64-byte pool, dense. The core's
    // steps end 0.13% above the bound; the re-solve at the bound fits once the region it frees
    // counts the roundings of a stack as no holes. It ended 0.084% above before, where Vela's
    // climb ends 7 bytes above the bound.
    const set = mixedFamily(19);
    expect(set.description).toMatch(/^linear sizes, exponential lifetimes, alignment 64/);
    const { bound, stats } = planInOnePool(set, 64);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
  });

  test("a plan of the core's steps 2 bytes above the aligned bound is lifted there at once: no search runs", () => {
    // The bench's mixed family, seed 23: the core's steps hand over a plan 2 bytes above the
    // bound. Lifted only at the end of the call, after the search, the final dives and the
    // re-solve, it reached the bound too, for about twice the core's work.
    const set = mixedFamily(23);
    expect(set.description).toMatch(/^log-uniform sizes, DAG-like lifetimes, alignment 16/);
    const { bound, stats } = planInOnePool(set);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.iterations).toBe(0);
  });

  test("a dense set whose steps' plan re-solves at the bound in a few million units ends there", () => {
    // The bench's medium-lifetimes family, seed 10 (2,000 buffers, lifetimes up to 160 of 800
    // operators): its steps' plan is 0.10% above the bound, and the short re-solve of its top
    // at the bound (earlyResolveAtBound) fits it in 1.9M units; the call ends there, before
    // the search, the final descent and the long re-solve.
    const { bound, stats } = planInOnePool(mediumLifetimes(10));
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.iterations).toBe(0);
  });

  test("a dense set whose urgency placement ends within an alignment of the bound: lifted there, before the core's steps", () => {
    // The bench's mixed family, seed 133 (dense: CNN-like sizes, bimodal lifetimes, a 64-byte
    // pool). Vela's urgency order places it 56 bytes above the bound; a lift packs that plan at
    // the bound. Before, that placement was dropped as soon as it passed the bound, and the
    // core's steps and descent ended 0.058% above it (Vela's climb reaches the bound in 50
    // iterations).
    const set = mixedFamily(133);
    expect(set.description).toMatch(/^cnn-like sizes, bimodal lifetimes, alignment 64/);
    const { bound, stats } = planInOnePool(set, 64);
    expect(stats.finalTotal).toBe(bound);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.initialOrder).toBe('urgency/first-fit');
    expect(stats.coreWork).toBeLessThan(5_000_000);
  });

  test('a greedy start within an alignment of the bound is lifted there: the call ends before the core steps', () => {
    // The bench's mixed family, seeds 101 and 136 (heavy-tailed sizes, DAG-like lifetimes;
    // pools of 16 and 64 bytes): their best greedy starts end 2 and 36 bytes above the bound.
    // Before the start was lifted, the core's steps took 61M and 56M units to reach the bound.
    for (const [seed, alignment] of [
      [101, 16],
      [136, 64],
    ]) {
      const set = mixedFamily(seed);
      expect(set.description).toMatch(new RegExp(`^heavy-tailed sizes, DAG-like lifetimes, alignment ${alignment}`));
      const { bound, stats } = planInOnePool(set, alignment);
      expect(stats.finalTotal).toBe(bound);
      expect(stats.provenOptimal).toBe(true);
      expect(stats.initialTotal).toBeGreaterThan(bound);
      expect(stats.coreWork).toBeLessThan(2_000_000);
    }
  });

  test("a DAG-like set the top's re-solve misses at the bound ends below Vela's climb through a descent below its plan", () => {
    // The bench's mixed family, seed 12: log-uniform sizes, DAG-like lifetimes, alignment 1.
    // Its final dives ended 2.10% above the bound and the re-solve at the bound misses; Vela's
    // climb packs 1.75%. Re-solving the top at capacities below the plan reaches 0.62%.
    const set = mixedFamily(12);
    expect(set.description).toMatch(/^log-uniform sizes, DAG-like lifetimes, alignment 1\b/);
    const r = compareWithReferences(set);
    expect(r.stats.provenOptimal).toBe(false);
    expect(r.auto).toBe(r.stats.finalTotal);
    expect(r.auto).toBeLessThan(r.vela);
    expect(r.auto).toBeLessThan(r.bound * 1.01);
  });

  test("a dense set's descent by regions searches with its tries' work: the region's choice is charged what it reads", () => {
    // The bench's long-lifetimes family, seed 13 (2,000 buffers, lifetimes up to 400 of 800
    // operators, 900k conflict entries). Choosing a try's region was charged every conflict row
    // per round, 2.9M of the try's 3M units, so the re-solves came back unknown after 0.1M and
    // the plan ended 0.94% above the bound; charged what it reads, 0.25%.
    const { bound, stats } = planInOnePool(longLifetimes(13));
    expect(stats.provenOptimal).toBe(false);
    expect(stats.finalTotal).toBeLessThan(bound * 1.004);
  });

  test("uniform 2,000-buffer sets the core's bound search misses: at the bound through the final dives and the top's re-solve", () => {
    // Seeds of the bench's uniform family where the bound search and the descent come back
    // unknown. With the first preorder's final dives alone, 32 and 38 ended 2.18% and 3.50%
    // above the bound (Vela 0.34% and 2.40%); on 38 a dive of the fourth preorder packs it at
    // the bound. 32 (0.33% after the dives) and 93 (2.07%, Vela 1.07%) reach it when the top of
    // the plan is re-solved at the bound; 67 (1.79%) and 89 (0.018%) once the final dives
    // take tolerances of 1/2 and 3/4 of the mean size too.
    for (const seed of [32, 38, 93, 67, 89]) {
      const { bound, stats } = planInOnePool(randomBenchSet(seed, 2000, 800));
      // At the bound, so at or below any plan (Vela's included).
      expect(stats.finalTotal).toBe(bound);
      expect(stats.provenOptimal).toBe(true);
    }
  });

  test('prefers pools in order, honours size hints, falls back', () => {
    const fast = pool('fast', 100);
    const slow = pool('slow');
    const bufs = buffers(
      {
        A: { size: 60, conflicts: ['B', 'C'] },
        B: { size: 40, conflicts: ['A', 'C'] },
        C: { size: 30, conflicts: ['A', 'B'] },
      },
      [fast, slow],
    );
    const plan = getPlanningAlgorithm('auto')(bufs, 0, { timeBudgetMs: 50 });
    verifyPlan(bufs, plan);
    const sizes = poolSizesOfPlan(bufs, plan);
    expect(sizes.get('fast')).toBe(100); // A and B fill it exactly
    expect(sizes.get('slow')).toBe(30);
  });

  test('respects buffer and pool alignment', () => {
    const aligned = pool('ws', undefined, 64);
    const bufs = buffers(
      {
        A: { size: 10, alignment: 16, conflicts: ['B', 'C'] },
        B: { size: 70, alignment: 16, conflicts: ['A', 'C'] },
        C: { size: 5, alignment: 16, conflicts: ['A', 'B'] },
      },
      [aligned],
    );
    const plan = getPlanningAlgorithm('auto')(bufs, 0, { timeBudgetMs: 20 });
    verifyPlan(bufs, plan);
    for (const a of plan.values()) expect(a.offset % 64).toBe(0);
  });

  test('treats a conflict listed in one direction only as a conflict', () => {
    const bufs = buffers({ A: { size: 100, conflicts: ['B'] }, B: { size: 50, conflicts: [] } });
    const plan = getPlanningAlgorithm('auto')(bufs, 0, { timeBudgetMs: 20 });
    verifyPlan(bufs, plan);
  });

  test('throws the overflow error when nothing fits', () => {
    const tiny = pool('tiny', 50);
    const bufs = buffers({ A: { size: 40, conflicts: ['B'] }, B: { size: 40, conflicts: ['A'] } }, [tiny]);
    expect(() => getPlanningAlgorithm('auto')(bufs, 0)).toThrow(
      /^the space available in the provided pools exceeded when trying to allocate the buffer: [AB]$/,
    );
  });

  test('a size-limited pool that every greedy order overflows: the exact core packs it within the limit', () => {
    // Fuzzed: peak 854 bytes, a pool of 1,006. Every greedy start and every failed-first order
    // left b2 (34 bytes, live throughout) no gap under the limit, and auto reported the pool
    // exhausted; TVM's hill climb packs it at 854.
    const sram = pool('sram', 1006);
    const ranges: Record<string, [number, number, number]> = { b0: [470, 2, 3], b1: [187, 3, 4], b2: [34, 2, 5], b3: [163, 3, 3], b4: [316, 4, 5], b5: [503, 5, 7] };
    const bufs = intervalsToBufferInfos(
      Object.values(ranges).map(([sizeBytes, firstUse, lastUse]) => ({ sizeBytes, firstUse, lastUse })),
      [sram],
    );
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    expect(poolSize(bufs, plan, 'sram')).toBe(854);
    expect(stats.provenOptimal).toBe(true);
    expect(() => getPlanningAlgorithm('greedy_by_size')(bufs, 0)).toThrow(/space available/);
  });

  test("the search's work counts every position a re-placement passes: three pools, no conflicts, thousands of steps, not a million", () => {
    // Fuzzed: 550 buffers each live at one operator of its own, in three unlimited pools. A
    // search step re-places a buffer or two (a unit each: no conflicts) and walks the pool ends
    // through every later position; uncharged, that walk let the 5M-unit search take 926,000
    // steps and 9.5 s.
    const pools = [pool('sram'), pool('dram'), pool('tcm')];
    const [sram, dram, tcm] = pools;
    const candidates = [[sram, dram], [sram, dram], [sram], [tcm, sram], [dram]];
    const bufs = intervalsToBufferInfos(
      Array.from({ length: 550 }, (_, i) => ({ sizeBytes: 1024 << i % 3, firstUse: i, lastUse: i })),
      pools,
    ).map((b, i) => ({ ...b, poolCandidates: candidates[i % 5] }));
    const { plan, stats } = planAuto(bufs, lowerBoundOfBuffers(bufs));
    verifyPlan(bufs, plan);
    expect(stats.iterations).toBeLessThan(50_000);
    // Its plan is at its bound (the pool tops lowered after the search): proven.
    expect(stats.finalTotal).toBe(stats.lowerBound);
    expect(stats.provenOptimal).toBe(true);
  });

  test('empty input gives an empty plan', () => {
    expect(getPlanningAlgorithm('auto')([], 0).size).toBe(0);
  });
});

describe('interval helpers', () => {
  test('memory pressure: adjacent intervals do not overlap, shared ops do', () => {
    expect(memoryPressureOfIntervals([{ sizeBytes: 10, firstUse: 0, lastUse: 1 }, { sizeBytes: 20, firstUse: 2, lastUse: 3 }])).toBe(20);
    expect(memoryPressureOfIntervals([{ sizeBytes: 10, firstUse: 0, lastUse: 2 }, { sizeBytes: 20, firstUse: 2, lastUse: 3 }])).toBe(30);
  });

  test('lower bound of listed conflicts with live ranges: the peak where the lists are the overlaps, a heavier clique where a listed pair never overlaps', () => {
    const spec = (size: number, liveRange: [number, number], conflicts: string[]) => ({ size, conflicts, liveRange });
    const withRanges = (specs: Record<string, ReturnType<typeof spec>>) =>
      buffers(specs).map((b) => ({ ...b, liveRange: specs[b.name].liveRange }));
    // A [0,0] and B [1,1] never overlap; C [0,1] overlaps both: peak 10 + 1.
    const overlaps = withRanges({ A: spec(10, [0, 0], ['C']), B: spec(10, [1, 1], ['C']), C: spec(1, [0, 1], ['A', 'B']) });
    expect(lowerBoundOfBuffers(overlaps)).toBe(11);
    // Listing A and B as a conflict too makes {A, B, C} a clique of 21 bytes: every plan needs it.
    const extra = withRanges({ A: spec(10, [0, 0], ['B', 'C']), B: spec(10, [1, 1], ['A', 'C']), C: spec(1, [0, 1], ['A', 'B']) });
    expect(lowerBoundOfBuffers(extra)).toBe(21);
    // Listed one way only, A and C need not be apart: the peak is no bound, the clique {B, C} is.
    const oneWay = withRanges({ A: spec(10, [0, 0], []), B: spec(10, [1, 1], ['C']), C: spec(1, [0, 1], ['A', 'B']) });
    expect(lowerBoundOfBuffers(oneWay)).toBe(11);
    const oneWayLight = withRanges({ A: spec(10, [0, 0], []), B: spec(5, [1, 1], ['C']), C: spec(1, [0, 1], ['A', 'B']) });
    expect(lowerBoundOfBuffers(oneWayLight)).toBe(10);
  });

  test('conflicts are the overlapping intervals, both directions', () => {
    const bufs = intervalsToBufferInfos(
      [
        { sizeBytes: 1, firstUse: 0, lastUse: 1 },
        { sizeBytes: 1, firstUse: 1, lastUse: 2 },
        { sizeBytes: 1, firstUse: 3, lastUse: 3 },
      ],
      [pool('ws')],
    );
    expect(bufs.map((b) => b.conflicts)).toEqual([['buf_1'], ['buf_0'], []]);
    expect(bufs[2].liveRange).toEqual([3, 3]);
  });
});

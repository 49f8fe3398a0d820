import * as fc from 'fast-check';
import { describeShortfall, limitShortfall } from '../../../src/usmp/algo/limitShortfall';
import { intervalsOf } from '../../../src/usmp/algo/multiPool';
import { someChoiceFits } from './helpers';
import { IndexedProblem, indexProblem } from '../../../src/usmp/algo/indexed';
import { planAuto } from '../../../src/usmp/algo/auto';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { parseBufferSet } from '../../../src/usmp/bufferSet';
import { planBufferSet } from '../../../src/cli/plan';
import { IntervalConflicts } from '../../../src/usmp/intervalConflicts';
import { verifyPlan } from '../../../src/usmp/verify';
import { MemoryPlanningError, POOLS_EXHAUSTED } from '../../../src/errors';
import { seededRandom } from '../../../src/util/random';

interface Doc {
  pools: { name: string; sizeHintBytes?: number }[];
  buffers: { name: string; size: number; candidatePools: string[]; liveRange: [number, number]; conflicts?: string[] }[];
}

const setOf = (doc: Doc) => parseBufferSet(JSON.stringify(doc), 'set.json');

function problemOf(doc: Doc): { problem: IndexedProblem; intervals: IntervalConflicts | undefined } {
  const problem = indexProblem(setOf(doc).buffers);
  const engine = new PlacementEngine(problem);
  return { problem, intervals: intervalsOf(problem, engine.adjStart, engine.adj) };
}

/** auto's error for a set, or undefined when it plans it. */
function autoError(doc: Doc): MemoryPlanningError | undefined {
  try {
    planAuto(setOf(doc).buffers, 0);
    return undefined;
  } catch (e) {
    if (e instanceof MemoryPlanningError) return e;
    throw e;
  }
}

const live = (first: number, last: number): [number, number] => [first, last];

describe('limitShortfall: buffers that can only go in limited pools, live beyond their limits', () => {
  it('refuses buffers pinned to a pool whose limit their live bytes pass, saying where and by how much', () => {
    const doc: Doc = {
      pools: [{ name: 'sram', sizeHintBytes: 1000 }, { name: 'dram' }],
      buffers: [
        { name: 'a', size: 400, candidatePools: ['sram'], liveRange: live(0, 2) },
        { name: 'b', size: 450, candidatePools: ['sram'], liveRange: live(1, 3) },
        { name: 'c', size: 300, candidatePools: ['sram'], liveRange: live(2, 4) },
        { name: 'free', size: 5000, candidatePools: ['sram', 'dram'], liveRange: live(0, 4) },
      ],
    };
    const e = autoError(doc)!;
    expect(e.message.startsWith(POOLS_EXHAUSTED)).toBe(true);
    expect(e.context.buffer).toBe('b');
    expect(e.context.shortfall).toBe(
      'the 3 buffer(s) that can only go in pool sram are live together at step 2 of the live ranges with 1150 bytes, above its limit of 1000 bytes, so no plan fits them',
    );
    // `uma-ts plan` keeps the proof in its own message.
    expect(() => planBufferSet(setOf(doc), 'auto')).toThrow(/allowed pools: sram \(limit 1000 bytes\); the 3 buffer\(s\) that can only go in pool sram .* 1150 bytes/);
    // At 1150 bytes the proof is gone and auto plans it.
    doc.pools[0].sizeHintBytes = 1150;
    const set = setOf(doc);
    verifyPlan(set.buffers, planAuto(set.buffers, 0).plan, set.pools);
  });

  it('finds a shortfall of a set of pools that no single pool shows, and names the pools', () => {
    const doc: Doc = {
      pools: [{ name: 'a', sizeHintBytes: 500 }, { name: 'b', sizeHintBytes: 500 }, { name: 'c' }],
      buffers: [
        { name: 'x', size: 400, candidatePools: ['a', 'b'], liveRange: live(0, 1) },
        { name: 'y', size: 400, candidatePools: ['b', 'a'], liveRange: live(0, 1) },
        { name: 'z', size: 400, candidatePools: ['a', 'b'], liveRange: live(1, 2) },
        { name: 'w', size: 400, candidatePools: ['a', 'c'], liveRange: live(0, 2) },
      ],
    };
    const { problem, intervals } = problemOf(doc);
    const s = limitShortfall(problem, intervals!)!;
    expect(s).toEqual({ pools: [0, 1], time: 1, bytes: 1200, limit: 1000, buffers: 3, largest: 0 });
    expect(describeShortfall(problem, s)).toContain("pools a, b are live together at step 1 of the live ranges with 1200 bytes, above their limits' sum of 1000 bytes");
  });

  it('counts a buffer only in the limited pools it fits in, and not at all where an unlimited pool is a candidate', () => {
    const doc: Doc = {
      pools: [{ name: 'small', sizeHintBytes: 100 }, { name: 'big', sizeHintBytes: 1000 }, { name: 'any' }],
      buffers: [
        // Too large for `small`: it can only go in `big`.
        { name: 'p', size: 600, candidatePools: ['small', 'big'], liveRange: live(0, 1) },
        { name: 'q', size: 500, candidatePools: ['big'], liveRange: live(1, 2) },
        // Free to go in `any`: never counted.
        { name: 'r', size: 5000, candidatePools: ['big', 'any'], liveRange: live(0, 2) },
      ],
    };
    const { problem, intervals } = problemOf(doc);
    expect(limitShortfall(problem, intervals!)).toMatchObject({ pools: [1], bytes: 1100, limit: 1000, buffers: 2, largest: 0 });
    doc.buffers[1].candidatePools = ['big', 'any'];
    const again = problemOf(doc);
    expect(limitShortfall(again.problem, again.intervals!)).toBeUndefined();
  });

  it('proves nothing where the conflicts are fewer than the overlaps: such buffers may share bytes', () => {
    // Both live at step 0 but neither lists the other: one 600-byte pool holds both.
    const doc: Doc = {
      pools: [{ name: 'sram', sizeHintBytes: 600 }],
      buffers: [
        { name: 'a', size: 600, candidatePools: ['sram'], liveRange: live(0, 1), conflicts: [] },
        { name: 'b', size: 600, candidatePools: ['sram'], liveRange: live(0, 1), conflicts: [] },
      ],
    };
    expect(problemOf(doc).intervals).toBeUndefined();
    const set = setOf(doc);
    const { plan } = planAuto(set.buffers, 0);
    verifyPlan(set.buffers, plan, set.pools);
  });

  it('bounds its passes where the sets of pools are many, keeping the one of every limited pool', () => {
    // Twelve limited pools and 8,000 one-byte buffers live together, each in its own random set of
    // them (about 4,000 distinct sets): a pass per set would read 64M events. Sets of ten pools
    // already show the shortfall (about 2,000 bytes against 1,000), but past the budget the
    // check ends with the set of all twelve.
    const random = seededRandom(12);
    const pools = Array.from({ length: 12 }, (_, k) => ({ name: `p${k}`, sizeHintBytes: 100 }));
    const doc: Doc = {
      pools,
      buffers: Array.from({ length: 8000 }, (_, i) => {
        const mine = pools.filter(() => random() < 0.5).map((q) => q.name);
        return { name: `b${i}`, size: 1, candidatePools: mine.length > 0 ? mine : ['p0'], liveRange: live(0, 0) };
      }),
    };
    // (The ranges as intervals directly: their 64M conflict entries are not needed.)
    const problem = indexProblem(setOf(doc).buffers);
    const intervals = new IntervalConflicts(new Float64Array(8000), new Float64Array(8000));
    expect(limitShortfall(problem, intervals)).toMatchObject({ pools: pools.map((_, k) => k), bytes: 8000, limit: 1200, buffers: 8000 });
  });

  // Small sets of one to three pools, some limited: a shortfall is a proof (no choice of pools
  // fits, every choice tried with each pool decided by the core to the end), and its figures are
  // the live bytes it names.
  const smallSet = fc
    .record({
      pools: fc.array(fc.option(fc.integer({ min: 8, max: 64 }), { freq: 4 }), { minLength: 1, maxLength: 3 }),
      buffers: fc.array(
        fc.record({
          size: fc.integer({ min: 1, max: 40 }),
          first: fc.integer({ min: 0, max: 5 }),
          length: fc.integer({ min: 0, max: 4 }),
          candidates: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    })
    .map(
      ({ pools, buffers }): Doc => ({
        pools: pools.map((limit, p) => ({ name: `p${p}`, ...(limit === null ? {} : { sizeHintBytes: limit }) })),
        buffers: buffers.map((b, i) => ({
          name: `b${i}`,
          size: b.size,
          liveRange: live(b.first, b.first + b.length),
          candidatePools: [...new Set(b.candidates.map((c) => `p${c % pools.length}`))],
        })),
      }),
    );

  it('reports only what holds: no choice of pools fits, and the bytes it names are live then', () => {
    let shortfalls = 0;
    fc.assert(
      fc.property(smallSet, (doc) => {
        const { problem, intervals } = problemOf(doc);
        const s = limitShortfall(problem, intervals!);
        if (!s) return;
        shortfalls++;
        expect(someChoiceFits(problem, intervals!)).toBe(false);
        const only = doc.buffers.filter((b) => {
          const fitting = b.candidatePools.filter((name) => {
            const limit = doc.pools.find((q) => q.name === name)!.sizeHintBytes;
            return limit === undefined || b.size <= limit;
          });
          return fitting.length > 0 && fitting.every((name) => s.pools.some((p) => problem.pools[p].name === name) && doc.pools.find((q) => q.name === name)!.sizeHintBytes !== undefined);
        });
        const at = only.filter((b) => b.liveRange[0] <= s.time && s.time <= b.liveRange[1]);
        expect(at.reduce((sum, b) => sum + b.size, 0)).toBe(s.bytes);
        expect(at.length).toBe(s.buffers);
        expect(s.limit).toBe(s.pools.reduce((sum, p) => sum + problem.poolLimits[p], 0));
        expect(s.bytes).toBeGreaterThan(s.limit);
      }),
      { seed: 0x5f0f, numRuns: 400 },
    );
    // The property was exercised.
    expect(shortfalls).toBeGreaterThan(20);
  });
});

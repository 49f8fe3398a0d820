import * as fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planBufferSet } from '../../../src/cli/plan';
import { intervalsOf } from '../../../src/usmp/algo/multiPool';
import { choiceFits, someChoiceFits } from './helpers';
import { IndexedProblem, indexProblem } from '../../../src/usmp/algo/indexed';
import { planAuto } from '../../../src/usmp/algo/auto';
import { withCandidates } from '../../../src/usmp/algo/withCandidates';
import { IntervalConflicts } from '../../../src/usmp/intervalConflicts';
import { poolSizesOfPlan } from '../../../src/usmp/verify';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { exactPoolChoices } from '../../../src/usmp/algo/poolChoices';
import { searchWithinLimits } from '../../../src/usmp/algo/withinLimits';
import { parseBufferSet } from '../../../src/usmp/bufferSet';
import { verifyPlan } from '../../../src/usmp/verify';

// Found by the CLI fuzz campaign (fz22): 13 buffers, two pools; the 1 MiB buffer fits its pool
// only with every small buffer stacked exactly above it (69 bytes to spare), which `auto`
// reported as "pools exhausted" though a plan exists.
const file = path.join(__dirname, 'fixtures', 'exactPoolChoices.json');
const set = parseBufferSet(fs.readFileSync(file, 'utf8'), file);

describe('exactPoolChoices: every choice of pools, each limited pool decided by the exact core', () => {
  it('finds pools in which the exact fit exists, where the order search runs out', () => {
    const problem = indexProblem(set.buffers);
    const engine = new PlacementEngine(problem);
    expect(searchWithinLimits(problem, engine.adjStart, engine.adj, 20_000_000, true)).toBeUndefined();
    const pool = exactPoolChoices(problem, intervalsOf(problem, engine.adjStart, engine.adj)!, 20_000_000);
    expect(pool).toBeDefined();
    pool!.forEach((p, b) => expect(problem.candidates[b]).toContain(p));
  });

  it('gives up, undefined, when no choice fits the limits', () => {
    const tight = parseBufferSet(
      JSON.stringify({
        pools: [{ name: 'a', sizeHintBytes: 10 }, { name: 'b', sizeHintBytes: 10 }],
        buffers: [
          { name: 'x', size: 8, candidatePools: ['a', 'b'], liveRange: [0, 2] },
          { name: 'y', size: 8, candidatePools: ['a', 'b'], liveRange: [1, 3] },
          { name: 'z', size: 8, candidatePools: ['a', 'b'], liveRange: [2, 4] },
        ],
      }),
      'tight.json',
    );
    const problem = indexProblem(tight.buffers);
    const engine = new PlacementEngine(problem);
    expect(exactPoolChoices(problem, intervalsOf(problem, engine.adjStart, engine.adj)!, 20_000_000)).toBeUndefined();
  });

  it('plans it with a target above what the limits hold (a pressure is a target, not a bound)', () => {
    const limits = set.pools.reduce((sum, p) => sum + p.sizeHintBytes!, 0);
    const { plan } = planAuto(set.buffers, limits + 1);
    verifyPlan(set.buffers, plan, set.pools);
    for (const [name, end] of poolSizesOfPlan(set.buffers, plan)) expect(end).toBeLessThanOrEqual(set.pools.find((q) => q.name === name)!.sizeHintBytes!);
  });

  it("auto's plan of the fuzzed set is valid and within both limits", () => {
    const report = planBufferSet(set, 'auto');
    const plan = new Map(report.allocations.map((a) => [a.buffer, { pool: a.pool, offset: a.offset }] as const));
    expect(() => verifyPlan(set.buffers, plan, set.pools)).not.toThrow();
    for (const p of report.pools) expect(p.size).toBeLessThanOrEqual(set.pools.find((q) => q.name === p.name)!.sizeHintBytes!);
  });
});

/** The problem of a JSON buffer set with live ranges, and its conflicts as intervals. */
function problemOf(doc: unknown): { problem: IndexedProblem; intervals: IntervalConflicts } {
  const problem = indexProblem(parseBufferSet(JSON.stringify(doc), 'set.json').buffers);
  const engine = new PlacementEngine(problem);
  return { problem, intervals: intervalsOf(problem, engine.adjStart, engine.adj)! };
}

describe('exactPoolChoices: a search over choices, by live bytes, with backjumping', () => {
  it('finds pools for a fuzzed set with far too many choices to try each (32 buffers, two pools)', () => {
    // Fuzzed (fz30's metalim mode, zero-size buffers left out): both pools limited to their
    // size in auto's own plan without limits; 2^22 choices, so the odometer over every choice
    // (4,096 at most) that came before this search never started.
    const limitedFile = path.join(__dirname, 'fixtures', 'twoPoolsLiveBytesChoice.json');
    const limited = parseBufferSet(fs.readFileSync(limitedFile, 'utf8'), limitedFile);
    const problem = indexProblem(limited.buffers);
    const engine = new PlacementEngine(problem);
    const intervals = intervalsOf(problem, engine.adjStart, engine.adj)!;
    const pool = exactPoolChoices(problem, intervals, 20_000_000);
    expect(pool).toBeDefined();
    pool!.forEach((p, b) => expect(problem.candidates[b]).toContain(p));
    expect(choiceFits(problem, intervals, pool!)).toBe(true);
    // Pinned to those pools, auto plans every pool within its limit.
    const pinned = withCandidates(limited.buffers, (b) => [problem.pools[pool![b]]]);
    const sizes = poolSizesOfPlan(pinned, planAuto(pinned, 0).plan);
    for (const q of limited.pools) expect(sizes.get(q.name) ?? 0).toBeLessThanOrEqual(q.sizeHintBytes!);
  });

  // Small sets of two or three pools, some limited: a choice is found exactly when one exists
  // (every choice tried, each pool decided by the core to the end), and a choice found fits.
  const smallSet = fc
    .record({
      pools: fc.array(fc.record({ limit: fc.option(fc.integer({ min: 16, max: 64 }), { freq: 4 }), alignment: fc.constantFrom(1, 1, 4, 16) }), { minLength: 2, maxLength: 3 }),
      buffers: fc.array(
        fc.record({
          size: fc.integer({ min: 1, max: 32 }),
          first: fc.integer({ min: 0, max: 5 }),
          length: fc.integer({ min: 0, max: 4 }),
          alignment: fc.constantFrom(1, 2, 8),
          candidates: fc.uniqueArray(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    })
    .map(({ pools, buffers }) => ({
      pools: pools.map((q, p) => ({ name: `p${p}`, alignment: q.alignment, ...(q.limit === null ? {} : { sizeHintBytes: q.limit }) })),
      buffers: buffers.map((b, i) => ({
        name: `b${i}`,
        size: b.size,
        alignment: b.alignment,
        liveRange: [b.first, b.first + b.length],
        candidatePools: [...new Set(b.candidates.map((c) => `p${c % pools.length}`))],
      })),
    }));

  it('finds a choice exactly where one exists', () => {
    fc.assert(
      fc.property(smallSet, (doc) => {
        const { problem, intervals } = problemOf(doc);
        const pool = exactPoolChoices(problem, intervals, 20_000_000);
        expect(pool !== undefined).toBe(someChoiceFits(problem, intervals));
        if (pool) expect(choiceFits(problem, intervals, pool)).toBe(true);
      }),
      { seed: 0x9001, numRuns: 300 },
    );
  });
});

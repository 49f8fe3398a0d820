import * as fs from 'node:fs';
import * as path from 'node:path';
import { planBufferSet } from '../../../src/cli/plan';
import { intervalsOf } from '../../../src/usmp/algo/multiPool';
import { indexProblem } from '../../../src/usmp/algo/indexed';
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

  it("auto's plan of the fuzzed set is valid and within both limits", () => {
    const report = planBufferSet(set, 'auto');
    const plan = new Map(report.allocations.map((a) => [a.buffer, { pool: a.pool, offset: a.offset }] as const));
    expect(() => verifyPlan(set.buffers, plan, set.pools)).not.toThrow();
    for (const p of report.pools) expect(p.size).toBeLessThanOrEqual(set.pools.find((q) => q.name === p.name)!.sizeHintBytes!);
  });
});

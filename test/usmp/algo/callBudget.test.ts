/**
 * The budget of an `auto` call with the exact core (CallBudget): dives-sized, with a floor, and
 * for a part of a multi-pool call (a pool's re-plan) a cap of its own.
 */
import { CallBudget, POOL_CALL_MIN_WORK } from '../../../src/usmp/algo/callBudget';
import { ExactCore } from '../../../src/usmp/algo/exactCore';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { IntervalConflicts } from '../../../src/usmp/intervalConflicts';
import { intervalsToBufferInfos } from '../../../src/usmp/conflicts';
import { PoolInfo } from '../../../src/usmp/types';

const ws: PoolInfo = { name: 'ws', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 1, internal: true };

/** n buffers all live at once: a dive places each over all placed before it. */
function allLive(n: number) {
  const ivs = Array.from({ length: n }, (_, i) => ({ sizeBytes: 100 + (i % 7), firstUse: 0, lastUse: 0, alignment: 1 }));
  const problem = indexProblem(intervalsToBufferInfos(ivs, [ws]));
  const engine = new PlacementEngine(problem);
  const core = new ExactCore({
    count: n,
    sizes: Float64Array.from(ivs, (iv) => iv.sizeBytes),
    alignments: new Float64Array(n).fill(1),
    intervals: new IntervalConflicts(new Float64Array(n), new Float64Array(n)),
  });
  return { problem, engine, core };
}

describe('CallBudget', () => {
  it("a pool's re-plan gets its dives' worth, at most 20M units; a whole call at least its floor", () => {
    const big = allLive(1100);
    // 50 dives of 1,100 buffers live together are far above either cap.
    expect(50 * big.core.diveWork()).toBeGreaterThan(20_000_000);
    expect(new CallBudget(big.core, big.engine, big.problem, POOL_CALL_MIN_WORK).total).toBe(20_000_000);
    expect(new CallBudget(big.core, big.engine, big.problem).total).toBeGreaterThanOrEqual(60_000_000);
    const small = allLive(40);
    expect(new CallBudget(small.core, small.engine, small.problem, POOL_CALL_MIN_WORK).total).toBe(POOL_CALL_MIN_WORK);
  });
});

/**
 * Vela 3.10's hill-climb plan for the bench, computed by `auto`'s own climb
 * (src/usmp/algo/bottleneckClimb.ts) in its Vela 3.4+ mode with Vela's limits: 99,999 iterations
 * at most while the size is above the memory limit (none here), and on while the last smaller
 * size is under 500 iterations old. `test/usmp/algo/bottleneckClimb.test.ts` checks that it ends
 * on the port's plan (`reference/velaHillClimb.ts`) with the same iterations; it re-places only
 * what a swap changes, 2-4x faster than the port, whose whole re-placements take about a minute
 * on a dense 2,000-buffer set.
 */
import { BottleneckClimb, ClimbLimits, VELA_SEED } from '../src/usmp/algo/bottleneckClimb';
import { indexProblem } from '../src/usmp/algo/indexed';
import { urgencyOrder } from '../src/usmp/algo/orderings';
import { PlacementEngine } from '../src/usmp/algo/placement';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../src/usmp/conflicts';
import { PoolInfo } from '../src/usmp/types';
import { arenaOf, RefInterval, RefPlan } from './reference/interval';
import { MAX_ITERATIONS, MIN_ITERATIONS_IMPROVE } from './reference/velaHillClimb';

/** Vela 3.4+'s limits for the climb; Vela stops at `target`, its min_required_size. */
export function vela310Limits(target: number, memoryLimit = Infinity): ClimbLimits {
  return {
    target,
    workLimit: Infinity,
    maxIterations: MAX_ITERATIONS,
    memoryLimit,
    improveWindow: MIN_ITERATIONS_IMPROVE,
    stallIterations: Infinity,
    deadline: Infinity,
    now: () => 0,
  };
}

export function velaPlan(intervals: readonly RefInterval[]): RefPlan {
  if (intervals.length === 0) return { offsets: [], arenaBytes: 0 };
  const pool: PoolInfo = { name: 'arena', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 1, internal: true };
  const live = intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: iv.alignment }));
  const buffers = intervalsToBufferInfos(live, [pool]);
  const problem = indexProblem(buffers);
  const engine = new PlacementEngine(problem);
  const climb = new BottleneckClimb(problem, engine.adjStart, engine.adj, urgencyOrder(problem)!, VELA_SEED, true);
  // Vela's min_required_size is the peak of the sizes live together.
  climb.run(vela310Limits(memoryPressureOfIntervals(live)));
  const offsets = Array.from(climb.bestOffsets());
  return { offsets, arenaBytes: arenaOf(intervals, offsets) };
}

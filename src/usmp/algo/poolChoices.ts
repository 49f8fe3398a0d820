/**
 * The last resort's complete form for small sets with live ranges and several pools: every
 * choice of pools for the buffers with more than one candidate, each size-limited pool's
 * buffers then decided by the exact core at the pool's limit. The order search of
 * withinLimits.ts chooses pools too, but its branches follow first-fit placements, and on a
 * set whose only fits are exact (fuzzed: 13 buffers in two pools, one of 2^40 bytes in a pool
 * 69 bytes larger) it needed ten times its budget; the core decides each pool's packing in a
 * few hundred units. Choices run in odometer order from every buffer's first candidate (the
 * engine's preference); a pool whose aligned live peak passes its limit is refused before any
 * core runs. Undefined when no choice fits within MAX_CHOICES choices and `budget` core units.
 */
import { IntervalConflicts } from '../intervalConflicts';
import { IndexedProblem } from './indexed';
import { poolCore, poolPeak } from './multiPool';

/** Choices tried at most: beyond this the set is not small and the order search is all. */
const MAX_CHOICES = 4096;

/** Per buffer, the pool of a choice in which every size-limited pool fits its limit. */
export function exactPoolChoices(problem: IndexedProblem, intervals: IntervalConflicts, budget: number): Int32Array | undefined {
  const n = problem.count;
  const { sizes, candidates, poolLimits } = problem;
  const options = candidates.map((cs, b) => [...new Set(cs)].filter((p) => sizes[b] <= poolLimits[p]));
  if (options.some((o) => o.length === 0)) return undefined;
  let count = 1;
  for (const o of options) {
    count *= o.length;
    if (count > MAX_CHOICES) return undefined;
  }
  const digit = new Int32Array(n);
  const pool = Int32Array.from(options, (o) => o[0]);
  let work = 0;
  for (let tried = 0; tried < count && work < budget; tried++) {
    const fit = choiceFits(problem, intervals, pool, budget - work);
    work += fit.work;
    if (fit.fits) return pool;
    // The next choice: the odometer's lowest digit that can still move moves, those below reset.
    for (let b = 0; b < n; b++) {
      digit[b] = (digit[b] + 1) % options[b].length;
      pool[b] = options[b][digit[b]];
      if (digit[b] !== 0) break;
    }
  }
  return undefined;
}

/** Whether every size-limited pool's buffers under `pool` fit its limit (the core decides). */
function choiceFits(problem: IndexedProblem, intervals: IntervalConflicts, pool: Int32Array, budget: number): { fits: boolean; work: number } {
  let work = 0;
  for (let p = 0; p < problem.pools.length; p++) {
    const limit = problem.poolLimits[p];
    if (limit === Infinity) continue;
    const members: number[] = [];
    for (let b = 0; b < problem.count; b++) if (pool[b] === p) members.push(b);
    work += problem.count;
    if (members.length === 0) continue;
    if (poolPeak(problem, intervals, p, members) > limit) return { fits: false, work };
    const core = poolCore(problem, intervals, p, members);
    const r = core.decide(limit, Math.max(0, budget - work));
    work += core.work;
    if (r.kind !== 'fits') return { fits: false, work };
  }
  return { fits: true, work };
}

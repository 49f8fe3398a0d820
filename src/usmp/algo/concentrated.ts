/**
 * One pool choice a multi-pool search does not find: every buffer that may go in an unlimited
 * pool goes in the same one (the candidate of the most buffers), the others in their first
 * candidate they fit. Where the buffers kept out of it are few and small (pins to a small SRAM),
 * that pool is nearly a one-pool problem of all the live bytes, which one-pool `auto` packs at
 * its peak, while choices that spread buffers over the pools leave each pool its own
 * fragmentation: on 2,000-buffer sets with pins of heavy-tailed sizes the spread plan ended
 * 0.9-2.8% above the bound, this one 0.05-0.08% (thirty-fourth session, docs/memory-planner.md).
 * Where the pinned buffers are many it is the worse choice (the uniform sets with pins: about 1%
 * above the bound, against 0-1% spread), so `auto` packs it only when the peaks of its pools
 * are below the best plan found (auto.ts, packPoolByPool).
 */
import { IntervalConflicts } from '../intervalConflicts';
import { alignmentInPool, IndexedPlan, IndexedProblem, roundUp } from './indexed';
import { poolPeak } from './multiPool';

/**
 * Per buffer its pool under the choice above; undefined when no pool is unlimited (the limits
 * would decide what goes where) or some buffer fits none of its candidates.
 */
export function concentratedChoices(problem: IndexedProblem): Int32Array | undefined {
  const takers = new Float64Array(problem.pools.length);
  for (const cs of problem.candidates) for (const p of cs) if (problem.poolLimits[p] === Infinity) takers[p]++;
  let target = -1;
  takers.forEach((count, p) => {
    if (count > 0 && (target < 0 || count > takers[target])) target = p;
  });
  if (target < 0) return undefined;
  const pool = new Int32Array(problem.count);
  for (let b = 0; b < problem.count; b++) {
    const cs = problem.candidates[b];
    const p = cs.includes(target) ? target : cs.find((q) => problem.sizes[b] <= problem.poolLimits[q]);
    if (p === undefined) return undefined;
    pool[b] = p;
  }
  return pool;
}

/** The least total of any plan with these choices: every pool at the peak of its buffers. */
export function choicesPeak(problem: IndexedProblem, intervals: IntervalConflicts, pool: Int32Array): number {
  const members: number[][] = problem.pools.map(() => []);
  pool.forEach((p, b) => members[p].push(b));
  return members.reduce((sum, m, p) => (m.length > 0 ? sum + poolPeak(problem, intervals, p, m) : sum), 0);
}

/**
 * The choices as a plan to pack from: each pool's buffers stacked one above the other (valid
 * whatever conflicts; packPools re-plans or compresses every pool from it).
 */
export function stackedPlan(problem: IndexedProblem, pool: Int32Array): IndexedPlan {
  const tops = new Float64Array(problem.pools.length);
  const offset = Float64Array.from(pool, (p, b) => {
    const at = roundUp(tops[p], alignmentInPool(problem, b, p));
    tops[p] = at + problem.sizes[b];
    return at;
  });
  return { pool: Int32Array.from(pool), offset };
}

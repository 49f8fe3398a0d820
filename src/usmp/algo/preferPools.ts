/**
 * Pool preference after a multi-pool plan: the search weighs total bytes only, so a buffer may
 * end in a later candidate pool although an earlier one (the user's or the backend's
 * preference) has room for it at no cost. Each buffer in turn moves to the first pool before
 * its own where it fits below that pool's current end (and limit), clear of its conflicts
 * there; no pool grows, so the total never does. (Found on person_detect for accel: once the
 * workspace was planned apart from the constants, a CPU-only buffer landed in the shared
 * act_mem at the same total, where l2_mem is the user's first pool.)
 */
import { alignmentInPool, IndexedPlan, IndexedProblem } from './indexed';

export function preferEarlierPools(problem: IndexedProblem, placed: IndexedPlan, adjStart: Int32Array, adj: Int32Array): IndexedPlan {
  const pool = Int32Array.from(placed.pool);
  const offset = Float64Array.from(placed.offset);
  const { sizes } = problem;
  const ends = new Float64Array(problem.pools.length);
  for (let b = 0; b < problem.count; b++) ends[pool[b]] = Math.max(ends[pool[b]], offset[b] + sizes[b]);
  for (let b = 0; b < problem.count; b++) {
    for (const p of problem.candidates[b]) {
      if (p === pool[b]) break;
      const at = lowestFit(problem, pool, offset, adjStart, adj, b, p, Math.min(ends[p], problem.poolLimits[p]));
      if (at === undefined) continue;
      pool[b] = p;
      offset[b] = at;
      break;
    }
  }
  return { pool, offset };
}

/** The lowest aligned offset of b in pool p ending at or below `top`, clear of b's conflicts there. */
function lowestFit(
  problem: IndexedProblem,
  pool: Int32Array,
  offset: Float64Array,
  adjStart: Int32Array,
  adj: Int32Array,
  b: number,
  p: number,
  top: number,
): number | undefined {
  const size = problem.sizes[b];
  const alignment = alignmentInPool(problem, b, p);
  const taken: [number, number][] = [];
  for (let k = adjStart[b]; k < adjStart[b + 1]; k++) {
    const j = adj[k];
    if (pool[j] === p) taken.push([offset[j], offset[j] + problem.sizes[j]]);
  }
  taken.sort((x, y) => x[0] - y[0]);
  let at = 0;
  for (const [from, to] of taken) {
    if (at + size <= from) break;
    if (to > at) at = Math.ceil(to / alignment) * alignment;
  }
  return at + size <= top ? at : undefined;
}

/**
 * Pool choices after a multi-pool plan (lowerPoolTops, then preferEarlierPools). Pool preference: the search weighs total bytes only, so a buffer may
 * end in a later candidate pool although an earlier one (the user's or the backend's
 * preference) has room for it at no cost. Each buffer in turn moves to the first pool before
 * its own where it fits below that pool's current end (and limit), clear of its conflicts
 * there; no pool grows, so the total never does. (Found on person_detect for accel: once the
 * workspace was planned apart from the constants, a CPU-only buffer landed in the shared
 * act_mem at the same total, where l2_mem is the user's first pool.)
 */
import { roundUp } from './coreRun';
import { alignmentInPool, IndexedPlan, IndexedProblem } from './indexed';

/**
 * Lowers pool ends by moving the buffers at a pool's top into another of their candidate pools,
 * below that pool's current end (and limit), clear of their conflicts there. A pool whose top
 * buffers all find such a place ends lower and no pool grows, so each round makes the total
 * smaller. (The search's rebalancing moves buffers into size-limited pools only: on
 * person_detect for accel with the bundled, unlimited pools, the CPU-only buffers at the top of
 * l2_mem had room in act_mem, 18432 bytes of a 92544-byte workspace.)
 */
export function lowerPoolTops(problem: IndexedProblem, placed: IndexedPlan, adjStart: Int32Array, adj: Int32Array): IndexedPlan {
  const pool = Int32Array.from(placed.pool);
  const offset = Float64Array.from(placed.offset);
  const { sizes } = problem;
  const ends = new Float64Array(problem.pools.length);
  const recompute = () => {
    ends.fill(0);
    for (let b = 0; b < problem.count; b++) ends[pool[b]] = Math.max(ends[pool[b]], offset[b] + sizes[b]);
  };
  recompute();
  for (let round = 0; round < problem.count; round++) {
    let lowered = false;
    for (let q = 0; q < problem.pools.length && !lowered; q++) {
      const top: number[] = [];
      for (let b = 0; b < problem.count; b++) if (pool[b] === q && offset[b] + sizes[b] === ends[q] && ends[q] > 0) top.push(b);
      if (top.length === 0) continue;
      const moves: [number, number, number][] = [];
      for (const b of top) {
        let moved = false;
        for (const p of problem.candidates[b]) {
          if (p === q) continue;
          const at = lowestFit(problem, pool, offset, adjStart, adj, b, p, Math.min(ends[p], problem.poolLimits[p]));
          if (at === undefined) continue;
          moves.push([b, pool[b], offset[b]]);
          pool[b] = p;
          offset[b] = at;
          moved = true;
          break;
        }
        if (!moved) break;
      }
      if (moves.length === top.length) {
        lowered = true;
        recompute();
      } else {
        for (const [b, p, o] of moves.reverse()) {
          pool[b] = p;
          offset[b] = o;
        }
      }
    }
    if (!lowered) break;
  }
  return { pool, offset };
}

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
    if (to > at) at = roundUp(to, alignment);
  }
  return at + size <= top ? at : undefined;
}

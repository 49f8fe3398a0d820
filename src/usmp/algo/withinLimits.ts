/**
 * The last resort of `auto` before it reports the pools exhausted: a depth-first search for an
 * order whose placement stays within the pools' size limits, with the placement engine's rule
 * (each buffer at the lowest aligned offset clear of its placed conflicts, in the first of its
 * candidate pools where it then fits), so the order found places the same way in the engine.
 *
 * Greedy orders can all overflow a limit that some order meets (fuzzed: three buffers in a clique
 * with alignments 1, 64 and 256, a 4,225-byte pool that holds them only in one order). First-fit
 * in the order of any plan's offsets puts each buffer at or below its offset there, so with one
 * pool some order reaches every plan's offsets or lower; repeating that settles on a plan that
 * first-fit in its own offset order (ties by index) reproduces. The search therefore only extends
 * an order with a buffer whose offset is at or above the last one placed in its pool (at an equal
 * offset, a higher index), which keeps it complete for one pool while skipping the orders that
 * reach the same plan. With several pools the engine's pool rule makes it a heuristic, unless
 * the search chooses the pools itself (below). A buffer that fits no pool ends the branch:
 * offsets only rise as buffers are placed.
 *
 * Each step tries the unplaced buffers lowest offset first, larger first at equal offsets (a
 * spatial greedy, as the exact core's dives), so its first descent is a good greedy order, and
 * backtracks within `budget` work units (conflict entries scanned).
 */
import { alignmentInPool, IndexedProblem, roundUp } from './indexed';

export interface WithinLimits {
  /** The placement order found. */
  readonly order: Int32Array;
  /** Per buffer, its pool and offset in that placement. */
  readonly pool: Int32Array;
  readonly offset: Float64Array;
}

/**
 * With `choosePools`, each buffer may go to any candidate pool where it fits (a branch each),
 * not only the first: complete for several pools too, but the engine, which takes the first,
 * may not place the order the same way (pin each buffer to its pool to replay it).
 */
export function searchWithinLimits(problem: IndexedProblem, adjStart: Int32Array, adj: Int32Array, budget: number, choosePools = false): WithinLimits | undefined {
  const n = problem.count;
  const { sizes, candidates, poolLimits } = problem;
  const pools = problem.pools.length;
  const pool = new Int32Array(n).fill(-1);
  const offset = new Float64Array(n);
  const order = new Int32Array(n);
  const lastOffset = new Float64Array(pools).fill(-1);
  const lastBuffer = new Int32Array(pools).fill(-1);
  const align = candidates.map((cs, b) => Float64Array.from(cs, (p) => alignmentInPool(problem, b, p)));
  let work = 0;

  /** b's lowest aligned offset in p clear of its placed conflicts there. */
  const firstFit = (b: number, p: number, a: number): number => {
    let at = 0;
    for (let moved = true; moved; ) {
      moved = false;
      for (let k = adjStart[b]; k < adjStart[b + 1]; k++) {
        const j = adj[k];
        if (pool[j] !== p || offset[j] >= at + sizes[b] || offset[j] + sizes[j] <= at) continue;
        at = roundUp(offset[j] + sizes[j], a);
        moved = true;
      }
      work += 1 + adjStart[b + 1] - adjStart[b];
    }
    return at;
  };

  const search = (depth: number): boolean => {
    if (depth === n) return true;
    if (work > budget) return false;
    // Where each unplaced buffer would go now, by the engine's rule.
    const next: { b: number; p: number; at: number }[] = [];
    for (let b = 0; b < n; b++) {
      if (pool[b] >= 0) continue;
      // A node scans every unplaced buffer's row: on large problems one node can pass the budget.
      if (work > budget) return false;
      let placed = false;
      for (let k = 0; k < candidates[b].length && (choosePools || !placed); k++) {
        const p = candidates[b][k];
        const at = firstFit(b, p, align[b][k]);
        if (at + sizes[b] > poolLimits[p]) continue;
        placed = true;
        if (at > lastOffset[p] || (at === lastOffset[p] && b > lastBuffer[p])) next.push({ b, p, at });
      }
      if (!placed) return false;
    }
    next.sort((x, y) => x.at - y.at || sizes[y.b] - sizes[x.b] || x.b - y.b);
    for (const { b, p, at } of next) {
      if (work > budget) return false;
      const [savedOffset, savedBuffer] = [lastOffset[p], lastBuffer[p]];
      pool[b] = p;
      offset[b] = at;
      lastOffset[p] = at;
      lastBuffer[p] = b;
      order[depth] = b;
      if (search(depth + 1)) return true;
      pool[b] = -1;
      lastOffset[p] = savedOffset;
      lastBuffer[p] = savedBuffer;
    }
    return false;
  };

  return search(0) ? { order, pool, offset } : undefined;
}

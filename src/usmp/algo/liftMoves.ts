/**
 * Lift moves, for a one-pool plan less than an alignment above its bound: one buffer taken out,
 * the buffers above it pushed down (pushDown.ts) without it, and the buffer placed again, first
 * fit, usually on top.
 *
 * With sizes that are not multiples of their alignment, a stack of buffers wastes each one's
 * rounding except the top one's, and the aligned bound (stackBound.ts) assumes the buffer with
 * the largest rounding on top of the busiest moment. A plan that tops that moment with another
 * buffer ends a few bytes above the bound, and no step before this one moves a single buffer
 * from the middle of a full stack to its top: the core's re-solves at the bound free whole
 * regions above the holes and, on such a tight moment, run out of work (50M units on mixed
 * seed 95 without a fit). Measured on the 200 mixed 2,000-buffer sets (bench/generators.ts,
 * sizes in bytes, alignments 16 and 64): seeds 7, 95, 111 and 119 ended 1-10 bytes above the
 * bound (95 and 119 above Vela's plan, which is at it); a lift of a buffer with the largest
 * rounding among those at the busy moments reaches the bound on all four, in one to three tries.
 * auto.ts tries it wherever such a plan appears (ExactCore.liftNearBound): the best greedy
 * start, a dense set's urgency placement, the plans of the core's steps and of the search, and
 * the call's last plan; 22 of those 200 sets' best starts are lifted to the bound.
 */
import { roundUp } from './coreRun';
import { dropInOrder, DropScratch, dropOne, PushDownInput } from './pushDown';
import { buffersByOffset } from './topRegion';

/** Tries (a lift each, about a push-down's work) in one call. */
const LIFT_TRIES = 12;

export interface Lifted {
  readonly offsets: Float64Array;
  readonly total: number;
  /** Conflict entries read and sorted: the caller charges it. */
  readonly work: number;
}

/**
 * Lifts buffers of `offsets` (a valid plan) while its total is above `bound`, keeping each
 * lift that lowers the total, within LIFT_TRIES tries. Candidates: the buffers ending above
 * the bound and their conflicts, largest rounding first (then highest end, then index).
 */
export function liftAboveBound(tables: PushDownInput, offsets: Float64Array, bound: number, deadline = Infinity): Lifted {
  const { sizes, adj } = tables;
  const n = sizes.length;
  const scratch = DropScratch.of(tables);
  const rank = new Int32Array(n);
  let current = offsets;
  let total = totalOf(sizes, current);
  let work = 0;
  let tries = 0;
  while (total > bound && tries < LIFT_TRIES) {
    const { order, work: orderWork } = buffersByOffset(current);
    work += orderWork;
    for (let k = 0; k < n; k++) rank[order[k]] = k;
    const candidates = liftCandidates(tables, current, bound);
    work += candidates.work;
    let lifted: { offsets: Float64Array; total: number } | undefined;
    for (const c of candidates.order) {
      // A clock only where the call has one: a try on 10,000 buffers is a push-down, 60 ms.
      if (tries === LIFT_TRIES || (deadline !== Infinity && performance.now() >= deadline)) break;
      tries++;
      const result = current.slice();
      const dropped = dropInOrder(tables, order, rank, rank[c] + 1, c, result, total, scratch);
      // A try reads at most every conflict list and copies the plan.
      work += dropped.sortWork + adj.length + n;
      if (dropped.total === Infinity) continue;
      work += dropOne(tables, c, n, rank, -1, result, scratch);
      const end = result[c] + sizes[c];
      if (end >= total) continue;
      // Below the lifted buffer nothing moved.
      let liftedTotal = Math.max(dropped.total, end);
      for (let k = 0; k < rank[c]; k++) liftedTotal = Math.max(liftedTotal, result[order[k]] + sizes[order[k]]);
      if (liftedTotal < total) {
        lifted = { offsets: result, total: liftedTotal };
        break;
      }
    }
    if (!lifted) break;
    current = lifted.offsets;
    total = lifted.total;
  }
  return { offsets: current, total, work };
}

/** The buffers ending above `bound` and their conflicts, by rounding (largest first), then end, then index. */
function liftCandidates(tables: PushDownInput, offsets: Float64Array, bound: number): { order: number[]; work: number } {
  const { sizes, alignments, adjStart, adj } = tables;
  const n = sizes.length;
  const isCandidate = new Uint8Array(n);
  let work = n;
  for (let b = 0; b < n; b++) {
    if (offsets[b] + sizes[b] <= bound) continue;
    isCandidate[b] = 1;
    for (let k = adjStart[b]; k < adjStart[b + 1]; k++) isCandidate[adj[k]] = 1;
    work += adjStart[b + 1] - adjStart[b];
  }
  const order: number[] = [];
  for (let b = 0; b < n; b++) if (isCandidate[b]) order.push(b);
  const rounding = (b: number): number => roundUp(sizes[b], alignments[b]) - sizes[b];
  order.sort((a, b) => rounding(b) - rounding(a) || offsets[b] + sizes[b] - (offsets[a] + sizes[a]) || a - b);
  work += order.length * Math.ceil(Math.log2(order.length + 1));
  return { order, work };
}

function totalOf(sizes: Float64Array, offsets: Float64Array): number {
  let total = 0;
  for (let b = 0; b < offsets.length; b++) total = Math.max(total, offsets[b] + sizes[b]);
  return total;
}

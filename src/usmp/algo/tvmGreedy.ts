/**
 * TVM's greedy planners (v0.18 src/tir/usmp/algo/greedy.cc), reproduced decision by decision:
 * `greedy_by_size` and `greedy_by_conflicts` only differ in the order buffers are placed.
 *
 * Placement (GreedyBase::PostSortAllocation): a buffer starts at offset 0 in every candidate pool
 * it fits in; each already-placed conflicting buffer pushes the candidate offset of its pool to
 * its end, rounded up to the *conflicting* buffer's alignment; a pool whose size hint would be
 * exceeded by such a push is dropped; the first remaining pool in preference order wins.
 *
 * Two deliberate differences, both confined to inputs where TVM's own plan is invalid:
 *  - the pushed offset is additionally rounded to the placed buffer's alignment in that pool
 *    (its own and the pool's). When every buffer shares one alignment and pools add none (all
 *    TVM flows) this changes nothing; otherwise TVM can emit a misaligned offset.
 *  - TVM reads `pool_offset_candidates[pool]` with std::unordered_map::operator[], which re-inserts
 *    a pool dropped by an earlier conflict (offset restarting at 0). If the placement in such a
 *    revived pool overlaps a conflicting buffer, TVM's plan would be wrong; we skip that pool.
 */
import { MemoryPlanningError } from '../../errors';
import { PlanningAlgorithm } from '../types';
import {
  alignmentInPool,
  IndexedPlan,
  IndexedProblem,
  indexProblem,
  poolsExhaustedError,
  roundUp,
  toBufferPlan,
} from './indexed';
import { Skyline } from './skyline';

/** TVM's IsValidPlacement: the buffer must end within the pool's size hint. */
export function fitsPool(problem: IndexedProblem, pool: number, offset: number, size: number): boolean {
  return offset + size <= problem.poolLimits[pool];
}

/** Conflict list lengths (repeats count); for an interval group, counted without listing them. */
function conflictCounts(problem: IndexedProblem): Int32Array {
  if (problem.intervals) return problem.intervals.degrees();
  return Int32Array.from(problem.conflicts, (c) => c.length);
}

/** Orders buffers by size desc, then conflict count desc (repeats count), then name desc. */
export function tvmSizeOrder(problem: IndexedProblem): Int32Array {
  const { sizes, nameRank } = problem;
  const degree = conflictCounts(problem);
  const order = Int32Array.from({ length: problem.count }, (_, i) => i);
  order.sort((a, b) => {
    if (sizes[a] !== sizes[b]) return sizes[b] - sizes[a];
    if (degree[a] !== degree[b]) return degree[b] - degree[a];
    return nameRank[b] - nameRank[a];
  });
  return order;
}

/** Orders buffers by conflict count desc, then size desc, then name desc. */
export function tvmConflictsOrder(problem: IndexedProblem): Int32Array {
  const { sizes, nameRank } = problem;
  const degree = conflictCounts(problem);
  const order = Int32Array.from({ length: problem.count }, (_, i) => i);
  order.sort((a, b) => {
    if (degree[a] !== degree[b]) return degree[b] - degree[a];
    if (sizes[a] !== sizes[b]) return sizes[b] - sizes[a];
    return nameRank[b] - nameRank[a];
  });
  return order;
}

/**
 * PostSortAllocation on an interval group with one unbounded pool and one alignment: each buffer
 * goes at the highest (aligned) end among the placed buffers its live range overlaps, which is
 * exactly the loop below, read off a skyline instead of a conflict list.
 */
function postSortOnIntervals(problem: IndexedProblem, order: Int32Array): IndexedPlan | undefined {
  const { intervals, sizes } = problem;
  if (!intervals || !placesOnSkyline(problem)) return undefined;
  const alignment = alignmentInPool(problem, 0, 0);
  const skyline = new Skyline(intervals);
  const pool = new Int32Array(problem.count);
  const offset = new Float64Array(problem.count);
  for (const b of order) {
    offset[b] = roundUp(skyline.highest(b), alignment);
    skyline.raise(b, offset[b] + sizes[b]);
  }
  return { pool, offset };
}

/** Whether PostSortAllocation reads an interval group off a skyline: one unbounded pool, one alignment. */
export function placesOnSkyline(problem: IndexedProblem): boolean {
  const { intervals, alignments, candidates } = problem;
  if (!intervals || problem.pools.length !== 1 || problem.poolLimits[0] !== Infinity) return false;
  const alignment = alignmentInPool(problem, 0, 0);
  for (let b = 0; b < problem.count; b++) {
    if (alignments[b] !== alignments[0] || alignmentInPool(problem, b, 0) !== alignment || candidates[b].length !== 1) return false;
  }
  return true;
}

/**
 * Conflict entries above which an algorithm that walks conflict lists refuses an interval set:
 * its lists would take gigabytes (4 bytes an entry, built at once) and minutes to walk.
 */
export const MAX_CONFLICT_ENTRIES = 25_000_000;

/**
 * TVM's greedy planners walk each buffer's conflict list, except on an interval set that
 * places on a skyline (placesOnSkyline). Elsewhere (several pools, a size limit, mixed
 * alignments) the lists of a set of live ranges are built first: a 1.6 MB JSON set of 20,000
 * buffers live at once in two pools made 400M entries, took 32 s and 3.2 GB; 40,000, over 12 GB.
 */
function checkConflictLists(problem: IndexedProblem, algorithm: string): void {
  const entries = problem.intervals?.entryCount();
  if (entries === undefined || entries <= MAX_CONFLICT_ENTRIES || placesOnSkyline(problem)) return;
  throw new MemoryPlanningError(
    `${algorithm} walks conflict lists unless the set is one unlimited pool with one alignment, and this buffer set's live ranges make ` +
      `${entries} conflict entries (limit ${MAX_CONFLICT_ENTRIES}); plan it with auto`,
  );
}

/** PostSortAllocation: places buffers in the given order; throws when a buffer fits no pool. */
export function postSortAllocation(problem: IndexedProblem, order: Int32Array): IndexedPlan {
  const onIntervals = postSortOnIntervals(problem, order);
  if (onIntervals) return onIntervals;
  const { sizes, alignments, conflicts, candidates } = problem;
  const nPools = problem.pools.length;
  const pool = new Int32Array(problem.count).fill(-1);
  const offset = new Float64Array(problem.count);
  // The per-buffer std::unordered_map<PoolInfo, size_t>, as presence flags plus values.
  const present = new Uint8Array(nPools);
  const candidateOffset = new Float64Array(nPools);
  const erased = new Uint8Array(nPools);
  const revived = new Uint8Array(nPools);

  for (const b of order) {
    present.fill(0);
    candidateOffset.fill(0);
    erased.fill(0);
    revived.fill(0);
    const size = sizes[b];
    for (const p of candidates[b]) {
      if (fitsPool(problem, p, 0, size)) present[p] = 1;
    }
    for (const c of conflicts[b]) {
      const p = pool[c];
      if (p < 0) continue;
      const next = roundUp(roundUp(offset[c] + sizes[c], alignments[c]), alignmentInPool(problem, b, p));
      if (fitsPool(problem, p, next, size)) {
        if (!present[p]) {
          present[p] = 1;
          candidateOffset[p] = 0;
          if (erased[p]) revived[p] = 1;
        }
        if (next > candidateOffset[p]) candidateOffset[p] = next;
      } else {
        present[p] = 0;
        erased[p] = 1;
      }
    }
    let selected = -1;
    for (const p of candidates[b]) {
      if (!present[p]) continue;
      if (revived[p] && overlapsPlacedConflict(problem, pool, offset, b, p, candidateOffset[p])) continue;
      selected = p;
      break;
    }
    if (selected < 0) throw poolsExhaustedError(problem.buffers[b]);
    pool[b] = selected;
    offset[b] = candidateOffset[selected];
  }
  return { pool, offset };
}

function overlapsPlacedConflict(
  problem: IndexedProblem,
  pool: Int32Array,
  offset: Float64Array,
  b: number,
  p: number,
  at: number,
): boolean {
  const end = at + problem.sizes[b];
  for (const c of problem.conflicts[b]) {
    if (pool[c] !== p) continue;
    if (offset[c] < end && at < offset[c] + problem.sizes[c]) return true;
  }
  return false;
}

export const greedyBySize: PlanningAlgorithm = (buffers) => {
  const problem = indexProblem(buffers);
  checkConflictLists(problem, 'greedy_by_size');
  return toBufferPlan(problem, postSortAllocation(problem, tvmSizeOrder(problem)));
};

export const greedyByConflicts: PlanningAlgorithm = (buffers) => {
  const problem = indexProblem(buffers);
  checkConflictLists(problem, 'greedy_by_conflicts');
  return toBufferPlan(problem, postSortAllocation(problem, tvmConflictsOrder(problem)));
};

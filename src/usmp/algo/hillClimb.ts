/**
 * TVM's `hill_climb` (v0.18 src/tir/usmp/algo/hill_climb.cc, HillClimbAllocator), reproduced
 * step by step so that the same BufferInfos give the same plan:
 *  - start from the greedy_by_size order; each attempt re-runs a first-fit greedy (conflicts
 *    visited by ascending offset, a pool is dropped when a push would exceed its size hint);
 *  - accept a result if it is smaller, or with probability 50*(worse by)/total/attempt %;
 *    otherwise undo the last swap;
 *  - pick a buffer ending at the top of its pool, then two of its first/second level earlier
 *    neighbours, and swap their positions; stop at 500 attempts or at the memory pressure.
 * Random numbers come from glibc's rand_r with seed 0, as on Linux (`options.seed` overrides).
 *
 * Unavoidable or deliberate differences from TVM:
 *  - when no buffer can be placed, TVM names the first failing buffer in std::unordered_map
 *    iteration order (pointer hashes); we name the first one in greedy_by_size order.
 *  - an empty buffer list gives an empty plan (TVM fails its "no pool sizes" check).
 *  - the swap partner loop in TVM can spin forever when all second-level neighbours are the
 *    first pick; we give up that attempt after a bounded number of draws.
 *  - pushed offsets are also rounded to the placed buffer's alignment in the pool (its own and
 *    the pool's, see tvmGreedy.ts); identical to TVM when all buffers share an alignment and
 *    pools add none.
 */
import { performance } from 'node:perf_hooks';
import { MemoryPlanningError } from '../../errors';
import { PlanningAlgorithm } from '../types';
import { GlibcRandR } from './glibcRand';
import { alignmentInPool, IndexedPlan, IndexedProblem, indexProblem, poolsExhaustedError, roundUp, toBufferPlan } from './indexed';
import { fitsPool, MAX_CONFLICT_ENTRIES, placesOnSkyline, tvmSizeOrder } from './tvmGreedy';
import { swapInPermutation } from './permutation';

const MAX_ATTEMPTS = 500;
const MAX_PARTNER_DRAWS = 10_000;
/** Buffer not yet seen by this greedy run (absent from TVM's map). */
const ABSENT = -2;
/** Buffer seen but placed in no pool (TVM's NullValue<PoolInfo>()). */
const NO_POOL = -1;

interface GreedyRun extends IndexedPlan {
  readonly couldNotFit: boolean;
}

/**
 * HillClimbAllocator::greedy: first-fit over conflicts sorted by offset. `conflicts`: each
 * buffer's list without repeats (DistinctConflicts): a repeated entry sorts next to itself and
 * changes nothing the second time (the push is a max, a dropped pool stays dropped), so the
 * plan is TVM's, and a list naming one buffer 3M times is not sorted 3M entries long per buffer
 * and attempt.
 */
function hillClimbGreedy(problem: IndexedProblem, order: Int32Array, conflicts: readonly Int32Array[]): GreedyRun {
  const { sizes, alignments, candidates } = problem;
  const nPools = problem.pools.length;
  const pool = new Int32Array(problem.count).fill(ABSENT);
  const offset = new Float64Array(problem.count);
  const present = new Uint8Array(nPools);
  const candidateOffset = new Float64Array(nPools);
  // Placed conflicts sorted by offset; packed as offset * stride + index in one double (exact
  // while below 2^53) so that a native numeric sort does the work.
  const stride = problem.count + 1;
  let maxEnd = 0;
  // A buffer's end is rounded to its own alignment, its start to its alignment in the pool.
  for (let i = 0; i < problem.count; i++) maxEnd += sizes[i] + alignments[i] + Math.max(...candidates[i].map((p) => alignmentInPool(problem, i, p)));
  const packed = maxEnd * stride < Number.MAX_SAFE_INTEGER;
  let maxConflicts = 0;
  for (const c of conflicts) maxConflicts = Math.max(maxConflicts, c.length);
  const keys = new Float64Array(maxConflicts);
  const placed: number[] = [];
  let couldNotFit = false;

  for (const b of order) {
    present.fill(0);
    candidateOffset.fill(0);
    const size = sizes[b];
    for (const p of candidates[b]) {
      if (fitsPool(problem, p, 0, size)) present[p] = 1;
    }
    // Ties in offset cannot change the outcome (the push is a max), so sort stability is moot.
    placed.length = 0;
    if (packed) {
      let m = 0;
      for (const c of conflicts[b]) if (pool[c] !== ABSENT) keys[m++] = offset[c] * stride + c;
      const sorted = keys.subarray(0, m).sort();
      for (let i = 0; i < m; i++) placed.push(sorted[i] % stride);
    } else {
      for (const c of conflicts[b]) if (pool[c] !== ABSENT) placed.push(c);
      placed.sort((x, y) => offset[x] - offset[y]);
    }
    for (const c of placed) {
      const p = pool[c];
      if (p === NO_POOL || !present[p]) continue;
      const next = roundUp(roundUp(offset[c] + sizes[c], alignments[c]), alignmentInPool(problem, b, p));
      if (fitsPool(problem, p, next, size)) {
        if (next > candidateOffset[p] && candidateOffset[p] + size > offset[c]) candidateOffset[p] = next;
      } else {
        present[p] = 0;
      }
    }
    let selected = NO_POOL;
    for (const p of candidates[b]) {
      if (present[p]) {
        selected = p;
        break;
      }
    }
    if (selected === NO_POOL) couldNotFit = true;
    pool[b] = selected;
    offset[b] = selected === NO_POOL ? 0 : candidateOffset[selected];
  }
  return { pool, offset, couldNotFit };
}

/** find_highest: per pool, the highest end address. */
function poolHighWater(problem: IndexedProblem, run: IndexedPlan): Map<number, number> {
  const sizes = new Map<number, number>();
  for (let i = 0; i < problem.count; i++) {
    const p = run.pool[i];
    if (p < 0) continue;
    const end = run.offset[i] + problem.sizes[i];
    if ((sizes.get(p) ?? 0) <= end) sizes.set(p, end);
  }
  return sizes;
}

/**
 * TVM stops with "please increase the size hints" when an attempt placed nothing; the error
 * names the first buffer (in the attempt's order) that found no room, as the other planners do.
 */
function sizeHintsExceeded(problem: IndexedProblem, run: GreedyRun, order: Int32Array): MemoryPlanningError {
  const b = order.find((x) => run.pool[x] < 0) ?? order[0];
  return poolsExhaustedError(problem.buffers[b]);
}

/** A buffer larger than every pool it may use fits in no attempt: reported before the search. */
function checkEachBufferFitsAPool(problem: IndexedProblem): void {
  for (let b = 0; b < problem.count; b++) {
    if (!problem.candidates[b].some((p) => fitsPool(problem, p, 0, problem.sizes[b]))) throw poolsExhaustedError(problem.buffers[b]);
  }
}

/**
 * Each attempt re-places every buffer over its conflict lists, so a large dense set takes
 * minutes (2,000 buffers with 440 conflicts each: about 20 s for the 500 attempts). Without a
 * time budget the attempts stop once they have walked this many conflict entries and buffers
 * in all (about 9 s on this project's machines: that set walks 0.9M per attempt, about 11M a
 * second, and stops after 113 attempts), so the plan depends on the input alone; with a 10 s
 * clock instead, the same input gave other plans on a busy machine. Below it the plan is
 * TVM's. `timeBudgetMs`, when given, is a clock and ends them instead.
 */
export const HILL_CLIMB_MAX_WORK = 100_000_000;
/**
 * What a buffer costs an attempt besides its conflict entries (its greedy placement, the pools'
 * high-water marks, the scan for the top buffers), in conflict entries: measured, an attempt
 * over 50,000 buffers in a chain (100,000 entries) took 86 ms, as long as one over 1M entries.
 * Counted as 1, such sparse sets ran all 500 attempts (41 s). An attempt now counts at least
 * this much per buffer: sparse sets stop after about 9-12 s, sets of about 20 entries a buffer
 * (where both costs count) after at most about 15 s, and the dense sets above (entries well over
 * 20 a buffer) keep their attempts and plans.
 */
const HILL_CLIMB_BUFFER_WORK = 20;

/**
 * Each buffer's conflict list as its distinct entries and how often each is listed. TVM reads
 * the lists as given, repeats counted; the greedy needs only the distinct entries, and the swap
 * partners' lists (PositionMultiset) count each entry as often as it is listed.
 */
interface DistinctConflicts {
  readonly entries: readonly Int32Array[];
  readonly repeats: readonly Int32Array[];
}

function distinctConflicts(conflicts: readonly Int32Array[], count: number): DistinctConflicts {
  const seenAt = new Int32Array(count).fill(-1);
  const entries: Int32Array[] = [];
  const repeats: Int32Array[] = [];
  conflicts.forEach((list, b) => {
    const distinct: number[] = [];
    const times: number[] = [];
    for (const c of list) {
      if (seenAt[c] >= 0 && distinct[seenAt[c]] === c) times[seenAt[c]]++;
      else {
        seenAt[c] = distinct.length;
        distinct.push(c);
        times.push(1);
      }
    }
    // seenAt[c] may point into an earlier buffer's list: `distinct[seenAt[c]] === c` above only
    // holds for this list's own entries, so nothing needs clearing between lists.
    entries.push(Int32Array.from(distinct));
    repeats.push(Int32Array.from(times));
  });
  return { entries, repeats };
}

/**
 * A multiset of placement positions read as the sorted list TVM builds for the swap partners
 * (repeats kept: `at(k)` is that list's k-th entry, `length` its length), without building it.
 * The list holds every listed neighbour as often as it is listed, and the second level every
 * neighbour's neighbours: one buffer listing another 3M times made each attempt sort 3M entries
 * (2 buffers took 19 s of CPU), and 2,000 buffers listing 5,000 names each sorted 25M.
 */
class PositionMultiset {
  private readonly times: Float64Array;
  private readonly held: number[] = [];
  private cumulative = new Float64Array(0);
  length = 0;

  constructor(count: number) {
    this.times = new Float64Array(count);
  }

  add(position: number, times: number): void {
    if (this.times[position] === 0) this.held.push(position);
    this.times[position] += times;
    this.length += times;
  }

  /** Sorts the positions held; call after the last add and before at(). */
  seal(): void {
    this.held.sort((a, b) => a - b);
    if (this.cumulative.length < this.held.length) this.cumulative = new Float64Array(Math.max(this.held.length, 2 * this.cumulative.length));
    let sum = 0;
    for (let i = 0; i < this.held.length; i++) this.cumulative[i] = sum += this.times[this.held[i]];
  }

  /** The k-th position (0-based) of the sorted list with repeats. */
  at(k: number): number {
    let lo = 0;
    let hi = this.held.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > k) hi = mid;
      else lo = mid + 1;
    }
    return this.held[lo];
  }

  clear(): void {
    for (const q of this.held) this.times[q] = 0;
    this.held.length = 0;
    this.length = 0;
  }
}

export function hillClimbPlan(
  problem: IndexedProblem,
  memoryPressure: number,
  seed = 0,
  deadline = Infinity,
  maxAttempts = MAX_ATTEMPTS,
): IndexedPlan {
  const entries = problem.intervals?.entryCount();
  if (entries !== undefined && entries > MAX_CONFLICT_ENTRIES) {
    throw new MemoryPlanningError(
      `hill_climb walks conflict lists, and this buffer set's live ranges make ${entries} conflict entries ` +
        `(limit ${MAX_CONFLICT_ENTRIES}); plan it with ${placesOnSkyline(problem) ? 'auto or greedy_by_size' : 'auto'}`,
    );
  }
  checkEachBufferFitsAPool(problem);
  const rng = new GlibcRandR(seed);
  const { sizes } = problem;
  const distinct = distinctConflicts(problem.conflicts, problem.count);
  const firstLevel = new PositionMultiset(problem.count);
  const secondLevel = new PositionMultiset(problem.count);
  const initialOrder = tvmSizeOrder(problem);
  const order = Int32Array.from(initialOrder);
  const pos = new Int32Array(problem.count);
  order.forEach((b, i) => (pos[b] = i));
  const swapPositions = (i1: number, i2: number): void => swapInPermutation(order, pos, i1, i2);
  const byPos = (a: number, b: number): number => pos[a] - pos[b];

  let totalSize = 0;
  let swapI1 = -1;
  let swapI2 = -1;
  let current: GreedyRun | undefined;
  let result: GreedyRun | undefined;
  for (let attempts = 0; attempts < maxAttempts && (attempts === 0 || performance.now() < deadline); attempts++) {
    const rollback = current;
    const run = hillClimbGreedy(problem, order, distinct.entries);
    current = run;
    let poolSizes = poolHighWater(problem, run);
    if (poolSizes.size === 0) throw sizeHintsExceeded(problem, run, order);
    let total = 0;
    for (const s of poolSizes.values()) total += s;

    const accept =
      totalSize === 0 ||
      (!run.couldNotFit &&
        (totalSize > total ||
          rng.next() % 100 < Math.floor(Math.floor((50 * (total - totalSize)) / total) / attempts)));
    if (accept) {
      result = run;
      if (!run.couldNotFit) {
        totalSize = total;
        if (totalSize <= memoryPressure) break;
      }
    } else {
      swapPositions(swapI2, swapI1);
      current = rollback as GreedyRun;
      poolSizes = poolHighWater(problem, current);
    }

    const top: number[] = [];
    for (let i = 0; i < problem.count; i++) {
      const p = current.pool[i];
      if (p < 0) continue;
      if (poolSizes.get(p) === current.offset[i] + sizes[i]) top.push(i);
    }
    if (top.length === 0) throw sizeHintsExceeded(problem, current, order);
    top.sort(byPos);
    const node = top[rng.next() % top.length];

    // Collected as positions: positions are unique, so the positions in ascending order are the
    // buffers in TVM's comparator's order, duplicates included (each counted as often as listed:
    // a neighbour listed m times contributes its own list m times).
    firstLevel.clear();
    secondLevel.clear();
    const nodePos = pos[node];
    const nodeEntries = distinct.entries[node];
    const nodeRepeats = distinct.repeats[node];
    for (let k = 0; k < nodeEntries.length; k++) {
      const c1 = nodeEntries[k];
      const c1Pos = pos[c1];
      if (nodePos > c1Pos) firstLevel.add(c1Pos, nodeRepeats[k]);
      const entries = distinct.entries[c1];
      const repeats = distinct.repeats[c1];
      for (let j = 0; j < entries.length; j++) if (c1Pos > pos[entries[j]]) secondLevel.add(pos[entries[j]], nodeRepeats[k] * repeats[j]);
    }
    if (firstLevel.length === 0) continue;
    firstLevel.seal();
    secondLevel.seal();

    const swapBuf1 = order[firstLevel.at(rng.next() % firstLevel.length)];
    let swapBuf2 = swapBuf1;
    for (let draws = 0; swapBuf2 === swapBuf1 && draws < MAX_PARTNER_DRAWS; draws++) {
      swapBuf2 =
        secondLevel.length > 0 && (firstLevel.length === 0 || rng.next() % 100 > 25)
          ? order[secondLevel.at(rng.next() % secondLevel.length)]
          : order[firstLevel.at(rng.next() % firstLevel.length)];
      if (secondLevel.length < 2 && firstLevel.length < 2) break;
    }
    if (swapBuf1 === swapBuf2) continue;
    swapI1 = pos[swapBuf1];
    swapI2 = pos[swapBuf2];
    swapPositions(swapI1, swapI2);
  }

  const final = result as GreedyRun;
  for (const b of initialOrder) {
    const p = final.pool[b];
    if (p < 0 || !fitsPool(problem, p, final.offset[b], sizes[b])) throw poolsExhaustedError(problem.buffers[b]);
  }
  return final;
}

/** The attempts hill_climb makes without a time budget: as many as HILL_CLIMB_MAX_WORK allows, 1 to 500. */
export function hillClimbAttempts(problem: IndexedProblem): number {
  const entries = problem.intervals?.entryCount() ?? problem.conflicts.reduce((n, c) => n + c.length, 0);
  const perAttempt = Math.max(problem.count + entries, HILL_CLIMB_BUFFER_WORK * problem.count);
  return Math.max(1, Math.min(MAX_ATTEMPTS, Math.floor(HILL_CLIMB_MAX_WORK / perAttempt)));
}

export const hillClimb: PlanningAlgorithm = (buffers, memoryPressure, options) => {
  if (buffers.length === 0) return new Map();
  const problem = indexProblem(buffers);
  const seed = options?.seed ?? 0;
  if (options?.timeBudgetMs !== undefined) {
    return toBufferPlan(problem, hillClimbPlan(problem, memoryPressure, seed, performance.now() + options.timeBudgetMs));
  }
  return toBufferPlan(problem, hillClimbPlan(problem, memoryPressure, seed, Infinity, hillClimbAttempts(problem)));
};

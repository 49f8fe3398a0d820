/**
 * Multi-pool interval problems (several pools, candidate pools per buffer, size limits).
 *
 * Lower bound: every pool ends at or above the peak of the buffers that can only live in it
 * (one candidate pool, or one the buffer fits in under the size limits), and the pools together
 * at or above the peak of all live bytes; so the total is at least the larger of the sum of
 * those per-pool peaks and the overall peak. (Relaxing which pool a free buffer takes at each
 * time separately, this is the best bound: at a first pool end E, the total is at least
 * E + the others' pinned peak, and at least each time's live bytes.) Both peaks count the
 * alignment padding no plan avoids (stackBound.ts): a pinned pool's with the buffers'
 * alignments in it, the overall one as spread over all the pools.
 *
 * Pool by pool (packPools): once a search has decided which pool holds each buffer, every pool
 * is a one-pool problem of its own (its buffers, their alignments in that pool, their live
 * ranges): an unlimited pool is re-planned by one-pool `auto`, a size-limited one compressed by
 * the exact core within its limit. A smaller packing of one pool leaves every other pool as it
 * was, so the plan stays valid.
 *
 * Pool choices (rebalancePools): at an unlimited pool's peak time a size-limited pool often has
 * room in bytes but not in one piece; a buffer live then moves there, and the free buffers in its
 * way, not live at the peak, move out. Everything runs on counted budgets, never on the clock.
 */
import { intervalsToBufferInfos } from '../conflicts';
import { alignedLivePeak, alignmentInAnyPool } from '../stackBound';
import { IntervalConflicts, timeIndex } from '../intervalConflicts';
import { BufferInfo, BufferPlan } from '../types';
import { ExactCore } from './exactCore';
import { gathered } from './gathered';
import { finishAboveBound } from './coreSteps';
import { alignmentInPool, IndexedPlan, IndexedProblem } from './indexed';

export interface CompressedPools {
  readonly plan: IndexedPlan;
  /** Per pool: its end after compression. */
  readonly ends: Float64Array;
  /** Work units the core spent, over all pools. */
  readonly work: number;
}

/**
 * The least end of pool p holding `members`: their peak of live bytes with the alignment padding
 * no packing avoids (stackBound.ts).
 */
export function poolPeak(problem: IndexedProblem, intervals: IntervalConflicts, p: number, members: readonly number[]): number {
  const alignments = new Float64Array(problem.count);
  for (const b of members) alignments[b] = alignmentInPool(problem, b, p);
  return alignedLivePeak(intervals.first, intervals.last, problem.sizes, alignments, 1, members);
}

/**
 * The problem's conflicts as live-range overlaps, when they are exactly that: a registered
 * interval group, or every buffer with a live range and the listed conflicts (both directions,
 * `adjStart`/`adj` with rows ascending) equal to the overlapping pairs. Undefined otherwise: the
 * core only knows conflicts by live ranges.
 */
export function intervalsOf(problem: IndexedProblem, adjStart: Int32Array, adj: Int32Array): IntervalConflicts | undefined {
  if (problem.intervals) return problem.intervals;
  const first = new Float64Array(problem.count);
  const last = new Float64Array(problem.count);
  for (let b = 0; b < problem.count; b++) {
    const r = problem.buffers[b].liveRange;
    if (!r) return undefined;
    first[b] = r[0];
    last[b] = r[1];
  }
  // A compiled model's workspace buffers conflict exactly where their ranges overlap (the
  // engine's rows were built from those ranges, the same as these): nothing to compare.
  if (problem.compact && problem.compact.classSizes().clique === 0) return problem.compact.rangeIntervals();
  const intervals = new IntervalConflicts(first, last);
  if (intervals.entryCount() !== adj.length) return undefined;
  const rows = intervals.adjacency();
  for (let b = 0; b <= problem.count; b++) if (rows.start[b] !== adjStart[b]) return undefined;
  for (let k = 0; k < adj.length; k++) if (rows.adj[k] !== adj[k]) return undefined;
  return intervals;
}

/** The multi-pool lower bound (see the top of this file). */
export function multiPoolLowerBound(problem: IndexedProblem, intervals: IntervalConflicts): number {
  const pinned: number[][] = problem.pools.map(() => []);
  for (let b = 0; b < problem.count; b++) {
    let only = -1;
    let fits = 0;
    for (const p of problem.candidates[b]) {
      if (problem.sizes[b] > problem.poolLimits[p]) continue;
      fits++;
      only = p;
    }
    if (fits === 1) pinned[only].push(b);
  }
  let sum = 0;
  pinned.forEach((members, p) => {
    if (members.length > 0) sum += poolPeak(problem, intervals, p, members);
  });
  const alignments = Float64Array.from({ length: problem.count }, (_, b) => alignmentInAnyPool(problem.buffers[b]));
  return Math.max(sum, alignedLivePeak(intervals.first, intervals.last, problem.sizes, alignments, problem.pools.length));
}

/**
 * Packs each pool of `placed` (a plan of buffers whose conflicts are `intervals`) tighter, on its
 * own; every other pool is left as it is, so the plan stays valid, and pool choices are not
 * revisited. Pools already at the live peak of their buffers cannot shrink and are skipped.
 *  - A pool without a size limit is re-planned as a one-pool problem by `planPool` (auto itself:
 *    greedy starts, climb, search, exact core), kept when it ends lower.
 *  - A size-limited pool (typically a small SRAM, full, holding most of the buffers) gets the
 *    exact core alone: "do its buffers fit below its current end, never above its limit?",
 *    repeatedly, on `coreBudget` work units.
 * Deterministic: every step runs on counted budgets, never on the clock.
 */
export function packPools(
  problem: IndexedProblem,
  intervals: IntervalConflicts,
  placed: IndexedPlan,
  coreBudget: number,
  planPool?: PoolPlanner,
): CompressedPools {
  const nPools = problem.pools.length;
  const pool = Int32Array.from(placed.pool);
  const offset = Float64Array.from(placed.offset);
  const ends = new Float64Array(nPools);
  const members: number[][] = Array.from({ length: nPools }, () => []);
  for (let b = 0; b < problem.count; b++) {
    members[pool[b]].push(b);
    ends[pool[b]] = Math.max(ends[pool[b]], offset[b] + problem.sizes[b]);
  }
  let work = 0;
  for (let p = 0; p < nPools; p++) {
    const m = members[p];
    if (m.length === 0 || ends[p] <= poolPeak(problem, intervals, p, m)) continue;
    const r =
      planPool && problem.poolLimits[p] === Infinity
        ? replanPool(problem, intervals, p, m, planPool)
        : compressPool(problem, intervals, p, m, ends[p], coreBudget);
    work += r.work;
    if (r.offsets && r.end < ends[p]) {
      m.forEach((b, i) => (offset[b] = r.offsets![i]));
      ends[p] = r.end;
    }
  }
  return { plan: { pool, offset }, ends, work };
}

interface PoolResult {
  /** Offsets of the pool's buffers (in member order), when a packing was found. */
  readonly offsets?: Float64Array;
  readonly end: number;
  readonly work: number;
}

/** The exact core of pool p's buffers `m` (a one-pool problem, in member order). */
export function poolCore(problem: IndexedProblem, intervals: IntervalConflicts, p: number, m: readonly number[]): ExactCore {
  return new ExactCore({
    count: m.length,
    sizes: gathered(problem.sizes, m),
    alignments: Float64Array.from(m, (b) => alignmentInPool(problem, b, p)),
    intervals: intervals.subset(m),
  });
}

/** The exact core on pool p's buffers, at capacities below `end` and within the limit. */
function compressPool(problem: IndexedProblem, intervals: IntervalConflicts, p: number, m: readonly number[], end: number, budget: number): PoolResult {
  const core = poolCore(problem, intervals, p, m);
  let offsets: Float64Array | undefined;
  while (core.work < budget) {
    const r = core.decide(Math.min(end - 1, problem.poolLimits[p]), budget - core.work);
    if (r.kind !== 'fits') break;
    offsets = r.offsets;
    end = r.total;
  }
  return { offsets, end, work: core.work };
}

/** Pool p's buffers planned as a one-pool problem by `planPool`. */
function replanPool(problem: IndexedProblem, intervals: IntervalConflicts, p: number, m: readonly number[], planPool: PoolPlanner): PoolResult {
  const sub = intervalsToBufferInfos(
    m.map((b) => ({
      name: problem.buffers[b].name,
      sizeBytes: problem.sizes[b],
      firstUse: intervals.first[b],
      lastUse: intervals.last[b],
      alignment: problem.alignments[b],
    })),
    [problem.pools[p]],
  );
  const r = planPool(sub, poolPeak(problem, intervals, p, m));
  let end = 0;
  const offsets = Float64Array.from(m, (b, i) => {
    const o = r.plan.get(sub[i].name)!.offset;
    end = Math.max(end, o + problem.sizes[b]);
    return o;
  });
  return { offsets, end, work: r.work };
}

/**
 * The plan `from` with other pool choices (`pool`), repaired rather than packed anew: in each
 * pool the buffers that stay keep their offsets, those moving in are stacked above them, and the
 * pool is pushed down (the holes left by those moving out filled from above) and its top
 * re-solved toward the pool's peak (coreSteps.ts finishAboveBound). A size-limited pool still
 * above its limit is then packed by the core within it; undefined when it does not fit (the
 * choices are then no plan). Size-limited pools first, so that such a miss costs least. `budget`:
 * the core work of all pools together. (A new one-pool call per pool found worse packings at
 * several times the cost: 150-330 ms of a cold plan of the bench's sets with pins.)
 */
export function repackChoices(
  problem: IndexedProblem,
  intervals: IntervalConflicts,
  from: IndexedPlan,
  pool: Int32Array,
  budget: number,
  deadline: number,
): CompressedPools | undefined {
  const nPools = problem.pools.length;
  const offset = new Float64Array(problem.count);
  const ends = new Float64Array(nPools);
  const limitedFirst = Array.from({ length: nPools }, (_, p) => p).sort(
    (x, y) => Number(problem.poolLimits[x] === Infinity) - Number(problem.poolLimits[y] === Infinity) || x - y,
  );
  let work = 0;
  for (const p of limitedFirst) {
    const m: number[] = [];
    for (let b = 0; b < problem.count; b++) if (pool[b] === p) m.push(b);
    if (m.length === 0) continue;
    const core = poolCore(problem, intervals, p, m);
    let plan = core.pushDown(stackedMovedIn(problem, from, p, m));
    const limit = problem.poolLimits[p];
    const peak = poolPeak(problem, intervals, p, m);
    const share = limit === Infinity ? UNLIMITED_FINISH_WORK : LIMITED_FINISH_WORK;
    if (plan.total > peak && work + core.work < budget) {
      plan = finishAboveBound(core, plan.offsets, peak, false, deadline, Math.min(share, budget - work - core.work));
    }
    if (plan.total > limit) {
      const r = core.decide(limit, Math.max(0, budget - work - core.work));
      if (r.kind !== 'fits') return undefined;
      plan = r;
    }
    work += core.work;
    m.forEach((b, i) => (offset[b] = plan.offsets[i]));
    ends[p] = plan.total;
  }
  return { plan: { pool: Int32Array.from(pool), offset }, ends, work };
}

/**
 * Offsets of pool p's members `m` (in member order): `from`'s where the buffer was in p, the
 * others stacked above them (a valid plan of the pool, for pushDown to close up).
 */
function stackedMovedIn(problem: IndexedProblem, from: IndexedPlan, p: number, m: readonly number[]): Float64Array {
  const offsets = new Float64Array(m.length);
  let top = 0;
  m.forEach((b, i) => {
    if (from.pool[b] !== p) return;
    offsets[i] = from.offset[b];
    top = Math.max(top, offsets[i] + problem.sizes[b]);
  });
  m.forEach((b, i) => {
    if (from.pool[b] === p) return;
    const align = alignmentInPool(problem, b, p);
    offsets[i] = Math.ceil(top / align) * align;
    top = offsets[i] + problem.sizes[b];
  });
  return offsets;
}

/**
 * The re-solve of a pool's top after new choices, per pool: a size-limited pool (full, a small
 * SRAM's many buffers) gains little from more (measured on the bench's 25 sets with pins: 2M
 * instead of 1M, mean overhead 0.406% against 0.408%); an unlimited one 3M.
 */
const LIMITED_FINISH_WORK = 1_000_000;
const UNLIMITED_FINISH_WORK = 3_000_000;

/** Plans one pool's buffers as a one-pool problem (auto itself); `work` in its counted units. */
export type PoolPlanner = (buffers: readonly BufferInfo[], lowerBound: number) => { readonly plan: BufferPlan; readonly work: number };

/**
 * Moves buffers out of an unlimited pool's busiest moment into a size-limited pool, making room
 * there by ejecting the free buffers in the way into the unlimited pool (stacked at its top; the
 * pool is re-planned afterwards). A move is taken when it lowers the unlimited pool's live
 * bytes at its peak time without raising its peak; each buffer moves at most once. Counted work.
 */
export function rebalancePools(problem: IndexedProblem, intervals: IntervalConflicts, placed: IndexedPlan, budget: number): { plan: IndexedPlan; moves: number; work: number } {
  const r = new PoolRebalancer(problem, intervals, placed);
  for (let d = 0; d < problem.pools.length; d++) if (problem.poolLimits[d] === Infinity) r.drain(d, budget);
  return { plan: { pool: r.pool, offset: r.offset }, moves: r.moves, work: r.work };
}

/**
 * rebalancePools' state and steps, as small methods: one large function with all its loops took
 * V8 over 200 ms to optimize on stack replacement, longer than the whole pass runs.
 */
class PoolRebalancer {
  readonly pool: Int32Array;
  readonly offset: Float64Array;
  work = 0;
  moves = 0;
  private readonly sizes: Float64Array;
  private readonly ends: Float64Array;
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly start: Int32Array;
  private readonly adj: Int32Array;
  /** Live bytes per time in the unlimited pool being drained. */
  private readonly live: Float64Array;
  /** Buffers that moved (or were ejected) once: they stay where they are. */
  private readonly fixed: Uint8Array;
  private readonly ejected: number[] = [];

  constructor(
    private readonly problem: IndexedProblem,
    intervals: IntervalConflicts,
    placed: IndexedPlan,
  ) {
    this.pool = Int32Array.from(placed.pool);
    this.offset = Float64Array.from(placed.offset);
    this.sizes = problem.sizes;
    this.ends = new Float64Array(problem.pools.length);
    for (let b = 0; b < problem.count; b++) this.ends[this.pool[b]] = Math.max(this.ends[this.pool[b]], this.offset[b] + this.sizes[b]);
    const times = intervals.times();
    this.from = Int32Array.from(intervals.first, (t) => timeIndex(times, t));
    this.to = Int32Array.from(intervals.last, (t) => timeIndex(times, t));
    const rows = intervals.adjacency();
    this.start = rows.start;
    this.adj = rows.adj;
    this.live = new Float64Array(times.length);
    this.fixed = new Uint8Array(problem.count);
  }

  /** Moves buffers out of unlimited pool d's peak, one at a time, while one helps and work is left. */
  drain(d: number, budget: number): void {
    const { live, pool, sizes } = this;
    live.fill(0);
    for (let b = 0; b < this.problem.count; b++) if (pool[b] === d) this.addLive(b, sizes[b]);
    while (this.work < budget) {
      const peakAt = this.peakTime();
      if (!this.moveOneOff(d, peakAt, live[peakAt], budget)) break;
    }
  }

  private addLive(b: number, bytes: number): void {
    for (let s = this.from[b]; s <= this.to[b]; s++) this.live[s] += bytes;
  }

  /** The first time with the most live bytes. */
  private peakTime(): number {
    const { live } = this;
    let peakAt = 0;
    for (let s = 1; s < live.length; s++) if (live[s] > live[peakAt]) peakAt = s;
    this.work += live.length;
    return peakAt;
  }

  /** The drained pool's peak of live bytes. */
  private drainedPeak(): number {
    let peak = 0;
    for (let s = 0; s < this.live.length; s++) if (this.live[s] > peak) peak = this.live[s];
    this.work += this.live.length;
    return peak;
  }

  /** Free buffers of pool d live at peakAt, largest first (ties by index). */
  private movableAt(d: number, peakAt: number): number[] {
    const { problem, pool, fixed, from, to, sizes } = this;
    const movable: number[] = [];
    for (let b = 0; b < problem.count; b++) {
      if (pool[b] === d && !fixed[b] && from[b] <= peakAt && peakAt <= to[b] && problem.candidates[b].length > 1) movable.push(b);
    }
    this.work += problem.count;
    return movable.sort((x, y) => sizes[y] - sizes[x] || x - y);
  }

  /**
   * Takes the first move of a buffer live at d's peak that does not raise that peak. The budget
   * is checked per buffer tried: a search for one move scans a row per candidate slot, and on
   * a fuzzed set of 1,456 buffers all live at once (rows of 1,455, a slot per neighbour) one
   * search ran 0.35 s past a budget of 5M units.
   */
  private moveOneOff(d: number, peakAt: number, peak: number, budget: number): boolean {
    const { problem } = this;
    for (const b of this.movableAt(d, peakAt)) {
      if (this.work >= budget) return false;
      for (const q of problem.candidates[b]) {
        if (q === d || problem.poolLimits[q] === Infinity) continue;
        const at = this.bestSlot(b, q, d, peakAt);
        if (at >= 0 && this.tryMove(b, q, d, at, peak)) return true;
      }
    }
    return false;
  }

  /**
   * The canonical offset in pool q (0, or a neighbour's aligned end) where b fits below q's top
   * with the fewest bytes in its way, each of them free to leave for d and not live at the peak;
   * -1 when there is none.
   */
  private bestSlot(b: number, q: number, d: number, peakAt: number): number {
    const { problem, pool, offset, sizes, start, adj } = this;
    const align = alignmentInPool(problem, b, q);
    const top = Math.min(this.ends[q], problem.poolLimits[q]);
    let bestAt = -1;
    let bestBytes = Infinity;
    const cands = [0];
    for (let k = start[b]; k < start[b + 1]; k++) {
      const j = adj[k];
      if (pool[j] === q) cands.push(Math.ceil((offset[j] + sizes[j]) / align) * align);
    }
    for (const at of cands) {
      if (at + sizes[b] > top) continue;
      const bytes = this.bytesInTheWay(b, q, d, peakAt, at);
      this.work += start[b + 1] - start[b];
      if (bytes < bestBytes) {
        bestBytes = bytes;
        bestAt = at;
      }
    }
    return bestAt;
  }

  /** Bytes of b's neighbours in pool q overlapping [at, at + size), or Infinity when one may not leave. */
  private bytesInTheWay(b: number, q: number, d: number, peakAt: number, at: number): number {
    const { problem, pool, offset, sizes, start, adj, fixed, from, to } = this;
    const end = at + sizes[b];
    let bytes = 0;
    for (let k = start[b]; k < start[b + 1]; k++) {
      const j = adj[k];
      if (pool[j] !== q || offset[j] >= end || offset[j] + sizes[j] <= at) continue;
      // In the way: it must be free to leave, and not live at the peak (it would add there).
      if (fixed[j] || !problem.candidates[j].includes(d) || (from[j] <= peakAt && peakAt <= to[j])) return Infinity;
      bytes += sizes[j];
    }
    return bytes;
  }

  /**
   * Moves b to `at` in pool q and what is in its way to the top of pool d, unless that would
   * raise d's peak above `peak`.
   */
  private tryMove(b: number, q: number, d: number, at: number, peak: number): boolean {
    const { problem, pool, offset, sizes, start, adj, ejected } = this;
    ejected.length = 0;
    for (let k = start[b]; k < start[b + 1]; k++) {
      const j = adj[k];
      if (pool[j] === q && offset[j] < at + sizes[b] && offset[j] + sizes[j] > at) ejected.push(j);
    }
    this.addLive(b, -sizes[b]);
    for (const j of ejected) this.addLive(j, sizes[j]);
    if (this.drainedPeak() > peak) {
      this.addLive(b, sizes[b]);
      for (const j of ejected) this.addLive(j, -sizes[j]);
      return false;
    }
    pool[b] = q;
    offset[b] = at;
    this.fixed[b] = 1;
    for (const j of ejected) {
      // Stacked on top of the unlimited pool: valid at once; the re-plan packs it.
      const a = alignmentInPool(problem, j, d);
      const o = Math.ceil(this.ends[d] / a) * a;
      pool[j] = d;
      offset[j] = o;
      this.ends[d] = o + sizes[j];
      this.fixed[j] = 1;
    }
    this.moves++;
    return true;
  }
}

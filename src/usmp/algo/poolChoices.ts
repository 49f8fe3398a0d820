/**
 * The last resort's complete form for sets with live ranges and several pools: a depth-first
 * search over every buffer's choice of pool, each size-limited pool's buffers then decided by
 * the exact core at the pool's limit. The order search of withinLimits.ts chooses pools too,
 * but its branches follow first-fit placements, and on a set whose only fits are exact (fuzzed:
 * 13 buffers in two pools, one of 2^40 bytes in a pool 69 bytes larger) it needed ten times its
 * budget; the core decides each pool's packing in a few hundred units.
 *
 * An odometer over every choice (up to 4,096) missed fuzzed sets of 20-80 buffers in two or
 * three pools, every one limited to what `auto` plans without a limit: the choices are many
 * more, and almost all of them put more live bytes in some pool than it holds. So the search
 * assigns the largest buffers first, each to the pool with the most room left over its range,
 * refuses a pool whose live bytes would pass its limit at any time in the buffer's range (a
 * necessary condition, cheap to keep), and asks the core only once every buffer has its pool.
 * A pool whose buffers the core refuses is remembered: no later choice puts those buffers (or
 * more) in that pool again. A dead end goes back to the last buffer that caused it (the pool's
 * buffers live where it overflowed, or the refused set's), not to the last buffer assigned:
 * conflict-directed backjumping, as SAT and constraint solvers do. Without it a fuzzed set of
 * 80 buffers in three pools spent the whole budget below a wrong early choice.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';
import { IndexedProblem, roundUp } from './indexed';
import { poolCore, poolPeak } from './multiPool';
import { fitWithin } from './coreSteps';

/**
 * Work one core decision may take at most: a pool the core cannot settle in this is given up
 * on (remembered as refused), so one hard pool does not take the whole budget from the others.
 */
const DECISION_WORK = 1_000_000;
/**
 * The share of it the core's greedy dives take before its decision (fitWithin): a pool filled
 * to its limit by live bytes, as the search's choices leave it, was decided on none of twenty
 * fuzzed choices in 1M units each, where a dive fits.
 */
const DIVES_SHARE = 0.25;
/**
 * Choices the core may fail to pack before the search gives up. Where the search found pools
 * on fuzzed sets, it met at most one such choice (and many refused by live bytes, which cost
 * little); where it did not, twenty or more, each taking DECISION_WORK: on a 500-buffer set
 * with two pools that the plan with a limit lifted then fitted, 0.4 s.
 */
const MAX_UNPACKED = 4;

/**
 * Buffers above which the search does not start: its blame is a bit set over depths per depth,
 * n^2 / 8 bytes (12.5 MB at this count, over a gigabyte at 100,000). Below it the search is
 * worth its budget even on large sets: one of the bench's 2,000-buffer sets with pins, every
 * pool limited to its size in auto's plan, gets its pools here.
 */
const MAX_BUFFERS = 10_000;

/** Per buffer, the pool of a choice in which every size-limited pool fits its limit. */
export function exactPoolChoices(problem: IndexedProblem, intervals: IntervalConflicts, budget: number): Int32Array | undefined {
  if (problem.count > MAX_BUFFERS) return undefined;
  const { sizes, candidates, poolLimits } = problem;
  const options = candidates.map((cs, b) => [...new Set(cs)].filter((p) => sizes[b] <= poolLimits[p]));
  if (options.some((o) => o.length === 0)) return undefined;
  return new PoolChoiceSearch(problem, intervals, options, budget).run();
}

/** A set of buffers the core refused in one pool, as a bit set over buffers. */
interface Refused {
  readonly bits: Uint32Array;
  readonly members: readonly number[];
}

class PoolChoiceSearch {
  private readonly n: number;
  private readonly poolCount: number;
  /** Per buffer, its range on the compressed time axis. */
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  private readonly times: number;
  /**
   * Live bytes per pool and time (pool p's row starts at p * times), each size rounded up to
   * the pool's alignment: every offset in the pool is a multiple of it, so the buffers under the
   * top one take their rounded sizes, and the rounded sum can pass the limit by less than one
   * alignment only (`room`).
   */
  private readonly live: Float64Array;
  private readonly room: Float64Array;
  private readonly poolAlignment: Float64Array;
  /** The assigned pool per buffer, -1 while unassigned. */
  private readonly pool: Int32Array;
  /** Per pool, the bit set of the buffers assigned to it. */
  private readonly memberBits: Uint32Array[];
  private readonly words: number;
  /** Per pool and buffer, the refused sets of that pool holding the buffer. */
  private readonly refusedWith: Refused[][][];
  /** The search order: buffers with one option first, then the largest. */
  private readonly order: Int32Array;
  private readonly depthOf: Int32Array;
  /** Per depth, its options in the order tried (set on arriving at the depth). */
  private readonly ranked: number[][] = [];
  /** Per depth, the bit set of the earlier depths whose choices its dead ends came from. */
  private readonly blamed: Uint32Array[];
  private readonly depthWords: number;
  private work = 0;
  /** Choices whose limited pools by live bytes fitted, and the core did not pack. */
  private unpacked = 0;

  constructor(
    private readonly problem: IndexedProblem,
    private readonly intervals: IntervalConflicts,
    private readonly options: readonly (readonly number[])[],
    private readonly budget: number,
  ) {
    this.n = problem.count;
    this.poolCount = problem.pools.length;
    const times = intervals.times();
    this.times = times.length;
    this.from = Int32Array.from(intervals.first, (t) => timeIndex(times, t));
    this.to = Int32Array.from(intervals.last, (t) => timeIndex(times, t));
    this.live = new Float64Array(this.poolCount * this.times);
    this.poolAlignment = Float64Array.from(problem.pools, (q) => Math.max(1, q.alignment || 1));
    this.room = Float64Array.from(problem.poolLimits, (limit, p) => roundUp(limit, this.poolAlignment[p]));
    this.pool = new Int32Array(this.n).fill(-1);
    this.words = (this.n + 31) >>> 5;
    this.memberBits = problem.pools.map(() => new Uint32Array(this.words));
    this.refusedWith = problem.pools.map(() => Array.from({ length: this.n }, () => [] as Refused[]));
    this.depthWords = this.words;
    this.blamed = Array.from({ length: this.n }, () => new Uint32Array(this.depthWords));
    const { sizes } = problem;
    const byRange = (b: number) => sizes[b] * (this.to[b] - this.from[b] + 1);
    this.order = Int32Array.from(
      Array.from({ length: this.n }, (_, b) => b).sort(
        (a, b) => Number(options[a].length > 1) - Number(options[b].length > 1) || sizes[b] - sizes[a] || byRange(b) - byRange(a) || a - b,
      ),
    );
    this.depthOf = new Int32Array(this.n);
    this.order.forEach((b, d) => (this.depthOf[b] = d));
  }

  run(): Int32Array | undefined {
    const { n, order } = this;
    // Per depth, the next of its ranked options to try.
    const next = new Int32Array(n + 1);
    let d = 0;
    while (this.work < this.budget) {
      if (d === n) {
        const refused = this.refusedPool();
        if (refused === undefined) return Int32Array.from(this.pool);
        if (this.unpacked >= MAX_UNPACKED) return undefined;
        // Every choice that keeps the refused buffers where they are keeps the set together.
        const culprits = new Uint32Array(this.depthWords);
        for (const b of refused.members) setBit(culprits, this.depthOf[b]);
        // The deepest culprit's own choice is among those to move: its options go on.
        d = this.jumpBack(culprits, n, next);
        if (d < 0) return undefined;
        continue;
      }
      const b = order[d];
      if (next[d] === 0) this.rank(b, d);
      let assigned = false;
      while (next[d] < this.ranked[d].length) {
        const p = this.ranked[d][next[d]++];
        if (this.fits(b, p, d)) {
          this.assign(b, p);
          assigned = true;
          break;
        }
      }
      if (assigned) {
        d++;
        if (d < n) {
          next[d] = 0;
          this.blamed[d].fill(0);
        }
        continue;
      }
      d = this.jumpBack(this.blamed[d], d, next);
      if (d < 0) return undefined;
    }
    return undefined;
  }

  /**
   * From a dead end below depth d (`blame`: the depths above it whose choices caused it; d = n
   * for a refused set once every buffer has its pool): back to the deepest blamed depth, handing
   * it the rest of the blame, every choice from it on undone; -1 when nothing is blamed (no
   * choice of pools fits).
   */
  private jumpBack(blame: Uint32Array, d: number, next: Int32Array): number {
    let to = -1;
    for (let k = d - 1; k >= 0 && to < 0; k--) if (hasBit(blame, k)) to = k;
    this.work += this.depthWords;
    if (to < 0) return -1;
    const into = this.blamed[to];
    for (let w = 0; w < this.depthWords; w++) into[w] |= blame[w];
    clearBit(into, to);
    for (let k = Math.min(d, this.n - 1); k >= to; k--) {
      if (this.pool[this.order[k]] >= 0) this.unassign(this.order[k]);
      if (k > to) next[k] = 0;
    }
    return to;
  }

  /** b's options at depth d, the pool with the most room left over b's range first. */
  private rank(b: number, d: number): void {
    const room = (p: number): number => {
      if (this.problem.poolLimits[p] === Infinity) return Infinity;
      let peak = 0;
      const row = p * this.times;
      for (let t = this.from[b]; t <= this.to[b]; t++) peak = Math.max(peak, this.live[row + t]);
      this.work += this.to[b] - this.from[b] + 1;
      return this.room[p] - peak;
    };
    const rooms = this.options[b].map((p) => [p, room(p)] as const);
    this.ranked[d] = rooms.sort((x, y) => y[1] - x[1]).map(([p]) => p);
  }

  /**
   * Whether b fits pool p by live bytes at every time of its range, and puts no refused set
   * back together; where not, the depths that made it so are blamed at depth d.
   */
  private fits(b: number, p: number, d: number): boolean {
    if (this.problem.poolLimits[p] === Infinity) return true;
    const size = this.rounded(b, p);
    const row = p * this.times;
    this.work += this.to[b] - this.from[b] + 1;
    for (let t = this.from[b]; t <= this.to[b]; t++) {
      if (this.live[row + t] + size <= this.room[p]) continue;
      // The pool's buffers live at t: moving any of them (or b) frees it.
      this.work += this.n;
      for (let o = 0; o < this.n; o++) if (this.pool[o] === p && this.from[o] <= t && t <= this.to[o]) setBit(this.blamed[d], this.depthOf[o]);
      return false;
    }
    const bits = this.memberBits[p];
    const word = b >>> 5;
    const bit = 1 << (b & 31);
    for (const refused of this.refusedWith[p][b]) {
      this.work += this.words;
      let contained = true;
      for (let w = 0; w < this.words && contained; w++) {
        const have = w === word ? bits[w] | bit : bits[w];
        contained = (refused.bits[w] & ~have) === 0;
      }
      if (!contained) continue;
      for (const o of refused.members) if (o !== b) setBit(this.blamed[d], this.depthOf[o]);
      return false;
    }
    return true;
  }

  private rounded(b: number, p: number): number {
    return roundUp(this.problem.sizes[b], this.poolAlignment[p]);
  }

  private assign(b: number, p: number): void {
    this.pool[b] = p;
    this.memberBits[p][b >>> 5] |= 1 << (b & 31);
    this.addLive(b, p, this.rounded(b, p));
  }

  private unassign(b: number): void {
    const p = this.pool[b];
    this.pool[b] = -1;
    this.memberBits[p][b >>> 5] &= ~(1 << (b & 31));
    this.addLive(b, p, -this.rounded(b, p));
  }

  private addLive(b: number, p: number, bytes: number): void {
    const row = p * this.times;
    // A backjump undoes many choices at once: each undone range counts.
    this.work += this.to[b] - this.from[b] + 1;
    for (let t = this.from[b]; t <= this.to[b]; t++) this.live[row + t] += bytes;
  }

  /**
   * With every buffer assigned: the first size-limited pool whose buffers do not fit its limit
   * (by their aligned live peak, or the core's decision), remembered as refused; undefined when
   * every one fits.
   */
  private refusedPool(): Refused | undefined {
    const { problem } = this;
    for (let p = 0; p < this.poolCount; p++) {
      const limit = problem.poolLimits[p];
      if (limit === Infinity) continue;
      const members: number[] = [];
      for (let b = 0; b < this.n; b++) if (this.pool[b] === p) members.push(b);
      this.work += this.n;
      if (members.length === 0) continue;
      let fits = poolPeak(problem, this.intervals, p, members) <= limit;
      if (fits) {
        const core = poolCore(problem, this.intervals, p, members);
        const work = Math.min(DECISION_WORK, Math.max(0, this.budget - this.work));
        fits = fitWithin(core, limit, work * DIVES_SHARE, work * (1 - DIVES_SHARE)) !== undefined;
        this.work += core.work;
        if (!fits) this.unpacked++;
      }
      if (fits) continue;
      const refused: Refused = { bits: Uint32Array.from(this.memberBits[p]), members };
      for (const b of members) this.refusedWith[p][b].push(refused);
      return refused;
    }
    return undefined;
  }
}

function setBit(bits: Uint32Array, k: number): void {
  bits[k >>> 5] |= 1 << (k & 31);
}

function clearBit(bits: Uint32Array, k: number): void {
  bits[k >>> 5] &= ~(1 << (k & 31));
}

function hasBit(bits: Uint32Array, k: number): boolean {
  return (bits[k >>> 5] & (1 << (k & 31))) !== 0;
}

/**
 * Pool choices by live bytes alone, for multi-pool interval sets (auto.ts, pool by pool).
 *
 * A plan's total is the sum of its pools' ends, and a pool packed well ends at its own peak of
 * live bytes; the sum of the pools' peaks reaches the lower bound (the peak of all live bytes)
 * only when the pools peak at moments where the others are as full as they get. Measured on
 * the bench's sets with pins (a third of the bound in a size-limited SRAM), each pool of the
 * plans `auto` made was packed within 0.1% of its own peak, but the peaks summed to up to 0.9%
 * above the bound: the pool choices were the loss, not the packing.
 *
 * So the choices are searched on their own, as sums of peaks: a free buffer (one with several
 * candidate pools) live at a pool's busiest moment moves to another of its pools where it stays
 * within that pool's size limit, and the move is kept when the sum of the pools' peaks does not
 * grow and neither do the moments at those peaks (a plateau shrinks before its peak drops).
 * Profiles are kept in segment trees over the distinct times; the work (time points touched) is
 * counted, so the result does not depend on the clock.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';
import { IndexedProblem } from './indexed';
import { seededRandom } from './seededRandom';

/**
 * Per pool, live bytes over time: range additions, the peak, how many moments are at it, one of
 * them. Leaves hold the values; a range addition repairs the nodes above it a level at a time
 * (about twice the range plus the height: lifetimes are short next to the time line), as the
 * exact core's MaxTree does.
 */
class PeakProfile {
  private readonly size: number;
  private readonly max: Float64Array;
  private readonly count: Int32Array;

  constructor(times: number) {
    let size = 1;
    while (size < times) size *= 2;
    this.size = size;
    this.max = new Float64Array(2 * size).fill(-Infinity);
    this.count = new Int32Array(2 * size);
    // Padding leaves never peak: a profile's values are never negative.
    for (let i = 0; i < times; i++) {
      this.max[size + i] = 0;
      this.count[size + i] = 1;
    }
    for (let i = size - 1; i >= 1; i--) this.pull(i);
  }

  get peak(): number {
    return this.max[1];
  }

  /** Moments at the peak. */
  get atPeak(): number {
    return this.count[1];
  }

  /** Adds `delta` at times lo..hi; returns the nodes touched (the work). */
  add(lo: number, hi: number, delta: number): number {
    const { size, max } = this;
    for (let i = lo; i <= hi; i++) max[size + i] += delta;
    let work = hi - lo + 1;
    for (let l = (lo + size) >> 1, r = (hi + size) >> 1; l >= 1; l >>= 1, r >>= 1) {
      for (let k = l; k <= r; k++) this.pull(k);
      work += r - l + 1;
    }
    return work;
  }

  /** The most live bytes at times lo..hi. */
  rangeMax(lo: number, hi: number): number {
    const { max } = this;
    let m = -Infinity;
    for (let l = lo + this.size, r = hi + this.size + 1; l < r; l >>= 1, r >>= 1) {
      if (l & 1) m = Math.max(m, max[l++]);
      if (r & 1) m = Math.max(m, max[--r]);
    }
    return m;
  }

  /** The k-th moment (0-based, in time order) at the peak. */
  peakMoment(k: number): number {
    const { max, count } = this;
    const peak = max[1];
    let node = 1;
    while (node < this.size) {
      const left = 2 * node;
      const leftPeak = max[left] === peak ? count[left] : 0;
      if (k < leftPeak) node = left;
      else {
        k -= leftPeak;
        node = left + 1;
      }
    }
    return node - this.size;
  }

  private pull(i: number): void {
    const { max, count } = this;
    const l = 2 * i;
    const m = Math.max(max[l], max[l + 1]);
    max[i] = m;
    count[i] = (max[l] === m ? count[l] : 0) + (max[l + 1] === m ? count[l + 1] : 0);
  }
}

export interface ProfileSplit {
  /** Each buffer's pool. */
  readonly pool: Int32Array;
  /** The sum of the pools' peaks of live bytes with those choices. */
  readonly peaks: number;
  /** Moves kept, sideways ones (the same sum of peaks) included: 0 means the choices of `start`. */
  readonly moves: number;
  readonly work: number;
}

/** Tries per kept move before the search gives up on a stuck state. */
const MAX_FAILED_TRIES = 4_000;

/**
 * Moves free buffers between pools from `start` (a plan's choices, each within the buffer's
 * candidates and its pool's limit) to lower the sum of the pools' peaks, within `budget` work.
 * A move must keep its target pool within `limits`. `floors`: a pool counts at least its floor
 * (a pool whose packing will not go below its present end, however its peak falls).
 */
export function splitByProfiles(problem: IndexedProblem, intervals: IntervalConflicts, start: Int32Array, budget: number, seed: number, limits: Float64Array = problem.poolLimits, floors?: Float64Array): ProfileSplit {
  const n = problem.count;
  const nPools = problem.pools.length;
  const times = intervals.times();
  const from = Int32Array.from(intervals.first, (t) => timeIndex(times, t));
  const to = Int32Array.from(intervals.last, (t) => timeIndex(times, t));
  const pool = Int32Array.from(start);
  const profiles = Array.from({ length: nPools }, () => new PeakProfile(times.length));
  let work = n;
  for (let b = 0; b < n; b++) work += profiles[pool[b]].add(from[b], to[b], problem.sizes[b]);
  // Free buffers live at each moment (those at a pool's peak are the ones that can lower it).
  const liveStart = new Int32Array(times.length + 1);
  for (let b = 0; b < n; b++) if (problem.candidates[b].length > 1) for (let t = from[b]; t <= to[b]; t++) liveStart[t + 1]++;
  for (let t = 0; t < times.length; t++) liveStart[t + 1] += liveStart[t];
  const live = new Int32Array(liveStart[times.length]);
  const fill = liveStart.slice(0, times.length);
  for (let b = 0; b < n; b++) if (problem.candidates[b].length > 1) for (let t = from[b]; t <= to[b]; t++) live[fill[t]++] = b;
  work += live.length;

  const sumOfPeaks = () => profiles.reduce((s, p, i) => s + Math.max(p.peak, floors ? floors[i] : 0), 0);
  const atPeaks = () => profiles.reduce((s, p) => s + p.atPeak, 0);
  let peaks = sumOfPeaks();
  let plateau = atPeaks();
  const random = seededRandom(seed);
  let moves = 0;
  let failed = 0;
  while (work < budget && failed < MAX_FAILED_TRIES) {
    failed++;
    work += nPools;
    const p = Math.floor(random() * nPools);
    const prof = profiles[p];
    if (prof.atPeak === 0 || prof.peak <= 0) continue;
    const t = prof.peakMoment(Math.floor(random() * prof.atPeak));
    const here: number[] = [];
    for (let k = liveStart[t]; k < liveStart[t + 1]; k++) if (pool[live[k]] === p) here.push(live[k]);
    work += liveStart[t + 1] - liveStart[t];
    if (here.length === 0) continue;
    const b = here[Math.floor(random() * here.length)];
    const others = problem.candidates[b].filter((q) => q !== p);
    const q = others[Math.floor(random() * others.length)];
    const size = problem.sizes[b];
    const target = profiles[q];
    work += 2 * Math.ceil(Math.log2(times.length + 1));
    if (target.rangeMax(from[b], to[b]) + size > limits[q]) continue;
    work += prof.add(from[b], to[b], -size) + target.add(from[b], to[b], size);
    const nextPeaks = sumOfPeaks();
    const nextPlateau = atPeaks();
    if (nextPeaks < peaks || (nextPeaks === peaks && nextPlateau <= plateau)) {
      if (nextPeaks < peaks || nextPlateau < plateau) failed = 0;
      pool[b] = q;
      peaks = nextPeaks;
      plateau = nextPlateau;
      moves++;
    } else {
      work += prof.add(from[b], to[b], size) + target.add(from[b], to[b], -size);
    }
  }
  return { pool, peaks, moves, work };
}

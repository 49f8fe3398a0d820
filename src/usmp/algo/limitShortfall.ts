/**
 * A proof, found before any search, that no plan fits the pools' size limits. A buffer whose
 * every candidate pool it fits in is size-limited can only go in those pools; take a set S of
 * limited pools and the buffers that can only go in pools of S: at every moment the ones live
 * then sit side by side in S (their live ranges overlap, so they conflict), and their bytes
 * cannot pass the limits of S added up. Where they do at some moment, no planner can place them,
 * and `auto` says so at once with where and by how much: its searches and rescues spent seconds
 * before reporting such a set's pools exhausted (10,000 buffers, a 200,000-byte SRAM that 3,000
 * buffers pinned to it need three times over: 5.9 s), naming one buffer and not why.
 *
 * Only where the conflicts are the live-range overlaps (`intervals`): a buffer listed apart from
 * fewer than those it overlaps can share their bytes, and the sum proves nothing.
 */
import { IntervalConflicts } from '../intervalConflicts';
import { IndexedProblem } from './indexed';

/** Sets S are enumerated in full up to this many limited pools (2^10 - 1 of them, one pass each). */
const ALL_SUBSETS_UP_TO = 10;
/** Limited pools a bit set of a 32-bit integer holds (as a positive number); above, no check. */
const MAX_LIMITED_POOLS = 30;
/**
 * Event reads the check may spend (one pass over the restricted buffers' events per set S):
 * with many limited pools the buffers' own sets can number as many as the buffers, and a pass
 * each over 100,000 buffers would take minutes. Past it, the sets with the fewest pools, then all
 * of them.
 */
const MAX_EVENT_READS = 50_000_000;

export interface LimitShortfall {
  /** The pools of S, by index. */
  readonly pools: readonly number[];
  /** The moment (a live-range index) where those buffers' bytes are the most, above the limits. */
  readonly time: number;
  /** Bytes of the buffers that can only go in S live at that moment: the least limits that could hold them. */
  readonly bytes: number;
  /** The limits of S added up. */
  readonly limit: number;
  /** How many buffers those bytes are. */
  readonly buffers: number;
  /** The largest of them, by index. */
  readonly largest: number;
}

export function limitShortfall(problem: IndexedProblem, intervals: IntervalConflicts): LimitShortfall | undefined {
  const limited = problem.pools.map((_, p) => p).filter((p) => Number.isFinite(problem.poolLimits[p]));
  if (limited.length === 0 || limited.length > MAX_LIMITED_POOLS) return undefined;
  const bit = new Int32Array(problem.pools.length);
  limited.forEach((p, k) => (bit[p] = 1 << k));
  const masks = restrictedMasks(problem, bit);
  const events = eventOrder(intervals, masks);
  if (events.length === 0) return undefined;
  const sets = subsetsToCheck(masks, limited.length);
  const affordable = Math.max(1, Math.floor(MAX_EVENT_READS / events.length));
  // The last set is every limited pool (the most pools): kept when the others are cut.
  const checked = sets.length <= affordable ? sets : [...sets.slice(0, affordable - 1), sets[sets.length - 1]];
  for (const set of checked) {
    const limit = limited.reduce((sum, p, k) => (set & (1 << k) ? sum + problem.poolLimits[p] : sum), 0);
    const over = peakOverLimit(problem, intervals, masks, events, set, limit);
    if (over === undefined) continue;
    return { pools: limited.filter((_, k) => set & (1 << k)), limit, ...liveAt(problem, intervals, masks, set, over) };
  }
  return undefined;
}

/**
 * Per buffer, the bit set of the limited pools it can go in (those of its candidates it fits
 * in), or 0 where it can go in a pool without a limit (or fits none: reported elsewhere).
 */
function restrictedMasks(problem: IndexedProblem, bit: Int32Array): Int32Array {
  const masks = new Int32Array(problem.count);
  for (let b = 0; b < problem.count; b++) {
    let mask = 0;
    for (const p of problem.candidates[b]) {
      const limit = problem.poolLimits[p];
      if (limit === Infinity) {
        mask = 0;
        break;
      }
      if (problem.sizes[b] <= limit) mask |= bit[p];
    }
    masks[b] = mask;
  }
  return masks;
}

/**
 * The restricted buffers' starts and ends in time order, an end before a start at the same
 * moment (a range [first, last] ends at last + 1): event e is buffer e >> 1, its end when odd.
 */
function eventOrder(intervals: IntervalConflicts, masks: Int32Array): Int32Array {
  const ids: number[] = [];
  for (let b = 0; b < masks.length; b++) if (masks[b] !== 0) ids.push(2 * b, 2 * b + 1);
  const time = (e: number) => (e & 1 ? intervals.last[e >> 1] + 1 : intervals.first[e >> 1]);
  // Ends (odd) first at equal times.
  return Int32Array.from(ids).sort((a, b) => time(a) - time(b) || (b & 1) - (a & 1));
}

/**
 * Every nonempty set of limited pools when there are few, else the buffers' own sets and all of
 * them; fewest pools first, so the proof names the fewest.
 */
function subsetsToCheck(masks: Int32Array, limitedCount: number): number[] {
  const full = (1 << limitedCount) - 1;
  const sets = new Set<number>();
  if (limitedCount <= ALL_SUBSETS_UP_TO) for (let s = 1; s <= full; s++) sets.add(s);
  else for (const m of masks) if (m !== 0) sets.add(m);
  sets.add(full);
  return [...sets].sort((a, b) => bitCount(a) - bitCount(b) || a - b);
}

function bitCount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

/**
 * The moment the buffers that can only go in `set` have the most bytes live, where that is above
 * `limit` (the first such moment): the user learns the least limit that could hold them.
 */
function peakOverLimit(problem: IndexedProblem, intervals: IntervalConflicts, masks: Int32Array, events: Int32Array, set: number, limit: number): number | undefined {
  let live = 0;
  let peak = limit;
  let at: number | undefined;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const b = e >> 1;
    if ((masks[b] & ~set) !== 0) continue;
    if (e & 1) {
      live -= problem.sizes[b];
      continue;
    }
    live += problem.sizes[b];
    if (live > peak) {
      peak = live;
      at = intervals.first[b];
    }
  }
  return at;
}

function liveAt(problem: IndexedProblem, intervals: IntervalConflicts, masks: Int32Array, set: number, time: number) {
  let bytes = 0;
  let buffers = 0;
  let largest = -1;
  for (let b = 0; b < problem.count; b++) {
    if (masks[b] === 0 || (masks[b] & ~set) !== 0 || intervals.first[b] > time || intervals.last[b] < time) continue;
    bytes += problem.sizes[b];
    buffers++;
    if (largest < 0 || problem.sizes[b] > problem.sizes[largest]) largest = b;
  }
  return { time, bytes, buffers, largest };
}

/** The proof as the planner reports it: TVM's overflow message, the largest buffer, then why. */
export function describeShortfall(problem: IndexedProblem, s: LimitShortfall): string {
  const names = s.pools.map((p) => problem.pools[p].name);
  const where = names.length === 1 ? `pool ${names[0]}` : `pools ${names.join(', ')}`;
  const limit = names.length === 1 ? `its limit of ${s.limit} bytes` : `their limits' sum of ${s.limit} bytes`;
  return (
    `the ${s.buffers} buffer(s) that can only go in ${where} are live together at step ${s.time} of the live ranges ` +
    `with ${s.bytes} bytes, above ${limit}, so no plan fits them`
  );
}

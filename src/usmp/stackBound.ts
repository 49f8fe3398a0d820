/**
 * Lower bounds that count alignment padding. Buffers live at the same moment conflict pairwise,
 * so in one pool they form a stack, and every buffer but the top one is followed by padding up
 * to the next one's alignment. The plain bound (peak of live bytes) ignores that padding, so on
 * sets whose sizes are not multiples of their alignment (a 490-byte int8 tensor in a 16-aligned
 * pool) no plan could reach it: no plan was ever "proven optimal" there, and the exact core
 * spent its budget proving a bound no plan meets.
 *
 * The least height of one stack:
 *  - up to STACK_EXACT_UP_TO buffers, exactly, over every order (dynamic programming over
 *    subsets: the last buffer sits at the least height of the others rounded up to its
 *    alignment, which only grows with that height, so the least height of each subset is all
 *    the recursion needs);
 *  - above that, every offset is a multiple of g, the gcd of the alignments, so every buffer
 *    below the top one takes its size rounded up to g: the sum of those, minus the largest
 *    rounding (the top one's, at best). Exact when every alignment is the same (one pool).
 * Spread over `stacks` pools, each pool's top buffer needs no padding: the `stacks` largest
 * roundings come off.
 */
import { stableOrderByValue } from './algo/permutation';
import { BufferInfo, PoolInfo } from './types';

/** Stacks of at most this many buffers get their exact least height. */
const STACK_EXACT_UP_TO = 10;
/**
 * Live-set scans alignedLivePeak may spend (buffers read), so that 100k-buffer sets stay cheap;
 * moments left unscanned count their live bytes alone, which is still a bound.
 */
const SCAN_BUDGET = 4_000_000;

export const roundUpTo = (v: number, a: number): number => (a <= 1 ? v : Math.ceil(v / a) * a);

export function gcd(x: number, y: number): number {
  while (y) {
    const r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/** The gcd of the alignments (each at least 1): a step every offset of a stack of these buffers is a multiple of. */
export function alignmentGcd(alignments: ArrayLike<number>): number {
  let g = 0;
  for (let k = 0; k < alignments.length; k++) g = gcd(Math.max(1, alignments[k]), g);
  return g;
}

/** The least top of the buffers `sizes[k]`/`alignments[k]` (pairwise conflicting) over `stacks` pools. */
export function stackHeightBound(sizes: ArrayLike<number>, alignments: ArrayLike<number>, stacks = 1): number {
  const count = sizes.length;
  if (count === 0) return 0;
  if (stacks === 1 && count <= STACK_EXACT_UP_TO) return exactStackHeight(sizes, alignments);
  const g = alignmentGcd(alignments);
  let sum = 0;
  // The `stacks` largest roundings, descending: kept by insertion, not a sort of all of them
  // (a live-peak scan of a 2,000-buffer clique sorted 2,000 roundings per moment, 0.3 s).
  const largest = new Float64Array(Math.min(stacks, count)).fill(-Infinity);
  for (let k = 0; k < count; k++) {
    const padded = roundUpTo(sizes[k], g);
    sum += padded;
    let r = padded - sizes[k];
    for (let j = 0; j < largest.length && r > -Infinity; j++) {
      if (r > largest[j]) {
        const moved = largest[j];
        largest[j] = r;
        r = moved;
      }
    }
  }
  for (const r of largest) sum -= r;
  return sum;
}

function exactStackHeight(sizes: ArrayLike<number>, alignments: ArrayLike<number>): number {
  const count = sizes.length;
  const least = new Float64Array(1 << count);
  for (let mask = 1; mask < least.length; mask++) {
    let best = Infinity;
    for (let k = 0; k < count; k++) {
      if (!(mask & (1 << k))) continue;
      const top = roundUpTo(least[mask ^ (1 << k)], alignments[k]) + sizes[k];
      if (top < best) best = top;
    }
    least[mask] = best;
  }
  return least[least.length - 1];
}

/**
 * Max over time of the least stack height of the buffers live then (`members` of the intervals
 * [first, last], inclusive; all of them when omitted), with each buffer's alignment. At least
 * the peak of live bytes. `stacks`: the pools the buffers may be spread over.
 */
export function alignedLivePeak(
  first: ArrayLike<number>,
  last: ArrayLike<number>,
  sizes: ArrayLike<number>,
  alignments: ArrayLike<number>,
  stacks = 1,
  members?: readonly number[],
): number {
  const ids = (members ?? Array.from({ length: sizes.length }, (_, b) => b)).filter((b) => sizes[b] > 0);
  if (ids.length === 0) return 0;
  // Events: starts at first, ends at last + 1; at one time ends come first (ranges are inclusive).
  const eventTime = new Float64Array(2 * ids.length);
  ids.forEach((b, i) => {
    eventTime[2 * i] = first[b];
    eventTime[2 * i + 1] = last[b] + 1;
  });
  const order = eventsInTimeOrder(eventTime);
  const timeOf = (k: number): number => eventTime[k];
  // Per moment (after all its events): its time, live bytes and the live sizes each rounded up
  // to its own alignment (the key that picks the moments worth a scan, see below).
  const times: number[] = [];
  const raw: number[] = [];
  const padded: number[] = [];
  let live = 0;
  let livePadded = 0;
  let rawPeak = 0;
  for (let i = 0; i < order.length; i++) {
    const k = order[i];
    const b = ids[k >> 1];
    const sign = k & 1 ? -1 : 1;
    live += sign * sizes[b];
    livePadded += sign * roundUpTo(sizes[b], Math.max(1, alignments[b]));
    if (i + 1 < order.length && timeOf(order[i + 1]) === timeOf(k)) continue;
    if (live > rawPeak) rawPeak = live;
    if (livePadded > live) {
      times.push(timeOf(k));
      raw.push(live);
      padded.push(livePadded);
    }
  }
  // A moment's bound is capped at its rounded-up sizes (a smaller number is still a bound; the
  // cap binds only with alignments that do not divide one another), so only moments whose
  // rounded-up sizes exceed the best bound so far can raise it, largest first.
  let best = rawPeak;
  const candidates = times.map((_, i) => i).filter((i) => padded[i] > best);
  candidates.sort((x, y) => padded[y] - padded[x] || times[x] - times[y]);
  let scanned = 0;
  // One scratch for every moment's live set (arrays grown by push cost 40 ns a buffer).
  const liveSizes = new Float64Array(ids.length);
  const liveAlignments = new Float64Array(ids.length);
  for (const i of candidates) {
    if (padded[i] <= best || scanned + ids.length > SCAN_BUDGET) break;
    scanned += ids.length;
    const t = times[i];
    let count = 0;
    for (const b of ids) {
      if (first[b] <= t && t <= last[b]) {
        liveSizes[count] = sizes[b];
        liveAlignments[count] = Math.max(1, alignments[b]);
        count++;
      }
    }
    best = Math.max(best, Math.min(padded[i], stackHeightBound(liveSizes.subarray(0, count), liveAlignments.subarray(0, count), stacks)));
  }
  return best;
}

export const lcm = (x: number, y: number): number => (x / gcd(x, y)) * y;

/** A buffer's alignment in pool `pool`: its own and the pool's (an offset honours both). */
export function alignmentIn(b: BufferInfo, pool: PoolInfo): number {
  return lcm(Math.max(1, b.alignment || 1), Math.max(1, pool.alignment || 1));
}

/** What a buffer's offset is a multiple of, whichever of its candidate pools it lands in. */
export function alignmentInAnyPool(b: BufferInfo): number {
  let g = 0;
  for (const p of b.poolCandidates) g = gcd(alignmentIn(b, p), g);
  return g || Math.max(1, b.alignment || 1);
}

/**
 * alignedLivePeak of BufferInfos spread over `stacks` pools, each buffer aligned as
 * `alignmentOf` says; buffers without a live range count as live throughout.
 */
export function alignedPeakOfBuffers(
  buffers: readonly BufferInfo[],
  stacks = 1,
  alignmentOf: (b: BufferInfo) => number = alignmentInAnyPool,
): number {
  let from = 0;
  let to = 0;
  for (const b of buffers) {
    if (!b.liveRange) continue;
    from = Math.min(from, b.liveRange[0]);
    to = Math.max(to, b.liveRange[1]);
  }
  return alignedLivePeak(
    buffers.map((b) => b.liveRange?.[0] ?? from),
    buffers.map((b) => b.liveRange?.[1] ?? to),
    buffers.map((b) => b.sizeBytes),
    buffers.map(alignmentOf),
    stacks,
  );
}

/**
 * The events (starts at even k, ends at odd k) by time, at one time ends first, ties by k. With
 * whole times, one sort of packed keys (2 time + 1 for a start, stableOrderByValue: no
 * comparator called per pair, about 5 ms of a cold 2,000-buffer plan); else a comparator.
 */
function eventsInTimeOrder(eventTime: Float64Array): Int32Array {
  const m = eventTime.length;
  const key = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const t = eventTime[k];
    if (!Number.isSafeInteger(2 * t + 1) || !Number.isSafeInteger(2 * t - 1)) {
      return Int32Array.from({ length: m }, (_, i) => i).sort((x, y) => eventTime[x] - eventTime[y] || (y & 1) - (x & 1));
    }
    key[k] = 2 * t + (k & 1 ? 0 : 1);
  }
  return stableOrderByValue(key, m, new Float64Array(m), new Int32Array(m));
}

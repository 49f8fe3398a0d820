/**
 * Liveness intervals -> BufferInfo conflicts, and lower bounds on the memory any plan needs.
 * Intervals are inclusive operator indices [firstUse, lastUse]; two buffers conflict when their
 * intervals share an operator.
 */
import { checkInterval, IntervalConflicts, intervalGroupOf, registerIntervalGroup } from './intervalConflicts';
import { alignedPeakOfBuffers, alignmentInAnyPool, roundUpTo, stackHeightBound } from './stackBound';
import { CompactPart, compactPartOf } from './compactConflicts';
import { ListedConflicts } from './listedConflicts';
import { BufferInfo, PoolInfo } from './types';
import { maxOf } from '../util/extrema';

export interface LiveInterval {
  readonly name?: string;
  readonly sizeBytes: number;
  readonly firstUse: number;
  readonly lastUse: number;
  readonly alignment?: number;
  /** Its candidate pools, when they differ from the set's. */
  readonly pools?: readonly PoolInfo[];
}

/**
 * One BufferInfo per interval, with the given candidate pools (or its own). Conflicts are symmetric,
 * listed in interval order; names default to `buf_<index>`. The set is registered as an interval
 * group: planners and the verifier work from the intervals, and a buffer's `conflicts` list is
 * only built (by sweep line) when something reads it.
 */
export function intervalsToBufferInfos(
  intervals: readonly LiveInterval[],
  pools: readonly PoolInfo[],
): BufferInfo[] {
  const n = intervals.length;
  const names = intervals.map((iv, i) => iv.name ?? `buf_${i}`);
  intervals.forEach((iv, i) => checkInterval(names[i], iv.sizeBytes, iv.firstUse, iv.lastUse));
  const index = new IntervalConflicts(
    Float64Array.from(intervals, (iv) => iv.firstUse),
    Float64Array.from(intervals, (iv) => iv.lastUse),
  );
  const lists: (string[] | undefined)[] = new Array(n);
  const listOf = (i: number): string[] => {
    let list = lists[i];
    if (!list) {
      const { start, adj } = index.adjacency();
      list = Array.from(adj.subarray(start[i], start[i + 1]), (j) => names[j]);
      lists[i] = list;
    }
    return list;
  };
  const buffers = intervals.map(
    (iv, i): BufferInfo => ({
      name: names[i],
      sizeBytes: iv.sizeBytes,
      alignment: iv.alignment ?? (iv.pools ?? pools)[0]?.alignment ?? 1,
      poolCandidates: iv.pools ?? pools,
      get conflicts() {
        return listOf(i);
      },
      kind: 'workspace' as const,
      liveRange: [iv.firstUse, iv.lastUse] as const,
    }),
  );
  registerIntervalGroup(buffers, index);
  return buffers;
}

/**
 * `buffers` (each with a live range) as a new interval group: conflicts are exactly the
 * overlapping ranges, and names, sizes, alignments and candidate pools stay each buffer's own.
 */
export function asIntervalGroup(buffers: readonly BufferInfo[]): BufferInfo[] {
  return intervalsToBufferInfos(
    buffers.map((b) => ({
      name: b.name,
      sizeBytes: b.sizeBytes,
      firstUse: b.liveRange![0],
      lastUse: b.liveRange![1],
      alignment: b.alignment,
      pools: b.poolCandidates,
    })),
    [],
  );
}

/** Max over operators of the bytes live at that operator (all intervals share one pool). */
export function memoryPressureOfIntervals(intervals: readonly Pick<LiveInterval, 'sizeBytes' | 'firstUse' | 'lastUse'>[]): number {
  const events: [number, number][] = [];
  for (const iv of intervals) {
    events.push([iv.firstUse, iv.sizeBytes]);
    events.push([iv.lastUse + 1, -iv.sizeBytes]);
  }
  // At equal times releases (negative) go first: [a, t-1] and [t, b] do not overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let live = 0;
  let peak = 0;
  for (const [, delta] of events) {
    live += delta;
    if (live > peak) peak = live;
  }
  return peak;
}

/**
 * A lower bound on the total bytes (summed over pools) of any valid plan. For an interval group
 * it is the peak of live bytes with the alignment padding no plan avoids (stackBound.ts). Given live ranges and conflict lists (a JSON set), the
 * peak is used only if the buffers live at the peak really are mutually listed conflicts (the
 * lists, not the ranges, say what must be apart); otherwise, and without live ranges, it is the
 * heaviest clique found greedily around the heaviest buffers.
 */
export function lowerBoundOfBuffers(buffers: readonly BufferInfo[]): number {
  if (buffers.length === 0) return 0;
  const stacks = poolCount(buffers);
  const pinned = stacks > 1 ? pinnedPoolsBound(buffers) : 0;
  return Math.max(pinned, sharedBound(buffers, stacks, intervalGroupOf(buffers) !== undefined));
}

/**
 * lowerBoundOfBuffers with the buffers spread over any of `stacks` pools. `rangesConflict`: the
 * conflicts are the live-range overlaps (buffers of an interval group, or a part of one).
 */
function sharedBound(buffers: readonly BufferInfo[], stacks: number, rangesConflict: boolean): number {
  const intervals = buffers.every((b) => b.liveRange !== undefined)
    ? buffers.map((b) => ({ sizeBytes: b.sizeBytes, firstUse: b.liveRange![0], lastUse: b.liveRange![1] }))
    : undefined;
  if (intervals && rangesConflict) return alignedPeakOfBuffers(buffers, stacks);
  if (!intervals) return greedyCliqueBound(buffers, stacks);
  const peak = memoryPressureOfIntervals(intervals);
  const compact = compactPartOf(buffers);
  if (compact) {
    const bound = compactBound(buffers, compact, peak, stacks);
    if (bound !== undefined) return bound;
  }
  // Listed pairs that all overlap in time make a subgraph of the interval graph: each of its
  // cliques is live at one moment (pairwise overlapping intervals share a point), so none
  // outweighs the peak. Where the peak's buffers are also all listed both ways, the peak is the
  // bound, without the clique search (the costly part on a JSON buffer set of 2,000 buffers).
  const atPeak = peakClique(buffers, peak);
  const peakBound = atPeak ? cliqueHeight(atPeak, stacks) : 0;
  if (atPeak && listedPairsOverlap(buffers)) return peakBound;
  return Math.max(peakBound, greedyCliqueBound(buffers, stacks));
}

/**
 * Every pool ends at or above the bound of the buffers only it can hold (one candidate pool, or
 * one whose size limit they fit), and pools are apart: the sum over pools. `roundUpPools`: each
 * pool's part rounded up to its alignment, within its size hint, as pool sizes are.
 */
export function pinnedPoolsBound(buffers: readonly BufferInfo[], roundUpPools = false): number {
  const groups = new Map<PoolInfo, BufferInfo[]>();
  for (const b of buffers) {
    const fits = b.poolCandidates.filter((p) => b.sizeBytes <= (p.sizeHintBytes ?? Infinity));
    if (fits.length !== 1) continue;
    const group = groups.get(fits[0]) ?? [];
    group.push(b);
    groups.set(fits[0], group);
  }
  const rangesConflict = intervalGroupOf(buffers) !== undefined;
  let sum = 0;
  for (const [pool, group] of groups) {
    const bound = sharedBound(group, 1, rangesConflict);
    sum += roundUpPools ? Math.min(roundUpTo(bound, Math.max(1, pool.alignment || 1)), pool.sizeHintBytes ?? Infinity) : bound;
  }
  return sum;
}

/** The least height of a clique's buffers stacked over `stacks` pools (stackBound.ts). */
function cliqueHeight(clique: readonly BufferInfo[], stacks: number): number {
  return stackHeightBound(
    clique.map((b) => b.sizeBytes),
    clique.map(alignmentInAnyPool),
    stacks,
  );
}

/** Pools the buffers may be spread over (each pool a stack of its own, see stackBound.ts). */
function poolCount(buffers: readonly BufferInfo[]): number {
  const names = new Set<string>();
  for (const b of buffers) for (const p of b.poolCandidates) names.add(p.name);
  return Math.max(1, names.size);
}

/** Whether every listed conflict (either way) joins two buffers whose live ranges overlap. */
function listedPairsOverlap(buffers: readonly BufferInfo[]): boolean {
  const byName = new Map(buffers.map((b) => [b.name, b] as const));
  for (const b of buffers) {
    const [first, last] = b.liveRange!;
    for (const name of b.conflicts) {
      const other = byName.get(name)?.liveRange;
      if (other && (other[0] > last || first > other[1])) return false;
    }
  }
  return true;
}

/**
 * sharedBound of a part of a compiled model's buffers, all of one class, from the ranges: what
 * the lists would give, without reading them (undefined for a part of both classes). Buffers
 * live at one time are all mutually listed in either class, so the first peak time's buffers
 * are the peak's clique. Range members' lists are their overlaps: that clique's height is the
 * bound. The constants' lists join all of them whatever their ranges: unless all ranges share
 * a time, the bound is the greater of that and of the whole clique (greedyCliqueBound's answer
 * where every buffer lists every other).
 */
function compactBound(buffers: readonly BufferInfo[], part: CompactPart, peak: number, stacks: number): number | undefined {
  const clique = part.set.clique[part.indices[0]];
  for (const i of part.indices) if (part.set.clique[i] !== clique) return undefined;
  const peakTime = peakTimes(buffers, peak)[0];
  const atPeak = buffers.filter((b) => b.liveRange![0] <= peakTime && peakTime <= b.liveRange![1]);
  const peakBound = cliqueHeight(atPeak, stacks);
  if (clique === 0) return peakBound;
  let latestFirst = -Infinity;
  let earliestLast = Infinity;
  for (const b of buffers) {
    latestFirst = Math.max(latestFirst, b.liveRange![0]);
    earliestLast = Math.min(earliestLast, b.liveRange![1]);
  }
  // Intervals that pairwise overlap share a time: every listed pair overlaps (listedPairsOverlap).
  if (latestFirst <= earliestLast) return peakBound;
  return Math.max(peakBound, maxOf(buffers.map((b) => b.sizeBytes)), cliqueHeight(buffers, stacks));
}

/** Peak times examined by peakIsClique (each costs a pass over the buffers). */
const PEAK_TIMES_CHECKED = 8;

/** The buffers live at a time point where `peak` bytes are live, if they are all mutually listed. */
function peakClique(buffers: readonly BufferInfo[], peak: number): BufferInfo[] | undefined {
  // Only the buffers live at a peak time need their lists as sets.
  const sets = new Map<BufferInfo, Set<string>>();
  const listed = (b: BufferInfo): Set<string> => {
    let set = sets.get(b);
    if (!set) sets.set(b, (set = new Set(b.conflicts)));
    return set;
  };
  for (const t of peakTimes(buffers, peak)) {
    const at = buffers.filter((b) => b.liveRange![0] <= t && t <= b.liveRange![1]);
    if (at.every((a) => at.every((b) => a === b || (listed(a).has(b.name) && listed(b).has(a.name))))) return at;
  }
  return undefined;
}

/** The first PEAK_TIMES_CHECKED times at which `peak` bytes are live. */
function peakTimes(buffers: readonly BufferInfo[], peak: number): number[] {
  const events: [number, number][] = [];
  for (const b of buffers) events.push([b.liveRange![0], b.sizeBytes], [b.liveRange![1] + 1, -b.sizeBytes]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const times: number[] = [];
  let live = 0;
  for (let k = 0; k < events.length && times.length < PEAK_TIMES_CHECKED; k++) {
    live += events[k][1];
    const lastAtTime = k + 1 === events.length || events[k + 1][0] !== events[k][0];
    if (lastAtTime && live === peak) times.push(events[k][0]);
  }
  return times;
}

const CLIQUE_SEEDS = 64;

function greedyCliqueBound(buffers: readonly BufferInfo[], stacks: number): number {
  const neighbours = mutualNeighbours(buffers);
  // All mutually listed (a model's constants, live for the whole run): every seed would grow
  // the same clique, all of them, at a cost of n^2 each; 4,000 constants took 30 s that way.
  if (buffers.length > 1 && neighbours.every((row) => row.length === buffers.length - 1)) {
    return Math.max(maxOf(buffers.map((b) => b.sizeBytes)), cliqueHeight(buffers, stacks));
  }
  const weight = buffers.map((b, i) => {
    let w = b.sizeBytes;
    for (const j of neighbours[i]) w += buffers[j].sizeBytes;
    return w;
  });
  const seeds = buffers.map((_, i) => i).sort((a, b) => weight[b] - weight[a]).slice(0, CLIQUE_SEEDS);
  let best = maxOf(buffers.map((b) => b.sizeBytes));
  // Per buffer, how many members of the clique being grown it neighbours: it may join when all.
  const adjacentMembers = new Int32Array(buffers.length);
  for (const s of seeds) {
    const clique = [s];
    for (const x of neighbours[s]) adjacentMembers[x]++;
    const cands = [...neighbours[s]].sort((a, b) => buffers[b].sizeBytes - buffers[a].sizeBytes);
    for (const c of cands) {
      if (adjacentMembers[c] !== clique.length) continue;
      clique.push(c);
      for (const x of neighbours[c]) adjacentMembers[x]++;
    }
    for (const m of clique) for (const x of neighbours[m]) adjacentMembers[x] = 0;
    const members = clique.map((m) => buffers[m]);
    best = Math.max(best, cliqueHeight(members, stacks));
  }
  return best;
}

/**
 * Per buffer, the buffers it and they list both ways (only such pairs must be apart in every
 * valid plan: a one-way listing binds only in placement order, see verifyPlan), so only they may
 * form the clique of a lower bound. Each list holds its earlier buffers in index order, then its
 * later ones in the order the buffer lists them: the seeds' candidates keep that order among
 * equal sizes. Index rows and binary searches, not sets of names: on a graph of 800 buffers and
 * 192k listed pairs the sets took a quarter of a second.
 */
function mutualNeighbours(buffers: readonly BufferInfo[]): Int32Array[] {
  const n = buffers.length;
  const rows = new ListedConflicts(buffers);
  const { start, listed } = rows;
  const earlier: number[][] = buffers.map(() => []);
  const later: number[][] = buffers.map(() => []);
  const seenBy = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    for (let k = start[i]; k < start[i + 1]; k++) {
      const j = listed[k];
      // Unknown names are -1; a buffer listing itself, or an earlier one, adds nothing new here.
      if (j <= i || seenBy[j] === i) continue;
      seenBy[j] = i;
      if (!rows.lists(j, i)) continue;
      later[i].push(j);
      earlier[j].push(i);
    }
  }
  return earlier.map((e, i) => Int32Array.from([...e, ...later[i]]));
}

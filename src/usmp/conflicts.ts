/**
 * Liveness intervals -> BufferInfo conflicts, and lower bounds on the memory any plan needs.
 * Intervals are inclusive operator indices [firstUse, lastUse]; two buffers conflict when their
 * intervals share an operator.
 */
import { BufferInfo, PoolInfo } from './types';

export interface LiveInterval {
  readonly name?: string;
  readonly sizeBytes: number;
  readonly firstUse: number;
  readonly lastUse: number;
  readonly alignment?: number;
}

/**
 * One BufferInfo per interval, all with the given candidate pools. Conflicts are symmetric,
 * listed in interval order; names default to `buf_<index>`.
 */
export function intervalsToBufferInfos(
  intervals: readonly LiveInterval[],
  pools: readonly PoolInfo[],
): BufferInfo[] {
  const n = intervals.length;
  const names = intervals.map((iv, i) => iv.name ?? `buf_${i}`);
  const first = Int32Array.from(intervals, (iv) => iv.firstUse);
  const last = Int32Array.from(intervals, (iv) => iv.lastUse);
  const conflicts: string[][] = intervals.map(() => []);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i !== j && first[i] <= last[j] && first[j] <= last[i]) conflicts[i].push(names[j]);
    }
  }
  return intervals.map((iv, i) => ({
    name: names[i],
    sizeBytes: iv.sizeBytes,
    alignment: iv.alignment ?? pools[0]?.alignment ?? 1,
    poolCandidates: pools,
    conflicts: conflicts[i],
    kind: 'workspace' as const,
    liveRange: [iv.firstUse, iv.lastUse] as const,
  }));
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
 * A lower bound on the total bytes (summed over pools) of any valid plan. With live ranges on
 * every buffer it is the exact peak of live bytes; otherwise the heaviest clique found greedily
 * around the heaviest buffers (any clique must be laid out disjointly, whatever the pools).
 */
export function lowerBoundOfBuffers(buffers: readonly BufferInfo[]): number {
  if (buffers.length === 0) return 0;
  if (buffers.every((b) => b.liveRange !== undefined)) {
    return memoryPressureOfIntervals(
      buffers.map((b) => ({ sizeBytes: b.sizeBytes, firstUse: b.liveRange![0], lastUse: b.liveRange![1] })),
    );
  }
  return greedyCliqueBound(buffers);
}

const CLIQUE_SEEDS = 64;

function greedyCliqueBound(buffers: readonly BufferInfo[]): number {
  const index = new Map(buffers.map((b, i) => [b.name, i] as const));
  const listed = buffers.map((b) => new Set(b.conflicts));
  const neighbours: Set<number>[] = buffers.map(() => new Set<number>());
  // Only pairs listed both ways must be apart in every valid plan (a one-way listing binds only
  // in placement order, see verifyPlan), so only they may form the clique of a lower bound.
  buffers.forEach((b, i) => {
    for (const c of b.conflicts) {
      const j = index.get(c);
      if (j === undefined || j === i || !listed[j].has(b.name)) continue;
      neighbours[i].add(j);
      neighbours[j].add(i);
    }
  });
  const weight = buffers.map((b, i) => {
    let w = b.sizeBytes;
    for (const j of neighbours[i]) w += buffers[j].sizeBytes;
    return w;
  });
  const seeds = buffers.map((_, i) => i).sort((a, b) => weight[b] - weight[a]).slice(0, CLIQUE_SEEDS);
  let best = Math.max(...buffers.map((b) => b.sizeBytes));
  for (const s of seeds) {
    const clique = [s];
    let total = buffers[s].sizeBytes;
    const cands = [...neighbours[s]].sort((a, b) => buffers[b].sizeBytes - buffers[a].sizeBytes);
    for (const c of cands) {
      if (clique.every((m) => neighbours[c].has(m))) {
        clique.push(c);
        total += buffers[c].sizeBytes;
      }
    }
    if (total > best) best = total;
  }
  return best;
}

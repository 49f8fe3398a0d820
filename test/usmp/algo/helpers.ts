import { BenchSet } from '../../../bench/generators';
import { ExactCore } from '../../../src/usmp/algo/exactCore';
import { intervalsToBufferInfos } from '../../../src/usmp/conflicts';
import { IntervalConflicts } from '../../../src/usmp/intervalConflicts';
import { BufferInfo, BufferPlan, PoolInfo } from '../../../src/usmp/types';
import { IndexedProblem } from '../../../src/usmp/algo/indexed';
import { poolCore } from '../../../src/usmp/algo/multiPool';

export function pool(name: string, sizeHintBytes?: number, alignment = 1): PoolInfo {
  return { name, kind: 'workspace', targetAccess: { c: 'rw' }, sizeHintBytes, alignment, internal: true };
}

export interface Spec {
  size: number;
  conflicts?: string[];
  alignment?: number;
  pools?: PoolInfo[];
}

/** Buffers from a name -> spec table, in table order. */
export function buffers(specs: Record<string, Spec>, defaultPools: PoolInfo[] = [pool('global_workspace')]): BufferInfo[] {
  return Object.entries(specs).map(([name, s]) => ({
    name,
    sizeBytes: s.size,
    alignment: s.alignment ?? 1,
    poolCandidates: s.pools ?? defaultPools,
    conflicts: s.conflicts ?? [],
    kind: 'workspace' as const,
  }));
}

/** Buffers from [size, first use, last use, pools] rows; conflicts = overlapping live ranges. */
export function intervalSet(rows: [number, number, number, PoolInfo[]][]): BufferInfo[] {
  const bufs = intervalsToBufferInfos(
    rows.map(([sizeBytes, firstUse, lastUse]) => ({ sizeBytes, firstUse, lastUse, alignment: 1 })),
    [pool('unused')],
  );
  return bufs.map((b, i) => ({ ...b, conflicts: [...b.conflicts], poolCandidates: rows[i][3] }));
}

export function poolSize(bufs: readonly BufferInfo[], plan: BufferPlan, poolName: string): number {
  let max = 0;
  for (const b of bufs) {
    const a = plan.get(b.name)!;
    if (a.pool === poolName) max = Math.max(max, a.offset + b.sizeBytes);
  }
  return max;
}

export function offsets(plan: BufferPlan): Record<string, number> {
  return Object.fromEntries([...plan].map(([k, v]) => [k, v.offset]));
}

/** Intervals of a bench set (first and last use, inclusive, and size). */
export interface IntervalSet {
  readonly intervals: readonly { readonly first: number; readonly last: number; readonly size: number }[];
}

/**
 * The top of a one-pool plan of `set` at `offsets`, after checking it on its own terms: every
 * offset a safe non-negative multiple of its buffer's alignment (`align[i]`, or one alignment
 * for all), and no two buffers live at once overlapping. Throws naming the first failure.
 */
export function checkedTop(set: IntervalSet, align: number | readonly number[], offsets: Float64Array): number {
  const ivs = set.intervals;
  const alignment = (i: number) => (typeof align === 'number' ? align : align[i]);
  let top = 0;
  for (let a = 0; a < ivs.length; a++) {
    if (!Number.isSafeInteger(offsets[a]) || offsets[a] < 0 || offsets[a] % alignment(a) !== 0) throw new Error(`buffer ${a} at ${offsets[a]}, alignment ${alignment(a)}`);
    top = Math.max(top, offsets[a] + ivs[a].size);
    for (let b = a + 1; b < ivs.length; b++) {
      const live = ivs[a].first <= ivs[b].last && ivs[b].first <= ivs[a].last;
      const apart = offsets[a] + ivs[a].size <= offsets[b] || offsets[b] + ivs[b].size <= offsets[a];
      if (live && !apart) throw new Error(`buffers ${a} and ${b} overlap`);
    }
  }
  return top;
}

/** A bench set's intervals as buffers of one arena, the arena and every buffer aligned to `alignment`. */
export function arenaBuffersOf(set: Pick<BenchSet, 'intervals'>, alignment = 16): BufferInfo[] {
  return intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment })),
    [pool('arena', undefined, alignment)],
  );
}

/** The exact core of a bench set's intervals, every buffer aligned to 16 bytes. */
export function coreOfIntervals(set: BenchSet): ExactCore {
  return new ExactCore({
    count: set.intervals.length,
    sizes: Float64Array.from(set.intervals, (iv) => iv.size),
    alignments: Float64Array.from(set.intervals, () => 16),
    intervals: new IntervalConflicts(
      Float64Array.from(set.intervals, (iv) => iv.first),
      Float64Array.from(set.intervals, (iv) => iv.last),
    ),
  });
}

/** Whether every limited pool's buffers under `pool` fit its limit, by the core run to the end. */
export function choiceFits(problem: IndexedProblem, intervals: IntervalConflicts, pool: ArrayLike<number>): boolean {
  return problem.pools.every((_, p) => {
    const members = Array.from({ length: problem.count }, (_, b) => b).filter((b) => pool[b] === p);
    if (problem.poolLimits[p] === Infinity || members.length === 0) return true;
    const outcome = poolCore(problem, intervals, p, members).decide(problem.poolLimits[p], 1e9);
    expect(outcome.kind).not.toBe('unknown');
    return outcome.kind === 'fits';
  });
}

/** Whether any choice of pools fits, trying every one. */
export function someChoiceFits(problem: IndexedProblem, intervals: IntervalConflicts): boolean {
  const pool = new Int32Array(problem.count);
  const search = (b: number): boolean =>
    b === problem.count ? choiceFits(problem, intervals, pool) : problem.candidates[b].some((p) => ((pool[b] = p), search(b + 1)));
  return search(0);
}

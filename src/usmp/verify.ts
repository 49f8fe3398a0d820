/**
 * Independent check of a memory plan. Planners are clever; this is deliberately simple
 * (every conflict pair is compared directly), so a plan that passes is safe to emit.
 * A failure is a planner bug: the error names the buffers, pool and offsets involved.
 *
 * Conflict lists are directional, as in TVM: a buffer's list says which already-placed buffers
 * it must clear. Extraction always lists a pair both ways, and such mutual pairs must never
 * overlap. A pair listed one way only (hand-written buffer sets, TVM's own tests) binds only in
 * placement order, which a finished plan does not record, so it is not checked here; a buffer
 * listing itself is ignored.
 */
import { MAX_BYTE_COUNT } from '../config/numbers';
import { MemoryPlanningError, PlanVerificationError } from '../errors';
import { CompactPart, compactPartOf } from './compactConflicts';
import { countBelow } from '../util/sortedSearch';
import { intervalGroupOf } from './intervalConflicts';
import { ListedConflicts } from './listedConflicts';
import { stableOrderByValue } from './algo/permutation';
import { BufferInfo, BufferPlan, PoolInfo } from './types';
import { shownName } from '../util/shownName';

function limitOf(pool: PoolInfo): number {
  return pool.sizeHintBytes === undefined || pool.sizeHintBytes < 0 ? Infinity : pool.sizeHintBytes;
}

/**
 * Throws PlanVerificationError unless: every buffer is placed, in one of its candidate pools,
 * at a non-negative offset that is a multiple of its alignment and of the pool's, within the
 * pool's size hint, and no two mutually conflicting buffers overlap in one pool. A plan that
 * reaches past 2^53-1 bytes is refused as a MemoryPlanningError: it is too large to represent
 * exactly, which is the input's doing, not a planner bug.
 * `pools` overrides the PoolInfo used for size hints (by name); otherwise each buffer's
 * candidate PoolInfo is used.
 */
export function verifyPlan(buffers: readonly BufferInfo[], plan: BufferPlan, pools?: readonly PoolInfo[]): void {
  const byName = new Map<string, BufferInfo>();
  for (const b of buffers) byName.set(b.name, b);
  for (const name of plan.keys()) {
    if (!byName.has(name)) {
      throw new PlanVerificationError(`plan places '${name}', which is not one of the planned buffers`, {
        buffer: name,
      });
    }
  }
  const poolOverride = new Map((pools ?? []).map((p) => [p.name, p] as const));

  for (const b of buffers) {
    const a = plan.get(b.name);
    if (!a) throw new PlanVerificationError(`buffer '${b.name}' was not placed by the planner`, { buffer: b.name });
    const candidate = b.poolCandidates.find((p) => p.name === a.pool);
    if (!candidate) {
      throw new PlanVerificationError(
        `buffer '${b.name}' placed in pool '${a.pool}', which is not one of its candidates ` +
          `(${b.poolCandidates.map((p) => p.name).join(', ')})`,
        { buffer: b.name, pool: a.pool },
      );
    }
    if (Number.isInteger(a.offset) && a.offset >= 0 && !(a.offset + b.sizeBytes <= MAX_BYTE_COUNT)) {
      // Past 2^53-1 doubles no longer count bytes exactly: offsets, ends and pool sizes would be wrong.
      throw new MemoryPlanningError(
        `pool '${a.pool}' would need more than 2^53-1 = ${MAX_BYTE_COUNT} bytes: buffer '${b.name}' (${b.sizeBytes} bytes) ` +
          `would start at ${a.offset}; uma-ts cannot represent such a plan exactly`,
        { buffer: b.name, pool: a.pool },
      );
    }
    if (!Number.isSafeInteger(a.offset) || a.offset < 0) {
      throw new PlanVerificationError(`buffer '${b.name}' has invalid offset ${a.offset} in pool '${a.pool}'`, {
        buffer: b.name,
        pool: a.pool,
      });
    }
    if (a.offset % b.alignment !== 0) {
      throw new PlanVerificationError(
        `buffer '${b.name}' at offset ${a.offset} in pool '${a.pool}' is not aligned to ${b.alignment} bytes`,
        { buffer: b.name, pool: a.pool },
      );
    }
    const placedIn = poolOverride.get(a.pool) ?? candidate;
    // The pool's alignment binds too: a buffer that falls back to a more aligned pool than the
    // one its own alignment came from must start on that pool's boundary.
    const poolAlignment = Math.max(1, placedIn.alignment || 1);
    if (a.offset % poolAlignment !== 0) {
      throw new PlanVerificationError(
        `buffer '${b.name}' at offset ${a.offset} in pool '${a.pool}' is not aligned to the pool's alignment of ${poolAlignment} bytes`,
        { buffer: b.name, pool: a.pool },
      );
    }
    const limit = limitOf(placedIn);
    if (a.offset + b.sizeBytes > limit) {
      throw new PlanVerificationError(
        `buffer '${b.name}' at offset ${a.offset} (${b.sizeBytes} bytes) ends at ${a.offset + b.sizeBytes}, ` +
          `beyond the ${limit}-byte size hint of pool '${a.pool}'`,
        { buffer: b.name, pool: a.pool },
      );
    }
  }

  if (intervalGroupOf(buffers)) {
    verifyLiveRangeOverlaps(buffers, plan);
    return;
  }
  // A compiled model's buffers: checked from the ranges and the constants' clique; only a plan
  // that fails is walked list by list, for the same error as before.
  const compact = compactPartOf(buffers);
  if (compact && compactOverlapFree(buffers, plan, compact)) return;
  // Whether a pair is listed both ways is asked only of pairs that overlap, so a valid plan
  // needs no set of every buffer's list.
  const listed = new Map<string, Set<string>>();
  const listsBack = (o: BufferInfo, name: string): boolean => {
    let set = listed.get(o.name);
    if (!set) listed.set(o.name, (set = new Set(o.conflicts)));
    return set.has(name);
  };
  for (const b of buffers) {
    const a = plan.get(b.name)!;
    for (const other of b.conflicts) {
      const o = byName.get(other);
      if (!o) {
        throw new PlanVerificationError(`buffer '${b.name}' lists unknown conflict '${other}'`, { buffer: b.name });
      }
      if (other === b.name) continue;
      const oa = plan.get(other)!;
      if (oa.pool !== a.pool) continue;
      if (a.offset < oa.offset + o.sizeBytes && oa.offset < a.offset + b.sizeBytes && listsBack(o, b.name)) {
        throw new PlanVerificationError(
          `conflicting buffers overlap in pool '${a.pool}': '${b.name}' [${a.offset}, ${a.offset + b.sizeBytes}) ` +
            `and '${other}' [${oa.offset}, ${oa.offset + o.sizeBytes})`,
          { buffer: b.name, pool: a.pool, other },
        );
      }
    }
  }
}

/**
 * Event k < n is buffer k's start, event n + k its end: all 2n in time order, starts at time t
 * before ends at t (inclusive ranges sharing t conflict), ties by event. That is the events
 * stably ordered by time, which stableOrderByValue sorts by packed keys where times are whole
 * numbers, with no comparator called per pair (a comparator sort took about 10 ms of a cold
 * 2,000-buffer `uma-ts plan`).
 */
function eventsInOrder(first: Float64Array, last: Float64Array): Int32Array {
  const n = first.length;
  const times = new Float64Array(2 * n);
  times.set(first);
  times.set(last, n);
  return stableOrderByValue(times, 2 * n, new Float64Array(2 * n), new Int32Array(2 * n));
}

/**
 * For buffers whose conflicts are their overlapping live ranges: a sweep over time that keeps,
 * per pool, the live buffers sorted by (offset, end). While no two of them overlap, a new one
 * overlaps some live buffer exactly when it overlaps its neighbour below or above in that order,
 * so the check is O(n log n) plus the moves of a sorted insert, and reads nothing but each
 * buffer's live range, size and placement (none of the planners' structures).
 */
function verifyLiveRangeOverlaps(buffers: readonly BufferInfo[], plan: BufferPlan): void {
  const pair = liveRangeOverlap(buffers, plan);
  if (!pair) return;
  const [bi, bj] = [buffers[pair[0]], buffers[pair[1]]];
  const [a, o] = [plan.get(bi.name)!, plan.get(bj.name)!];
  throw new PlanVerificationError(
    `conflicting buffers overlap in pool '${a.pool}': '${bi.name}' [${a.offset}, ${a.offset + bi.sizeBytes}) live [${bi.liveRange![0]}, ${bi.liveRange![1]}] ` +
      `and '${bj.name}' [${o.offset}, ${o.offset + bj.sizeBytes}) live [${bj.liveRange![0]}, ${bj.liveRange![1]}]`,
    { buffer: bi.name, pool: a.pool, other: bj.name },
  );
}

/** The first pair of buffers (indices) found live at once and overlapping in one pool, if any. */
function liveRangeOverlap(buffers: readonly BufferInfo[], plan: BufferPlan): [number, number] | undefined {
  const n = buffers.length;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const first = new Float64Array(n);
  const last = new Float64Array(n);
  const poolNames = new Map<string, number>();
  const poolOf = new Int32Array(n);
  buffers.forEach((b, i) => {
    const a = plan.get(b.name)!;
    if (!b.liveRange) throw new PlanVerificationError(`buffer '${b.name}' has no live range`, { buffer: b.name });
    first[i] = b.liveRange[0];
    last[i] = b.liveRange[1];
    start[i] = a.offset;
    end[i] = a.offset + b.sizeBytes;
    if (!poolNames.has(a.pool)) poolNames.set(a.pool, poolNames.size);
    poolOf[i] = poolNames.get(a.pool)!;
  });
  const events = eventsInOrder(first, last);
  const live = Array.from({ length: poolNames.size }, () => ({ ids: new Int32Array(n), count: 0 }));
  const before = (i: number, j: number) => start[i] < start[j] || (start[i] === start[j] && end[i] < end[j]);
  const overlap = (i: number, j: number) => start[i] < end[j] && start[j] < end[i];
  for (const k of events) {
    const i = k < n ? k : k - n;
    const set = live[poolOf[i]];
    const { ids } = set;
    // Lowest position whose buffer is not before i.
    let lo = 0;
    let hi = set.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(ids[mid], i)) lo = mid + 1;
      else hi = mid;
    }
    if (k < n) {
      if (lo > 0 && overlap(ids[lo - 1], i)) return [i, ids[lo - 1]];
      if (lo < set.count && overlap(ids[lo], i)) return [i, ids[lo]];
      ids.copyWithin(lo + 1, lo, set.count);
      ids[lo] = i;
      set.count++;
    } else {
      let at = lo;
      while (ids[at] !== i) at++;
      ids.copyWithin(at, at + 1, set.count);
      set.count--;
    }
  }
  return undefined;
}

/**
 * Whether no two conflicting buffers of a compact part overlap: its range members by the sweep
 * above, its clique members per pool in offset order (each sized one must start at or above
 * the highest end before it; a zero-sized one overlaps only a sized one strictly around it).
 */
function compactOverlapFree(buffers: readonly BufferInfo[], plan: BufferPlan, part: CompactPart): boolean {
  const ranged: BufferInfo[] = [];
  const byPool = new Map<string, BufferInfo[]>();
  buffers.forEach((b, k) => {
    if (part.set.clique[part.indices[k]] === 0) {
      ranged.push(b);
      return;
    }
    const pool = plan.get(b.name)!.pool;
    const members = byPool.get(pool);
    if (members) members.push(b);
    else byPool.set(pool, [b]);
  });
  if (ranged.length > 1 && liveRangeOverlap(ranged, plan)) return false;
  for (const members of byPool.values()) if (!disjointInOnePool(members, plan)) return false;
  return true;
}

function disjointInOnePool(members: readonly BufferInfo[], plan: BufferPlan): boolean {
  const sized = members.filter((b) => b.sizeBytes > 0).map((b) => ({ start: plan.get(b.name)!.offset, end: plan.get(b.name)!.offset + b.sizeBytes }));
  sized.sort((x, y) => x.start - y.start);
  const starts = Float64Array.from(sized, (s) => s.start);
  let highestEnd = -Infinity;
  for (const s of sized) {
    if (s.start < highestEnd) return false;
    highestEnd = Math.max(highestEnd, s.end);
  }
  // Sized ones are apart now, so in start order their ends ascend too: only the last one starting
  // below a zero-sized buffer's offset can reach past it.
  for (const b of members) {
    if (b.sizeBytes > 0) continue;
    const at = plan.get(b.name)!.offset;
    const below = countBelow(starts, at);
    if (below > 0 && at < sized[below - 1].end) return false;
  }
  return true;
}

/** Size of each pool a plan uses: the highest end offset of the buffers placed in it. */
export function poolSizesOfPlan(buffers: readonly BufferInfo[], plan: BufferPlan): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const b of buffers) {
    const a = plan.get(b.name);
    if (!a) continue;
    sizes.set(a.pool, Math.max(sizes.get(a.pool) ?? 0, a.offset + b.sizeBytes));
  }
  return sizes;
}

/**
 * Up to `limit` pairs of buffers whose live ranges overlap while neither lists the other, as
 * `a & b`: with lists given, the lists are the conflicts, so such a pair may share addresses,
 * which a user who meant the ranges should hear of. A sweep in start order compares each buffer
 * with those still live; it ends at the limit, so where the lists do cover the overlaps it reads
 * about as many pairs as they hold. Names as `shownName` prints them: the pairs go into a note
 * line, which a name holding a line break or a terminal escape must not split or reach raw.
 */
export function unlistedOverlaps(buffers: readonly BufferInfo[], limit = 5): string[] {
  if (intervalGroupOf(buffers)) return [];
  const ranged = buffers.map((_, i) => i).filter((i) => buffers[i].liveRange !== undefined);
  if (ranged.length < 2) return [];
  const first = (i: number) => buffers[i].liveRange![0];
  const last = (i: number) => buffers[i].liveRange![1];
  ranged.sort((x, y) => first(x) - first(y) || x - y);
  const rows = new ListedConflicts(buffers);
  const out: string[] = [];
  let live: number[] = [];
  for (const i of ranged) {
    live = live.filter((j) => last(j) >= first(i));
    for (const j of live) {
      if (buffers[i].sizeBytes === 0 || buffers[j].sizeBytes === 0 || rows.lists(i, j) || rows.lists(j, i)) continue;
      out.push(`${shownName(buffers[j].name)} & ${shownName(buffers[i].name)}`);
      if (out.length >= limit) return out;
    }
    live.push(i);
  }
  return out;
}

/** Conflicts listed in one direction only, as `a -> b` (a lists b, b does not list a; names as `shownName` prints them). */
export function oneWayConflicts(buffers: readonly BufferInfo[]): string[] {
  // Live-range and compiled models' conflicts are symmetric by construction (and may be too
  // many to list); so is any part of them.
  if (intervalGroupOf(buffers) || compactPartOf(buffers)) return [];
  const n = buffers.length;
  const rows = new ListedConflicts(buffers);
  const { start, listed } = rows;
  const out: string[] = [];
  const reported = new Set<number>();
  for (let i = 0; i < n; i++) {
    for (let k = start[i]; k < start[i + 1]; k++) {
      const j = listed[k];
      if (j < 0 || j === i || rows.lists(j, i) || reported.has(i * n + j)) continue;
      reported.add(i * n + j);
      out.push(`${shownName(buffers[i].name)} -> ${shownName(buffers[j].name)}`);
    }
  }
  return out;
}

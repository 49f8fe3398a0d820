/**
 * Which buffers of a plan a re-solve of its top places again (ExactCore.resolveTop): a large
 * neighbourhood for the exact core. The rest of the plan stays where it is, and each buffer
 * placed again may go no lower than the top of any kept buffer it conflicts with (its floor).
 *
 * A plan above capacity C leaves holes: in a time section with live bytes L, at most C - L
 * bytes of holes fit under C. So per section, every buffer above the height where the holes
 * below it pass C - L is placed again (the kept buffers of the section then leave room for the
 * others). The set is closed upwards: a buffer on top of a freed one, in its time, is freed too,
 * so no kept buffer is above a freed one and the plan given stays a solution of the re-solve
 * (floors below every freed buffer's offset).
 *
 * With sizes that are not multiples of the alignments' gcd, a section's buffers need their
 * stacked height (coreRun.ts, `need`) and each one but the top wastes its rounding: the slack
 * is C less that height, a hole is what lies between a buffer and the height below it rounded
 * up to its alignment, and a buffer ending above C is freed with all above it. Counting bare
 * bytes, every stack's unavoidable roundings were holes, so the smaller hole shares freed more
 * than their share, and a stack with the wrong buffer on top at a tight moment kept it there.
 *
 * Floors are per buffer, the highest kept conflict over its whole lifetime, so in a section the
 * lowest freed buffer may still sit above a hole the kept buffers left: its other sections hold
 * it up. Such a section can never fit; it frees the kept buffers above its own kept ones that
 * hold up its freed ones, and the closure and floors are taken again (a few rounds).
 */
import { CoreTables, roundUp } from './coreRun';
import { gathered } from './gathered';
import { stableOrderByValue } from './permutation';

/*
 * BRANCHLESS: the passes over conflict rows below test whether each conflict is freed, which is
 * about as random as a coin on dense sets (long lifetimes: rows of 500-700 conflicts), so the
 * processor mispredicted a branch on it about every other entry. They compute the answer as
 * numbers instead (a comparison as 0 or 1), which V8 compiles without a branch.
 */

/** Rounds of freeing the kept buffers that hold up a section's freed ones (see above). */
const REPAIR_ROUNDS = 4;

export interface TopRegion {
  /** The buffers placed again, ascending. */
  readonly free: Int32Array;
  /** Per freed buffer (same order): the lowest offset it may take, aligned. */
  readonly floors: Float64Array;
  /** The work spent choosing them, in the core's units (a scan of the tables per pass). */
  readonly work: number;
}

/**
 * What topRegion reads of a plan whatever the hole share: its buffers' tops, each section's
 * members in offset order and live bytes. Built once for the shares a re-solve tries in turn
 * (building them took about half of freeAboveHoles' time, once per share).
 */
export interface PlanLayout {
  readonly offsets: Float64Array;
  /** The buffers in offset order, ties by index (buffersByOffset). */
  readonly byOffset: Int32Array;
  readonly top: Float64Array;
  /** Per section (memStart's ranges), its members in offset order. */
  readonly ordered: Int32Array;
  /** Per section, its members' bytes (summed in offset order), or stacked height. */
  readonly live: Float64Array;
}

/** The layout of `offsets` (a valid plan; `byOffset` its buffers in offset order, ties by index). */
export function planLayout(tables: CoreTables, offsets: Float64Array, byOffset: Int32Array): PlanLayout {
  const { sizes, secFrom, secTo, memStart, members, sectionStack, sectionBytes } = tables;
  const top = topsOf(offsets, sizes);
  const ordered = membersInOrder(secFrom, secTo, memStart, members.length, byOffset);
  // Sizes that are not multiples of the alignments' gcd: stacked heights (see the header).
  const live = sectionStack !== sectionBytes ? sectionStack : bytesInOrder(memStart, ordered, sizes);
  return { offsets, byOffset, top, ordered, live };
}

// planLayout's loops, each in a function of its own with nothing after it: V8 compiles such a
// loop on stack replacement at a plan's first calls and threw that code away at whatever
// came next with no feedback yet (a cold mixed plan deoptimized freeAboveHoles, the function
// that held them, 12 times). Index loops, not TypedArray.from or for-of (see gathered.ts).

/** Per buffer, the end of its place. */
function topsOf(offsets: Float64Array, sizes: Float64Array): Float64Array {
  const top = new Float64Array(offsets.length);
  for (let b = 0; b < offsets.length; b++) top[b] = offsets[b] + sizes[b];
  return top;
}

/** Each section's members in offset order: one pass over the buffers in offset order. */
function membersInOrder(secFrom: Int32Array, secTo: Int32Array, memStart: Int32Array, count: number, byOffset: Int32Array): Int32Array {
  const fill = memStart.slice(0, memStart.length - 1);
  const ordered = new Int32Array(count);
  for (let k = 0; k < byOffset.length; k++) {
    const b = byOffset[k];
    for (let s = secFrom[b]; s <= secTo[b]; s++) ordered[fill[s]++] = b;
  }
  return ordered;
}

/** Per section, its members' bytes, summed in offset order. */
function bytesInOrder(memStart: Int32Array, ordered: Int32Array, sizes: Float64Array): Float64Array {
  const live = new Float64Array(memStart.length - 1);
  for (let s = 0; s < live.length; s++) {
    let bytes = 0;
    for (let k = memStart[s]; k < memStart[s + 1]; k++) bytes += sizes[ordered[k]];
    live[s] = bytes;
  }
  return live;
}

/**
 * The buffers of the plan `layout` to place again for a packing under `capacity` (see above).
 * `holeShare` scales the holes each section may keep below its kept buffers (1: all its
 * slack). Undefined when nothing would be freed, or everything (that is the whole problem again).
 */
export function topRegion(tables: CoreTables, layout: PlanLayout, capacity: number, holeShare = 1): TopRegion | undefined {
  const { n, adjStart, adj } = tables;
  const { offsets, byOffset, top } = layout;
  const isFree = new Uint8Array(n);
  const walked = new Uint8Array(n);
  let work = n;
  work += freeAboveHoles(tables, layout, capacity, holeShare, isFree);
  const floors = new Float64Array(n);
  for (let round = 0; ; round++) {
    work += closeUpwards(adjStart, adj, offsets, top, byOffset, isFree, walked);
    work += floorsOf(tables, top, isFree, floors);
    if (round === REPAIR_ROUNDS) break;
    const freed = freeHoldingUp(tables, top, isFree, floors, capacity);
    work += freed.work;
    if (freed.count === 0) break;
  }
  let count = 0;
  for (let b = 0; b < n; b++) count += isFree[b];
  if (count === 0 || count === n) return undefined;
  const free = new Int32Array(count);
  for (let b = 0, k = 0; b < n; b++) if (isFree[b]) free[k++] = b;
  return { free, floors: gathered(floors, free), work };
}

/** The buffers by offset, ties by index (what topRegion walks); the work, in the core's units, is n log n. */
export function buffersByOffset(offsets: Float64Array): { order: Int32Array; work: number } {
  const n = offsets.length;
  return { order: stableOrderByValue(offsets, n, new Float64Array(n), new Int32Array(n)), work: n * Math.ceil(Math.log2(n + 1)) };
}

/**
 * Per section, walking its buffers up in offset order: once the holes passed exceed the
 * section's share of slack, every buffer of it ending above that height is freed. Returns the work.
 */
function freeAboveHoles(tables: CoreTables, layout: PlanLayout, capacity: number, holeShare: number, isFree: Uint8Array): number {
  const { alignments, sectionCount, memStart, members, sectionStack, sectionBytes } = tables;
  const { offsets, top, ordered, live } = layout;
  const stacked = sectionStack !== sectionBytes;
  // Nothing with feedback after the loop (see planLayout's loops).
  const work = 3 * members.length;
  for (let s = 0; s < sectionCount; s++) {
    const allowed = (capacity - live[s]) * holeShare;
    let height = 0;
    let holes = 0;
    let cut = Infinity;
    for (let k = memStart[s]; k < memStart[s + 1]; k++) {
      const b = ordered[k];
      if (stacked && top[b] > capacity) {
        cut = height;
        break;
      }
      const floor = stacked ? roundUp(height, alignments[b]) : height;
      // A hole below b (gap > 0) is added and may pass the share; no branch on whether there
      // is one (see BRANCHLESS; a gap of 0 or less adds 0).
      const gap = offsets[b] - floor;
      const hole = +(gap > 0);
      holes += hole * gap;
      if ((hole & +(holes > allowed)) !== 0) {
        cut = height;
        break;
      }
      height = Math.max(height, top[b]);
    }
    if (cut < Infinity) for (let k = memStart[s]; k < memStart[s + 1]; k++) if (top[ordered[k]] > cut) isFree[ordered[k]] = 1;
  }
  return work;
}

/**
 * Frees every buffer on top of a freed conflict (in offset order, so transitively). Returns the
 * work, every freed row as if read. A row `walked` in an earlier round is not read again: no
 * buffer is ever kept again, so all it frees is free already.
 */
function closeUpwards(adjStart: Int32Array, adj: Int32Array, offsets: Float64Array, top: Float64Array, byOffset: Int32Array, isFree: Uint8Array, walked: Uint8Array): number {
  let work = byOffset.length;
  for (const b of byOffset) {
    if (!isFree[b]) continue;
    work += adjStart[b + 1] - adjStart[b];
    if (walked[b]) continue;
    walked[b] = 1;
    // Without branches (see BRANCHLESS): a kept conflict at or above b's top is freed.
    const above = top[b];
    for (let k = adjStart[b], end = adjStart[b + 1]; k < end; k++) {
      const j = adj[k];
      const free = isFree[j];
      isFree[j] = free | (+(free === 0) & +(offsets[j] >= above));
    }
  }
  return work;
}

/**
 * Into `floors`, per freed buffer: the highest top of its kept conflicts, aligned. Returns the
 * work: the freed buffers' rows, which is what it reads. Charged every row instead, a dense
 * set's region (2,000 buffers, 900k conflict entries, five rounds) cost 2.9M of a re-solve's
 * 3M units before its core ran, so most re-solves there ended unknown after 0.1M units.
 */
function floorsOf(tables: CoreTables, top: Float64Array, isFree: Uint8Array, floors: Float64Array): number {
  const { n, adjStart, adj, alignments } = tables;
  let work = n;
  for (let b = 0; b < n; b++) {
    if (!isFree[b]) continue;
    work += adjStart[b + 1] - adjStart[b];
    let floor = 0;
    // A freed conflict counts as a top of 0 (tops are at least 0): no branch on whether it is
    // freed (see BRANCHLESS), and one on a new highest, which is rare.
    for (let k = adjStart[b], end = adjStart[b + 1]; k < end; k++) {
      const kept = top[adj[k]] * +(isFree[adj[k]] === 0);
      if (kept > floor) floor = kept;
    }
    floors[b] = roundUp(floor, alignments[b]);
  }
  return work;
}

/**
 * Sections whose freed buffers cannot fit above their lowest floor (their bytes, or their
 * stacked height): their freed buffers' kept conflicts above the section's own kept buffers
 * are freed. Returns how many, and the work.
 *
 * A freed buffer in several such sections frees the conflicts above the lowest of their kept
 * heights, so its row is read once, not once per section: where most buffers live through most
 * sections (nearly all-live sets) the rows read per section took 0.6 s of a plan. The work is
 * still charged per section, as the rows were read before, so the budgets and plans stay.
 */
function freeHoldingUp(tables: CoreTables, top: Float64Array, isFree: Uint8Array, floors: Float64Array, capacity: number): { count: number; work: number } {
  // Per freed buffer: the lowest kept height of the failing sections it is in. (Each pass a
  // function of its own with nothing after its loop: V8 compiled the first pass on stack
  // replacement and threw that code away on reaching the next, 3-4 times a cold plan.)
  const threshold = new Float64Array(isFree.length).fill(Infinity);
  const work = failingThresholds(tables, top, isFree, floors, capacity, threshold);
  const count = markAboveThresholds(tables.adjStart, tables.adj, top, isFree, threshold);
  promoteMarked(isFree);
  return { count, work };
}

/** freeHoldingUp's sections: each failing one's kept height into its freed buffers' thresholds. Returns the work. */
function failingThresholds(tables: CoreTables, top: Float64Array, isFree: Uint8Array, floors: Float64Array, capacity: number, threshold: Float64Array): number {
  const { sizes, stackedSizes, adjStart, sectionCount, memStart, members, sectionStack, sectionBytes } = tables;
  // Freed buffers stack above their lowest floor: stacked sizes, less the most one saves on top.
  const stacked = sectionStack !== sectionBytes;
  let work = members.length;
  for (let s = 0; s < sectionCount; s++) {
    let rest = 0;
    let saving = 0;
    let lowest = Infinity;
    let kept = 0;
    for (let k = memStart[s]; k < memStart[s + 1]; k++) {
      const b = members[k];
      if (isFree[b] === 1) {
        if (stacked) {
          rest += stackedSizes[b];
          saving = Math.max(saving, stackedSizes[b] - sizes[b]);
        } else rest += sizes[b];
        lowest = Math.min(lowest, floors[b]);
      } else kept = Math.max(kept, top[b]);
    }
    if (rest === 0 || lowest + rest - saving <= capacity) continue;
    for (let k = memStart[s]; k < memStart[s + 1]; k++) {
      const b = members[k];
      if (isFree[b] !== 1) continue;
      threshold[b] = Math.min(threshold[b], kept);
      work += adjStart[b + 1] - adjStart[b];
    }
  }
  return work;
}

/** Marks 2 every kept conflict above a freed buffer's threshold; returns how many. */
function markAboveThresholds(adjStart: Int32Array, adj: Int32Array, top: Float64Array, isFree: Uint8Array, threshold: Float64Array): number {
  let count = 0;
  for (let b = 0; b < isFree.length; b++) {
    if (threshold[b] === Infinity) continue;
    const above = threshold[b];
    for (let a = adjStart[b], end = adjStart[b + 1]; a < end; a++) {
      // A kept conflict above the threshold is marked 2, without branches (see BRANCHLESS).
      const j = adj[a];
      const free = isFree[j];
      const freed = +(free === 0) & +(top[j] > above);
      isFree[j] = free | (freed << 1);
      count += freed;
    }
  }
  return count;
}

/** Marked 2 so that no buffer freed in a pass frees others in the same pass: now freed (1). */
function promoteMarked(isFree: Uint8Array): void {
  for (let b = 0; b < isFree.length; b++) if (isFree[b] === 2) isFree[b] = 1;
}

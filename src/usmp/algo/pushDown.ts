/**
 * A one-pool plan pushed down: buffers taken in offset order (ties by index), each moved to the
 * lowest offset, aligned, clear of the conflicts already moved. No buffer moves up: every
 * conflict below it in the plan ended at or below its offset there and has only moved down since,
 * and the conflicts above it come later, so its old offset is still free when its turn comes.
 * So the total never grows, and a valid plan stays valid.
 *
 * A tolerant dive (ExactCore.greedyDive) lets a buffer of the busiest section go first, up to
 * its tolerance above the lowest offset; the slot it skipped stays empty when the buffers that
 * could have filled it land on others instead. Nothing directly under a buffer is left open
 * (dropping each buffer onto its highest conflict below moved none on the bench's dense sets):
 * the gaps are lower, and first fit in offset order fills them from above. Used as the last
 * step of a one-pool auto call (auto.ts).
 */
import { roundUp } from './coreRun';
import { stableOrderByValue } from './permutation';
import { buffersByOffset } from './topRegion';

/**
 * A drop walks the list of dropped buffers (up to its length) rather than sort its m conflicts
 * (about m log m steps, each dearer) while the list is at most this many times m log m: the
 * walk wins on dense sets (long s52's push-down 33 -> 11 ms, warm), the sort on short rows
 * late in a sparse plan's drops. Either finds the same offset. Measured (least of 20 warm
 * push-downs, alternating): with 4, uniform s15 5.0 -> 4.8 ms, mixed 1 3.5 -> 2.9, mixed 78
 * 6.9 -> 6.1, medium s1 10.1 -> 6.7; walking always, 5.3 -> 5.0, 3.7 -> 3.6, 10.3 -> 6.3,
 * 10.8 -> 6.9, long s52 33 -> 13.5.
 */
const WALK_PER_SORT_STEP = 4;
/**
 * Conflict entries, as a share of all n^2 pairs, from which drops walk the spans (dropBySpans):
 * measured on push-downs (least of 6-20, alternating with the marked walk, same offsets): long
 * lifetimes s52 (2,000 buffers, 22% of pairs) 22.5 -> 13.7 ms, s14 14.9 -> 8.3 ms; mixed
 * 10,000-buffer seeds 9 (19%) 368 -> 210 ms and 5 (10%) 242 -> 189 ms; medium lifetimes (10%)
 * the same; but sparse sets slower: mixed 2,000-buffer seeds 2, 78, 124 (about 2.5%) 6.0 -> 6.8
 * ms, 10,000-buffer seeds 2 and 8 (6%) 5-15% slower, seed 11 (2%) 20%. There the marked walk's
 * reads out of order stay in cache, and the spans' wider entries cost more to walk and move.
 */
const SPAN_WALK_DENSITY = 0.1;
/** Per entry of DropScratch.placedSpans: offset, end, first section, last section. */
const SPAN_FIELDS = 4;

export interface PushDownInput {
  readonly sizes: Float64Array;
  readonly alignments: Float64Array;
  /** Conflicts as CSR: buffer b conflicts with adj[adjStart[b] .. adjStart[b + 1]). */
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
  /**
   * Optional, the buffers' live ranges as spans of time sections [secFrom, secTo], given only
   * where the conflicts are exactly the spans' overlaps (the exact core's tables): a drop then
   * reads the spans kept beside the dropped list instead of marking its conflicts (dropInOrder).
   */
  readonly secFrom?: Int32Array;
  readonly secTo?: Int32Array;
}

export interface PushedDown {
  readonly offsets: Float64Array;
  readonly total: number;
  /** Conflict entries read and sorted: the caller charges it to its budget. */
  readonly work: number;
}

export function pushDown(input: PushDownInput, offsets: Float64Array): PushedDown {
  const n = input.sizes.length;
  const { order, work: orderWork } = buffersByOffset(offsets);
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) rank[order[k]] = k;
  const result = new Float64Array(n);
  const dropped = dropInOrder(input, order, rank, 0, -1, result, Infinity, DropScratch.of(input));
  return { offsets: result, total: dropped.total, work: orderWork + input.adj.length + dropped.sortWork };
}

/**
 * Scratch for a buffer's dropped conflicts, their offsets, and their order by offset
 * (stableOrderByValue: numeric keys, no comparator; comparator sorts of every list took about
 * twice as long, 80-100 ms of a cold plan on a dense 2,000-buffer set); and for dropInOrder, the
 * dropped buffers by offset and a stamp per buffer marking the conflicts of the one being dropped.
 */
export class DropScratch {
  readonly moved: Int32Array;
  readonly movedOffset: Float64Array;
  readonly keys: Float64Array;
  readonly byOffset: Int32Array;
  /** dropInOrder: the buffers dropped so far (and those below `from`), by offset in `result`. */
  readonly placed: Int32Array;
  /** dropInOrder: per buffer, the stamp of the last buffer whose conflict it is. */
  readonly mark: Int32Array;
  /** The last stamp handed out (stamps are never reused, so `mark` is never cleared). */
  stamp = 0;
  /** dropInOrder: the sort work of the drops so far (see there). */
  sortWork = 0;
  /**
   * With live-range spans (PushDownInput.secFrom): beside `placed`, each entry's offset, end and
   * span, so that a drop's walk reads them in order instead of looking each buffer up.
   */
  readonly placedSpans: Float64Array;
  /**
   * With spans: Fenwick trees over the time sections counting the dropped buffers by the
   * section their span starts in and ends in (a drop's conflicts among them, counted without
   * reading its conflict list: dropBySpans).
   */
  readonly startsIn: Int32Array;
  readonly endsIn: Int32Array;
  /**
   * Scratch for drops of `input`: with the span arrays where it gives spans and its conflicts
   * are at least SPAN_WALK_DENSITY of all pairs (see dropBySpans).
   */
  static of(input: PushDownInput): DropScratch {
    const n = input.sizes.length;
    return new DropScratch(n, input.secFrom !== undefined && input.adj.length >= SPAN_WALK_DENSITY * n * n);
  }
  constructor(n: number, spans = false) {
    this.moved = new Int32Array(n);
    this.movedOffset = new Float64Array(n);
    this.keys = new Float64Array(n);
    this.byOffset = new Int32Array(n);
    this.placed = new Int32Array(n);
    this.mark = new Int32Array(n);
    const m = spans ? n : 0;
    this.placedSpans = new Float64Array(SPAN_FIELDS * m);
    // Sections are between distinct times of first and last use: at most 2n.
    this.startsIn = new Int32Array(spans ? 2 * n + 1 : 0);
    this.endsIn = new Int32Array(spans ? 2 * n + 1 : 0);
  }
}

/**
 * Drops the buffers order[from..] in turn, all but `skip`, each to the lowest offset, aligned,
 * clear of its conflicts of lower rank other than `skip` (at their offsets in `result`, where the
 * buffers below `from` must already be). Returns the highest end of the dropped buffers, and the
 * work dropOne would charge for the same drops (m log m per buffer with m such conflicts: the
 * budgets count it, so plans do not depend on how the drops are found); the total is Infinity,
 * and `result` incomplete, once a buffer ends at or above `abortAt`.
 *
 * Each drop is dropOne's (the lowest aligned offset clear of those conflicts is one offset,
 * whatever order they are read in), found mostly without sorting the conflicts: the buffers
 * dropped so far are kept in one list by offset, and a drop walks it from the bottom, reading
 * only the entries stamped as its conflicts, until an entry starts above the offset it has
 * reached (unless the list is long against its conflicts, WALK_PER_SORT_STEP: then it sorts
 * them). On a dense 2,000-buffer set (about 450 conflicts per buffer) a push-down sorted about
 * 225 offsets per buffer, 30-70 ms; the walks and the list's insertions take about 11 ms.
 */
export function dropInOrder(
  input: PushDownInput,
  order: Int32Array,
  rank: Int32Array,
  from: number,
  skip: number,
  result: Float64Array,
  abortAt: number,
  scratch: DropScratch,
): { total: number; sortWork: number } {
  // The drops are loops returning a number, the sort work counted in the scratch as they go:
  // V8 compiles such a loop on stack replacement, and code meeting an object literal after it
  // (or at an abort) was thrown away there, 2-3 times a cold plan.
  scratch.sortWork = 0;
  const total =
    input.secFrom && input.secTo && scratch.placedSpans.length === SPAN_FIELDS * input.sizes.length && scratch.startsIn.length === 2 * input.sizes.length + 1
      ? dropBySpans(input, input.secFrom, input.secTo, order, rank, from, skip, result, abortAt, scratch)
      : dropByMarks(input, order, rank, from, skip, result, abortAt, scratch);
  return { total, sortWork: scratch.sortWork };
}

/** dropInOrder's drops walking the marked list (see there); the highest end, or Infinity. */
function dropByMarks(
  input: PushDownInput,
  order: Int32Array,
  rank: Int32Array,
  from: number,
  skip: number,
  result: Float64Array,
  abortAt: number,
  scratch: DropScratch,
): number {
  const { sizes, alignments, adjStart, adj } = input;
  const { placed, mark } = scratch;
  let count = belowFrom(sizes, order, from, skip, result, scratch);
  let total = 0;
  for (let k = from; k < order.length; k++) {
    const b = order[k];
    if (b === skip) continue;
    if (scratch.stamp === 0x7fffffff) resetStamps(scratch);
    const stamp = ++scratch.stamp;
    const { moved, movedOffset } = scratch;
    let m = 0;
    for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (rank[j] < k && j !== skip && sizes[j] > 0) {
        mark[j] = stamp;
        movedOffset[m] = result[j];
        moved[m++] = j;
      }
    }
    const sorting = m * Math.ceil(Math.log2(m + 1));
    scratch.sortWork += sorting;
    const size = sizes[b];
    let at = 0;
    if (size > 0) at = count <= WALK_PER_SORT_STEP * sorting ? lowestClear(placed, count, mark, stamp, sizes, result, size, alignments[b]) : lowestClearSorted(scratch, m, sizes, result, size, alignments[b]);
    result[b] = at;
    if (size > 0) count = insertByOffset(placed, count, b, result);
    const end = at + size;
    if (end >= abortAt) return Infinity;
    total = Math.max(total, end);
  }
  return total;
}

/**
 * dropInOrder where the conflicts are the overlaps of live-range spans, on dense sets
 * (DropScratch.of): the same drops, the same work. The dropped buffers' offsets, ends and spans
 * are kept by offset in one array beside `placed`, and a drop walks them in order testing span
 * overlap, where the marked walk looked every entry's offset and stamp up by buffer; and it
 * counts its conflicts among them in two Fenwick trees over the sections (those that meet its
 * span: all but the ones starting after it ends and the ones ending before it starts), where
 * the marked walk read its whole conflict list to mark them (18.8M entries per push-down on
 * mixed 10,000-buffer seed 9). A drop that sorts its conflicts still gathers them from its list.
 */
function dropBySpans(
  input: PushDownInput,
  secFrom: Int32Array,
  secTo: Int32Array,
  order: Int32Array,
  rank: Int32Array,
  from: number,
  skip: number,
  result: Float64Array,
  abortAt: number,
  scratch: DropScratch,
): number {
  const { sizes, alignments, adjStart, adj } = input;
  let count = belowFrom(sizes, order, from, skip, result, scratch);
  spansOfPlaced(scratch, count, sizes, result, secFrom, secTo);
  const { startsIn, endsIn } = scratch;
  startsIn.fill(0);
  endsIn.fill(0);
  for (let i = 0; i < count; i++) {
    addAt(startsIn, scratch.placedSpans[SPAN_FIELDS * i + 2]);
    addAt(endsIn, scratch.placedSpans[SPAN_FIELDS * i + 3]);
  }
  let total = 0;
  for (let k = from; k < order.length; k++) {
    const b = order[k];
    if (b === skip) continue;
    // Its conflicts dropped so far (rank below k, not skip, not empty: those listed in `placed`)
    // are the listed spans that meet its own: all but those starting after it ends and those
    // ending before it starts (no span does both).
    const m = countAtMost(startsIn, secTo[b]) - countAtMost(endsIn, secFrom[b] - 1);
    const sorting = m * Math.ceil(Math.log2(m + 1));
    scratch.sortWork += sorting;
    const size = sizes[b];
    let at = 0;
    if (size > 0) {
      if (count <= WALK_PER_SORT_STEP * sorting) {
        at = lowestClearBySpans(scratch, count, secFrom[b], secTo[b], size, alignments[b]);
      } else {
        gatherConflicts(input, b, k, rank, skip, result, scratch);
        at = lowestClearSorted(scratch, m, sizes, result, size, alignments[b]);
      }
    }
    result[b] = at;
    const end = at + size;
    if (size > 0) {
      count = insertSpan(scratch, count, at, end, secFrom[b], secTo[b]);
      addAt(startsIn, secFrom[b]);
      addAt(endsIn, secTo[b]);
    }
    if (end >= abortAt) return Infinity;
    total = Math.max(total, end);
  }
  return total;
}

/** Counts one more at section s in a Fenwick tree over sections (tree[s + 1] is section s's leaf). */
function addAt(tree: Int32Array, s: number): void {
  for (let i = s + 1; i < tree.length; i += i & -i) tree[i]++;
}

/** The count at sections 0..s (none for s < 0). */
function countAtMost(tree: Int32Array, s: number): number {
  let c = 0;
  for (let i = s + 1; i > 0; i -= i & -i) c += tree[i];
  return c;
}

/** The span arrays of scratch.placed[0..count) (belowFrom's list, by offset). */
function spansOfPlaced(scratch: DropScratch, count: number, sizes: Float64Array, result: Float64Array, secFrom: Int32Array, secTo: Int32Array): void {
  const { placed, placedSpans } = scratch;
  for (let i = 0; i < count; i++) {
    const j = placed[i];
    const e = SPAN_FIELDS * i;
    placedSpans[e] = result[j];
    placedSpans[e + 1] = result[j] + sizes[j];
    placedSpans[e + 2] = secFrom[j];
    placedSpans[e + 3] = secTo[j];
  }
}

/** b's conflicts of rank below k other than `skip`, of size above 0, into scratch.moved / movedOffset. */
function gatherConflicts(input: PushDownInput, b: number, k: number, rank: Int32Array, skip: number, result: Float64Array, scratch: DropScratch): void {
  const { sizes, adjStart, adj } = input;
  const { moved, movedOffset } = scratch;
  let m = 0;
  for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
    const j = adj[ai];
    if (rank[j] < k && j !== skip && sizes[j] > 0) {
      movedOffset[m] = result[j];
      moved[m++] = j;
    }
  }
}

/** lowestClear over the span arrays: first fit over the entries whose spans meet [from, to]. */
function lowestClearBySpans(scratch: DropScratch, count: number, from: number, to: number, size: number, align: number): number {
  const spans = scratch.placedSpans;
  let at = 0;
  for (let e = 0; e < SPAN_FIELDS * count; e += SPAN_FIELDS) {
    if (spans[e] >= at + size) break;
    if (spans[e + 2] > to || spans[e + 3] < from) continue;
    const end = spans[e + 1];
    if (end > at) at = roundUp(end, align);
  }
  return at;
}

/** insertByOffset on the span arrays (after equal offsets); the new count. */
function insertSpan(scratch: DropScratch, count: number, at: number, end: number, from: number, to: number): number {
  const spans = scratch.placedSpans;
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (spans[SPAN_FIELDS * mid] <= at) lo = mid + 1;
    else hi = mid;
  }
  const e = SPAN_FIELDS * lo;
  if (lo < count) spans.copyWithin(e + SPAN_FIELDS, e, SPAN_FIELDS * count);
  spans[e] = at;
  spans[e + 1] = end;
  spans[e + 2] = from;
  spans[e + 3] = to;
  return count + 1;
}

/** dropOne's walk over the m conflicts in scratch.moved / movedOffset, sorted by offset first. */
function lowestClearSorted(scratch: DropScratch, m: number, sizes: Float64Array, result: Float64Array, size: number, align: number): number {
  const { moved, movedOffset, keys, byOffset } = scratch;
  const sorted = stableOrderByValue(movedOffset, m, keys, byOffset);
  let at = 0;
  for (let i = 0; i < m; i++) {
    const j = moved[sorted[i]];
    if (result[j] >= at + size) break;
    const end = result[j] + sizes[j];
    if (end > at) at = roundUp(end, align);
  }
  return at;
}

/**
 * Into scratch.placed: the buffers order[0..from) but `skip` and those of size 0, by offset in
 * `result` (a push-down has none; a lift's are in the plan's offset order already). Returns their count.
 */
function belowFrom(sizes: Float64Array, order: Int32Array, from: number, skip: number, result: Float64Array, scratch: DropScratch): number {
  const { placed, keys, byOffset } = scratch;
  let count = 0;
  let sorted = true;
  for (let k = 0; k < from; k++) {
    const j = order[k];
    if (j === skip || sizes[j] === 0) continue;
    if (count > 0 && result[j] < result[placed[count - 1]]) sorted = false;
    placed[count++] = j;
  }
  if (!sorted) {
    const offsets = scratch.movedOffset;
    for (let i = 0; i < count; i++) offsets[i] = result[placed[i]];
    const idx = stableOrderByValue(offsets, count, keys, byOffset);
    const copy = scratch.moved;
    for (let i = 0; i < count; i++) copy[i] = placed[idx[i]];
    placed.set(copy.subarray(0, count));
  }
  return count;
}

function resetStamps(scratch: DropScratch): void {
  scratch.mark.fill(0);
  scratch.stamp = 0;
}

/**
 * The lowest offset, aligned, where `size` bytes clear every buffer of placed[0..count) (by
 * offset) marked with `stamp`: first fit over them, as dropOne's walk over its sorted conflicts.
 */
function lowestClear(
  placed: Int32Array,
  count: number,
  mark: Int32Array,
  stamp: number,
  sizes: Float64Array,
  result: Float64Array,
  size: number,
  align: number,
): number {
  let at = 0;
  for (let i = 0; i < count; i++) {
    const j = placed[i];
    // Every later entry starts at least as high, so none of them can move `at` either.
    if (result[j] >= at + size) break;
    if (mark[j] !== stamp) continue;
    const end = result[j] + sizes[j];
    if (end > at) at = roundUp(end, align);
  }
  return at;
}

/** Inserts b into placed[0..count) by its offset in `result` (after equal ones); the new count. */
function insertByOffset(placed: Int32Array, count: number, b: number, result: Float64Array): number {
  const o = result[b];
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (result[placed[mid]] <= o) lo = mid + 1;
    else hi = mid;
  }
  placed.copyWithin(lo + 1, lo, count);
  placed[lo] = b;
  return count + 1;
}

/**
 * Into result[b]: its lowest offset, aligned, clear of its conflicts j of rank below `below`
 * other than `skip`, at their offsets in `result`. Returns the sort's work.
 */
export function dropOne(input: PushDownInput, b: number, below: number, rank: Int32Array, skip: number, result: Float64Array, scratch: DropScratch): number {
  const { sizes, alignments, adjStart, adj } = input;
  const { moved, movedOffset, keys, byOffset } = scratch;
  let m = 0;
  for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
    const j = adj[ai];
    if (rank[j] < below && j !== skip && sizes[j] > 0) {
      movedOffset[m] = result[j];
      moved[m++] = j;
    }
  }
  const sorted = stableOrderByValue(movedOffset, m, keys, byOffset);
  const size = sizes[b];
  const align = alignments[b];
  let at = 0;
  if (size > 0) {
    for (let i = 0; i < m; i++) {
      const j = moved[sorted[i]];
      if (result[j] >= at + size) break;
      const end = result[j] + sizes[j];
      if (end > at) at = roundUp(end, align);
    }
  }
  result[b] = at;
  return m * Math.ceil(Math.log2(m + 1));
}

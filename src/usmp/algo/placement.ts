/**
 * The placement engine behind `auto`: places buffers in a given order, each at the lowest
 * (first-fit) or tightest (best-fit) gap among the already placed buffers it conflicts with, in
 * the first candidate pool whose size hint allows it. Everything is index based; per position it
 * keeps the running pool ends so that a search can re-place only a suffix of the order, and it
 * keeps a committed copy so that a rejected move is undone in time proportional to what changed.
 */
import { alignmentInPool, IndexedProblem, roundUp } from './indexed';
import { symmetricRows } from '../compactConflicts';
import { PlacedOverlaps } from './placedOverlaps';
import { stableOrderInto, swapInPermutation } from './permutation';

/**
 * Conflicts listed in either direction, without repeats or self loops, as CSR arrays with each
 * row in index order. Two bucket passes instead of a sort per row: the first buckets every
 * listed pair (both directions) by one end, the second walks those buckets in index order and
 * appends each source to its partners' rows, which therefore come out ascending; repeats are
 * then adjacent and dropped.
 */
function symmetricAdjacency(problem: IndexedProblem): { start: Int32Array; adj: Int32Array } {
  // Interval conflicts are symmetric, sorted and free of repeats already; copied, as the engine
  // re-sorts its rows by offset.
  if (problem.intervals) {
    const { start, adj } = problem.intervals.adjacency();
    return { start, adj: adj.slice() };
  }
  // A compiled model's conflicts: the same rows from its ranges and constants' clique.
  if (problem.compact) return symmetricRows(problem.compact);
  const n = problem.count;
  const { conflicts } = problem;
  const degree = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const conf = conflicts[i];
    for (let k = 0; k < conf.length; k++) {
      const j = conf[k];
      if (j === i) continue;
      degree[i]++;
      degree[j]++;
    }
  }
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i] + degree[i];
  const bucketed = new Int32Array(rowStart[n]);
  const fill = rowStart.slice(0, n);
  for (let i = 0; i < n; i++) {
    const conf = conflicts[i];
    for (let k = 0; k < conf.length; k++) {
      const j = conf[k];
      if (j === i) continue;
      bucketed[fill[i]++] = j;
      bucketed[fill[j]++] = i;
    }
  }
  // Pairs are symmetric, so bucket x holding y means bucket y holds x: appending x to the rows
  // of its bucket's entries, for x ascending, gives every row in ascending order.
  const sorted = new Int32Array(rowStart[n]);
  fill.set(rowStart.subarray(0, n));
  for (let x = 0; x < n; x++) {
    for (let ai = rowStart[x]; ai < rowStart[x + 1]; ai++) sorted[fill[bucketed[ai]]++] = x;
  }
  const start = new Int32Array(n + 1);
  let w = 0;
  for (let i = 0; i < n; i++) {
    start[i] = w;
    for (let k = rowStart[i]; k < rowStart[i + 1]; k++) if (k === rowStart[i] || sorted[k] !== sorted[k - 1]) sorted[w++] = sorted[k];
  }
  start[n] = w;
  return { start, adj: sorted.slice(0, w) };
}

/**
 * Neighbour counts above which gap searches sort the neighbours instead of rescanning them (the
 * offset found is the same; only which of two equal ends counts as predecessor may differ, and
 * predecessors only matter in searches, which place with sorted rows).
 */
const SORTED_SCAN_FROM = 16;
/** Per entry of PlacementEngine.placedSpans: offset, end, first use, last use. */
const PLACED_FIELDS = 4;
/**
 * Mean conflicts per buffer from which a full placement keeps each pool's placed buffers in
 * offset order (placedByOffset), so that a buffer's many placed neighbours come in offset order
 * by one walk of that list instead of a sort: a dense 10,000-buffer set (2,000 conflicts per
 * buffer) spent 4.4 of its 5.3 s sorting them. Keeping the list costs an insertion per buffer
 * (a memmove of the pool's placed entries), which sets with short rows would not earn back.
 */
const KEEP_PLACED_ORDER_FROM_DEGREE = 128;
/**
 * ...and only where a buffer's neighbours are a fair share of all buffers (conflicts per buffer
 * over the buffer count): the walk passes every placed buffer below the gap it finds, so on
 * 100,000 short-lived buffers (200 neighbours each, 0.2% of them) the greedy starts became
 * quadratic (firstGapBySpans and the insertions took 27 of a 30 s plan). The sets it was kept
 * for have 3.7% (10,000-buffer mixed seeds 1 and 12) to 22% (long lifetimes s52).
 */
const KEEP_PLACED_ORDER_MIN_DENSITY = 1 / 64;
// The walk passes placed buffers that are not neighbours too; still, on every set measured
// (2,000- and 10,000-buffer long, medium and mixed ones) it took no more CPU than the sort, also
// where neighbours are a tenth of the placed buffers. Kept from 32 or 8 conflicts per buffer,
// the list's insertions cost more than they save (a 10,000-buffer uniform set 0.24 -> 0.5 s).
/** Moves per row entry past which sortRowByOffset stops inserting and sorts by keys. */
const ROW_SORT_MOVES = 8;
/**
 * The same for a row never sorted or sorted by keys last time: likely far out of order again
 * (rows start in index order; where most buffers live together, a move re-places most of them).
 * On a fuzzed 2,000-buffer set of nearly all-overlapping lifetimes the insertions given up at 8
 * moves per entry took a tenth of the plan.
 */
const ROW_SORT_MOVES_AFTER_KEYS = 1;

export class PlacementEngine {
  readonly n: number;
  readonly nPools: number;
  readonly sizes: Float64Array;
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
  /** Per buffer, slice [candStart[b], candStart[b+1]) of candPool/candAlign. */
  private readonly candStart: Int32Array;
  private readonly candPool: Int32Array;
  /** Alignment of a buffer in a pool: lcm of the buffer's and the pool's alignment. */
  private readonly candAlign: Float64Array;
  private readonly limits: Float64Array;

  readonly order: Int32Array;
  readonly pos: Int32Array;
  readonly pool: Int32Array;
  readonly offset: Float64Array;
  /** Per buffer: 1 = best-fit gap choice, 0 = first-fit. */
  readonly bestFit: Uint8Array;
  /** Per buffer: the placed neighbour it sits on (whose end set its offset), or -1. */
  readonly predecessor: Int32Array;
  /** prefixEnds[k * nPools + p]: end of pool p after placing positions [0, k). */
  readonly prefixEnds: Float64Array;
  readonly prefixTotal: Float64Array;
  /**
   * prefixExcess[k]: sum over positions [0, k) of how far each buffer's end sticks out above
   * its pool's excess target. A tie-breaker for searches: among plans with the same total, fewer
   * bytes sticking out above the targets is closer to reaching them.
   */
  readonly prefixExcess: Float64Array;
  /** Per pool: the end a search aims at (see setExcessTargets); Infinity = none. */
  readonly excessTargets: Float64Array;
  /**
   * Keep adjacency rows sorted by offset, lazily: a row is sorted when a placement meets it out
   * of order. Pays off in a search, where offsets change little between placements; placements
   * of unrelated orders (the starts) leave it off and scan unsorted neighbours instead.
   */
  sortRows = false;

  private readonly savedPool: Int32Array;
  private readonly savedOffset: Float64Array;
  private readonly savedPredecessor: Int32Array;
  private readonly savedPrefixEnds: Float64Array;
  private readonly savedPrefixTotal: Float64Array;
  private readonly savedPrefixExcess: Float64Array;

  // Scratch for the neighbours of the buffer being placed.
  private readonly nbOffset: Float64Array;
  private readonly nbEnd: Float64Array;
  private readonly nbId: Int32Array;
  private readonly sortIdx: Int32Array;
  /** Scratch for sortCollected's packed keys. */
  private readonly sortKeys: Float64Array;
  /** Per buffer: its row was sorted by keys last time, or never sorted. */
  private readonly rowKeySorted: Uint8Array;
  /**
   * During a full placement from position 0 with rows still in index order, on sets with long
   * rows (keepsPlacedOrder): per pool, the buffers placed so far in (offset, index) order, and
   * how many. A buffer with many placed neighbours reads their order off this list instead of
   * sorting them: the order sortCollected gives (rows in index order collect ties by index).
   */
  private readonly placedByOffset: Int32Array[];
  /**
   * On interval sets, beside placedByOffset: per entry its offset, end, first and last use
   * (PLACED_FIELDS each), so that a walk by live range reads them in order instead of looking
   * each buffer up (firstGapBySpans, bestGapBySpans).
   */
  private readonly placedSpans: Float64Array[];
  private readonly placedCount: Int32Array;
  private readonly keepsPlacedOrder: boolean;
  /** Scratch of collectedInOrder: per buffer, its place among the neighbours just collected. */
  private readonly collectedAt: Int32Array;
  /** collectedStamp[j] === collectStamp: j is among the neighbours collected last. */
  private readonly collectedStamp: Uint32Array;
  private collectStamp = 0;
  /** The alignment the last collection rounded its neighbours' ends to. */
  private collectedAlign = 1;
  /**
   * On interval sets that keep the placed order: live ranges, and how many placed buffers
   * overlap one, so a buffer with many placed neighbours walks the placed order testing live
   * ranges and never collects its row.
   */
  private readonly liveFirst: Float64Array;
  private readonly liveLast: Float64Array;
  private readonly placedOverlaps?: PlacedOverlaps;
  private placedOrderValid = false;
  /** No row has been re-sorted: rows list neighbours by index. */
  private rowsInIndexOrder = true;
  /**
   * At least half of all pairs conflict: only then do buffers conflicting with every placed one
   * come often enough to pay for keeping the order (an insertion moves up to k entries, which
   * on a sparse 10,000-buffer set would cost more than the sorts it saves).
   */
  private readonly nearlyComplete: boolean;
  private lastPredecessor = -1;
  /** dirty[b] === epoch: b must be re-placed in the current incremental placeFrom. */
  private readonly dirty: Uint32Array;
  private epoch = 1;
  /** Positions [0, reached) hold a valid placement after the last placeFrom. */
  reached = 0;
  /** Buffer that fitted no pool in the last placeFrom, or -1. */
  failedBuffer = -1;
  /**
   * Work done so far: neighbours scanned by placements, and the positions a placeFrom passed
   * (an incremental one re-places a few buffers but carries the running pool ends through every
   * later position). Grows with what the search really did, not with the clock, so a budget in
   * these units gives the same plan on any machine.
   */
  work = 0;

  constructor(problem: IndexedProblem) {
    // Fields that first change after the starts are placed (row sorting, the rows' order, the
    // search's epochs), each written a second time here: V8 takes a field written once for a
    // constant, and threw away the placements it had compiled for the starts at its first
    // change (placeFrom and placeOne, compiled again in every cold plan).
    this.sortRows = true;
    this.sortRows = false;
    this.rowsInIndexOrder = false;
    this.rowsInIndexOrder = true;
    this.epoch = 0;
    this.epoch = 1;
    const n = problem.count;
    this.n = n;
    this.nPools = problem.pools.length;
    this.sizes = problem.sizes;
    const { start, adj } = symmetricAdjacency(problem);
    this.adjStart = start;
    this.adj = adj;
    this.candStart = new Int32Array(n + 1);
    for (let b = 0; b < n; b++) this.candStart[b + 1] = this.candStart[b] + problem.candidates[b].length;
    this.candPool = new Int32Array(this.candStart[n]);
    this.candAlign = new Float64Array(this.candStart[n]);
    for (let b = 0; b < n; b++) {
      problem.candidates[b].forEach((p, k) => {
        this.candPool[this.candStart[b] + k] = p;
        this.candAlign[this.candStart[b] + k] = alignmentInPool(problem, b, p);
      });
    }
    this.limits = problem.poolLimits;
    this.excessTargets = new Float64Array(this.nPools).fill(Infinity);
    this.order = Int32Array.from({ length: n }, (_, i) => i);
    this.pos = Int32Array.from({ length: n }, (_, i) => i);
    this.pool = new Int32Array(n).fill(-1);
    this.offset = new Float64Array(n);
    this.bestFit = new Uint8Array(n);
    this.predecessor = new Int32Array(n).fill(-1);
    this.savedPredecessor = new Int32Array(n).fill(-1);
    this.prefixEnds = new Float64Array((n + 1) * this.nPools);
    this.prefixTotal = new Float64Array(n + 1);
    this.prefixExcess = new Float64Array(n + 1);
    this.savedPrefixExcess = new Float64Array(n + 1);
    this.savedPool = new Int32Array(n);
    this.savedOffset = new Float64Array(n);
    this.savedPrefixEnds = new Float64Array((n + 1) * this.nPools);
    this.savedPrefixTotal = new Float64Array(n + 1);
    let maxDegree = 0;
    for (let b = 0; b < n; b++) maxDegree = Math.max(maxDegree, start[b + 1] - start[b]);
    this.dirty = new Uint32Array(n);
    this.nbOffset = new Float64Array(maxDegree);
    this.nbEnd = new Float64Array(maxDegree);
    this.nbId = new Int32Array(maxDegree);
    this.sortIdx = new Int32Array(maxDegree);
    this.sortKeys = new Float64Array(maxDegree);
    this.rowKeySorted = new Uint8Array(n).fill(1);
    this.nearlyComplete = adj.length >= (n * (n - 1)) / 2;
    this.keepsPlacedOrder =
      this.nearlyComplete || (adj.length >= KEEP_PLACED_ORDER_FROM_DEGREE * n && adj.length >= KEEP_PLACED_ORDER_MIN_DENSITY * n * n);
    this.placedByOffset = Array.from({ length: this.keepsPlacedOrder ? this.nPools : 0 }, () => new Int32Array(n));
    this.placedCount = new Int32Array(this.nPools);
    this.collectedAt = new Int32Array(this.keepsPlacedOrder ? n : 0);
    this.collectedStamp = new Uint32Array(this.keepsPlacedOrder ? n : 0);
    const byTime = this.keepsPlacedOrder ? problem.intervals : undefined;
    this.liveFirst = byTime?.first ?? new Float64Array(0);
    this.liveLast = byTime?.last ?? new Float64Array(0);
    this.placedOverlaps = byTime && new PlacedOverlaps(byTime, this.nPools);
    this.placedSpans = Array.from({ length: byTime ? this.nPools : 0 }, () => new Float64Array(PLACED_FIELDS * n));
  }

  /**
   * Targets from a lower bound on the total: one pool aims at the bound itself. With several,
   * a size-limited pool aims at its limit (capped by the bound) and an unlimited one at what the
   * bound leaves once the limited pools are full: the total reaches the bound only if the
   * unlimited pools end there. (Measured against the whole bound, buffers in a second pool would
   * never stick out, leaving the search and its kicks without guidance.)
   */
  setExcessTargets(lowerBound: number): void {
    let limited = 0;
    for (let p = 0; p < this.nPools; p++) if (this.limits[p] < Infinity) limited += Math.min(this.limits[p], lowerBound);
    for (let p = 0; p < this.nPools; p++) {
      this.excessTargets[p] =
        this.nPools === 1 ? lowerBound : this.limits[p] < Infinity ? Math.min(this.limits[p], lowerBound) : Math.max(0, lowerBound - limited);
    }
  }

  /** Whether placed buffer b ends above its pool's excess target. */
  protrudes(b: number): boolean {
    const p = this.pool[b];
    return p >= 0 && this.offset[b] + this.sizes[b] > this.excessTargets[p];
  }

  setOrder(order: ArrayLike<number>): void {
    for (let k = 0; k < this.n; k++) {
      this.order[k] = order[k];
      this.pos[order[k]] = k;
    }
  }

  /** Sum of pool ends of the full placement (valid when reached === n). */
  get total(): number {
    return this.prefixTotal[this.n];
  }

  get excess(): number {
    return this.prefixExcess[this.n];
  }

  poolEnd(p: number): number {
    return this.prefixEnds[this.n * this.nPools + p];
  }

  /** Starts recording a change to the order or policies for an incremental placeFrom. */
  beginChange(): void {
    this.epoch++;
  }

  /** b changed position relative to others: b and all its neighbours must be re-placed. */
  markMoved(b: number): void {
    const { dirty, adj, epoch } = this;
    dirty[b] = epoch;
    for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) dirty[adj[ai]] = epoch;
  }

  /** b's own placement rule changed (e.g. its gap policy): b must be re-placed. */
  markDirty(b: number): void {
    this.dirty[b] = this.epoch;
  }

  /**
   * Re-places positions [start, n). Full mode re-places everything; incremental mode (after
   * beginChange/mark*) re-places only marked buffers and, transitively, the neighbours of any
   * buffer whose placement came out different: an unmarked buffer sees exactly the same
   * placed neighbours as before, so its placement would not change. Stops as soon as the
   * running total exceeds `abortAbove`, or equals it with the excess above `abortExcess`
   * (returns Infinity; both only grow along the order), or a buffer fits no pool (returns
   * Infinity, sets failedBuffer).
   */
  placeFrom(start: number, abortAbove: number, incremental = false, abortExcess = Infinity): number {
    const P = this.nPools;
    const { dirty, epoch, adj } = this;
    this.failedBuffer = -1;
    this.placedOrderValid = !incremental && start === 0 && this.rowsInIndexOrder && this.keepsPlacedOrder;
    if (this.placedOrderValid) {
      this.placedCount.fill(0);
      this.placedOverlaps?.clear();
    }
    for (let k = start; k < this.n; k++) {
      const b = this.order[k];
      const base = k * P;
      if (!incremental || dirty[b] === epoch) {
        const oldPool = this.pool[b];
        const oldOffset = this.offset[b];
        if (!this.placeOne(b, k)) {
          this.reached = k;
          this.failedBuffer = b;
          this.work += k - start;
          return Infinity;
        }
        if (this.placedOrderValid) this.insertPlaced(b);
        if (incremental && (this.pool[b] !== oldPool || this.offset[b] !== oldOffset)) {
          for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) dirty[adj[ai]] = epoch;
        }
      }
      const p = this.pool[b];
      const end = this.offset[b] + this.sizes[b];
      let total = this.prefixTotal[k];
      for (let q = 0; q < P; q++) this.prefixEnds[base + P + q] = this.prefixEnds[base + q];
      const before = this.prefixEnds[base + p];
      if (end > before) {
        this.prefixEnds[base + P + p] = end;
        total += end - before;
      }
      this.prefixTotal[k + 1] = total;
      const target = this.excessTargets[p];
      const excess = this.prefixExcess[k] + (end > target ? end - target : 0);
      this.prefixExcess[k + 1] = excess;
      if (total > abortAbove || (total === abortAbove && excess > abortExcess)) {
        this.reached = k + 1;
        this.work += k + 1 - start;
        return Infinity;
      }
    }
    this.reached = this.n;
    // Charged per position passed: with short conflict rows an incremental step placed a
    // buffer or two for a few units and then walked every later position uncharged, so a
    // fuzzed multi-pool set of 1,170 buffers spent its 5M-unit search in 9.5 s.
    this.work += this.n - start;
    return this.prefixTotal[this.n];
  }

  private placeOne(b: number, k: number): boolean {
    const size = this.sizes[b];
    this.work += 1 + this.adjStart[b + 1] - this.adjStart[b];
    // The row is sorted once: nothing moves while b's candidate pools are tried.
    let rowSorted = false;
    for (let ci = this.candStart[b]; ci < this.candStart[b + 1]; ci++) {
      const p = this.candPool[ci];
      let at: number;
      if (this.bestFit[b] === 1 && this.sortRows) {
        if (!rowSorted) this.sortRowByOffset(b);
        rowSorted = true;
        at = this.bestGapInOrder(b, k, p, this.candAlign[ci], size);
      } else if (this.placedOrderValid && this.placedOverlaps !== undefined && !this.sortRows && this.placedOverlaps.overlapping(b, p) > SORTED_SCAN_FROM) {
        // What the collected, sorted neighbours give (below), read off the placed order.
        at = this.bestFit[b] === 1 ? this.bestGapBySpans(b, p, this.candAlign[ci], size) : this.firstGapBySpans(b, p, this.candAlign[ci], size);
      } else if (this.bestFit[b] === 1) {
        const m = this.collectPlaced(b, k, p, this.candAlign[ci]);
        at = this.bestGap(m, size, p);
      } else {
        at = this.firstGapInOrder(b, k, p, this.candAlign[ci], size);
        if (at < 0 && this.sortRows && !rowSorted) {
          // The row drifted out of offset order: sort it by the current offsets (its placed
          // entries then come in order) and take the now exact pass.
          this.sortRowByOffset(b);
          rowSorted = true;
          at = this.firstGapInOrder(b, k, p, this.candAlign[ci], size);
        } else if (at < 0) {
          const m = this.collectPlaced(b, k, p, this.candAlign[ci]);
          at = this.firstGap(m, size, p);
        }
      }
      if (at + size <= this.limits[p]) {
        this.pool[b] = p;
        this.offset[b] = at;
        this.predecessor[b] = this.lastPredecessor;
        return true;
      }
    }
    return false;
  }

  /**
   * First-fit straight from b's adjacency row, without collecting: one pass is exact when the
   * placed neighbours in pool p come in offset order: a neighbour skipped before a jump either
   * ended below the old candidate or started above it, and so does every later one. Returns -1
   * when the pass met an offset out of order.
   */
  private firstGapInOrder(b: number, k: number, p: number, align: number, size: number): number {
    const { adj, pos, pool, offset, sizes } = this;
    let at = 0;
    let from = -1;
    let prevOffset = -Infinity;
    for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (pos[j] >= k || pool[j] !== p) continue;
      const o = offset[j];
      if (o < prevOffset) return -1;
      prevOffset = o;
      if (o < at + size) {
        const e = align === 1 ? o + sizes[j] : roundUp(o + sizes[j], align);
        if (e > at) {
          at = e;
          from = j;
        }
      }
    }
    this.lastPredecessor = from;
    return at;
  }

  /**
   * Lowest offset clear of the m collected neighbours, in any order: jump over whatever overlaps
   * until a full pass finds nothing (each jump is forced, so the result is the lowest fit).
   */
  private firstGap(m: number, size: number, p: number): number {
    if (m > SORTED_SCAN_FROM) return this.firstGapSorted(m, size, p);
    const { nbOffset, nbEnd, nbId } = this;
    let at = 0;
    let from = -1;
    let moved = true;
    while (moved) {
      moved = false;
      for (let i = 0; i < m; i++) {
        if (nbOffset[i] < at + size && nbEnd[i] > at) {
          at = nbEnd[i];
          from = nbId[i];
          moved = true;
        }
      }
    }
    this.lastPredecessor = from;
    return at;
  }

  /** Sorts the m collected neighbours by offset (stable, by collection order) into sortIdx. */
  private sortCollected(m: number): Int32Array {
    return stableOrderInto(this.nbOffset, m, this.sortKeys, this.sortIdx);
  }

  /**
   * firstGap for many neighbours: the repeated passes cost up to m^2 (a dense row of a 100k-buffer
   * set), one pass in offset order gives the same offset in m log m.
   */
  private firstGapSorted(m: number, size: number, p: number): number {
    const { nbOffset, nbEnd, nbId } = this;
    if (this.placedOrderValid) return this.firstGapByPlacedOrder(p, this.collectedAlign, size, this.stampCollected(m));
    const idx = this.sortCollected(m);
    let at = 0;
    let from = -1;
    for (let s = 0; s < m; s++) {
      const i = idx[s];
      if (nbOffset[i] >= at + size) break;
      if (nbEnd[i] > at) {
        at = nbEnd[i];
        from = nbId[i];
      }
    }
    this.lastPredecessor = from;
    return at;
  }

  /**
   * bestGap straight from b's adjacency row, just sorted by offset: its placed neighbours in pool
   * p come in the order bestGap's sort gives (ties in row order), so one pass needs no copies.
   * (By live range, from the pool's kept placed order: bestGapBySpans.)
   */
  private bestGapInOrder(b: number, k: number, p: number, align: number, size: number): number {
    const { adj, pos, pool, offset, sizes } = this;
    let cand = 0;
    let candFrom = -1;
    let gapAt = -1;
    let gapFrom = -1;
    let gapLen = Infinity;
    for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (pos[j] >= k || pool[j] !== p) continue;
      const o = offset[j];
      if (cand + size <= o && o - cand < gapLen) {
        gapLen = o - cand;
        gapAt = cand;
        gapFrom = candFrom;
      }
      const e = align === 1 ? o + sizes[j] : roundUp(o + sizes[j], align);
      if (e > cand) {
        cand = e;
        candFrom = j;
      }
    }
    this.lastPredecessor = gapAt >= 0 ? gapFrom : candFrom;
    return gapAt >= 0 ? gapAt : cand;
  }

  /** Start of the smallest gap between the m collected neighbours that holds the buffer, else the top. */
  private bestGap(m: number, size: number, p: number): number {
    const { nbOffset, nbEnd, nbId } = this;
    let sortIdx = this.sortIdx;
    if (m > SORTED_SCAN_FROM) {
      // The same stable order as the insertion sort below, in m log m.
      sortIdx = this.collectedInOrder(m, p);
    } else {
      for (let i = 0; i < m; i++) {
        const o = nbOffset[i];
        let k = i;
        while (k > 0 && nbOffset[sortIdx[k - 1]] > o) {
          sortIdx[k] = sortIdx[k - 1];
          k--;
        }
        sortIdx[k] = i;
      }
    }
    let cand = 0;
    let candFrom = -1;
    let gapAt = -1;
    let gapFrom = -1;
    let gapLen = Infinity;
    for (let s = 0; s < m; s++) {
      const i = sortIdx[s];
      const o = nbOffset[i];
      if (cand + size <= o && o - cand < gapLen) {
        gapLen = o - cand;
        gapAt = cand;
        gapFrom = candFrom;
      }
      if (nbEnd[i] > cand) {
        cand = nbEnd[i];
        candFrom = nbId[i];
      }
    }
    this.lastPredecessor = gapAt >= 0 ? gapFrom : candFrom;
    return gapAt >= 0 ? gapAt : cand;
  }

  /**
   * firstGapSorted's pass over the pool's kept order (placedByOffset): b's placed neighbours,
   * those stamped `stamp` by the last collection, come in the same (offset, index) order; the
   * walk stops at the first placed buffer, a neighbour or not, that starts at or above the
   * candidate's end, as every later one does. (By live range: firstGapBySpans.)
   */
  private firstGapByPlacedOrder(p: number, align: number, size: number, stamp: number): number {
    const { offset, sizes, collectedStamp } = this;
    const list = this.placedByOffset[p];
    const count = this.placedCount[p];
    let at = 0;
    let from = -1;
    for (let s = 0; s < count; s++) {
      const j = list[s];
      const o = offset[j];
      if (o >= at + size) break;
      if (collectedStamp[j] === stamp) {
        const e = align === 1 ? o + sizes[j] : roundUp(o + sizes[j], align);
        if (e > at) {
          at = e;
          from = j;
        }
      }
    }
    this.lastPredecessor = from;
    return at;
  }

  /** Marks the m neighbours just collected (collectedStamp) with their places (collectedAt). */
  private stampCollected(m: number): number {
    const { collectedAt, collectedStamp, nbId } = this;
    // The stamps are 32-bit: a stamp that wrapped would match entries of long ago.
    if (this.collectStamp === 0xffffffff) {
      collectedStamp.fill(0);
      this.collectStamp = 0;
    }
    const stamp = ++this.collectStamp;
    for (let c = 0; c < m; c++) {
      collectedAt[nbId[c]] = c;
      collectedStamp[nbId[c]] = stamp;
    }
    return stamp;
  }

  /**
   * The m neighbours just collected in pool p in (offset, collection) order, into sortIdx:
   * read off the pool's kept order during a full placement (see placedByOffset), else sorted.
   */
  private collectedInOrder(m: number, p: number): Int32Array {
    if (!this.placedOrderValid) return this.sortCollected(m);
    const { sortIdx, collectedAt, collectedStamp } = this;
    const stamp = this.stampCollected(m);
    const list = this.placedByOffset[p];
    const count = this.placedCount[p];
    let t = 0;
    for (let s = 0; s < count && t < m; s++) {
      const j = list[s];
      if (collectedStamp[j] === stamp) sortIdx[t++] = collectedAt[j];
    }
    return sortIdx;
  }

  /** Adds b, just placed, to its pool's buffers in (offset, index) order. */
  private insertPlaced(b: number): void {
    const p = this.pool[b];
    const list = this.placedByOffset[p];
    const count = this.placedCount[p];
    const o = this.offset[b];
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const j = list[mid];
      if (this.offset[j] < o || (this.offset[j] === o && j < b)) lo = mid + 1;
      else hi = mid;
    }
    list.copyWithin(lo + 1, lo, count);
    list[lo] = b;
    this.placedCount[p] = count + 1;
    if (this.placedOverlaps) {
      this.placedOverlaps.add(b, p);
      const spans = this.placedSpans[p];
      const e = PLACED_FIELDS * lo;
      if (lo < count) spans.copyWithin(e + PLACED_FIELDS, e, PLACED_FIELDS * count);
      spans[e] = o;
      spans[e + 1] = o + this.sizes[b];
      spans[e + 2] = this.liveFirst[b];
      spans[e + 3] = this.liveLast[b];
    }
  }

  /**
   * firstGapByPlacedOrder by live range (b's placed neighbours are the placed buffers whose live
   * ranges overlap its own) over the kept spans: the same walk, in the same order, reading each entry's offset, end and live range from one array in order (on a
   * 10,000-buffer set of 1,900 conflicts per buffer, the lookups by buffer were most of a
   * placement's time).
   */
  private firstGapBySpans(b: number, p: number, align: number, size: number): number {
    const list = this.placedByOffset[p];
    const spans = this.placedSpans[p];
    const end = PLACED_FIELDS * this.placedCount[p];
    const bFirst = this.liveFirst[b];
    const bLast = this.liveLast[b];
    let at = 0;
    let from = -1;
    for (let e = 0; e < end; e += PLACED_FIELDS) {
      if (spans[e] >= at + size) break;
      if (spans[e + 2] <= bLast && bFirst <= spans[e + 3]) {
        const top = align === 1 ? spans[e + 1] : roundUp(spans[e + 1], align);
        if (top > at) {
          at = top;
          from = list[e / PLACED_FIELDS];
        }
      }
    }
    this.lastPredecessor = from;
    return at;
  }

  /**
   * bestGapInOrder by live range over the kept spans (see firstGapBySpans): b's placed
   * neighbours in (offset, index) order, the order bestGap's sort gives.
   */
  private bestGapBySpans(b: number, p: number, align: number, size: number): number {
    const list = this.placedByOffset[p];
    const spans = this.placedSpans[p];
    const end = PLACED_FIELDS * this.placedCount[p];
    const bFirst = this.liveFirst[b];
    const bLast = this.liveLast[b];
    let cand = 0;
    let candFrom = -1;
    let gapAt = -1;
    let gapFrom = -1;
    let gapLen = Infinity;
    for (let e = 0; e < end; e += PLACED_FIELDS) {
      if (spans[e + 2] > bLast || bFirst > spans[e + 3]) continue;
      const o = spans[e];
      if (cand + size <= o && o - cand < gapLen) {
        gapLen = o - cand;
        gapAt = cand;
        gapFrom = candFrom;
      }
      const top = align === 1 ? spans[e + 1] : roundUp(spans[e + 1], align);
      if (top > cand) {
        cand = top;
        candFrom = list[e / PLACED_FIELDS];
      }
    }
    this.lastPredecessor = gapAt >= 0 ? gapFrom : candFrom;
    return gapAt >= 0 ? gapAt : cand;
  }

  /**
   * Gathers the neighbours of b placed before position k in pool p: offsets, ends rounded up to
   * b's alignment in p (an aligned start at or above such an end clears the neighbour), ids.
   */
  private collectPlaced(b: number, k: number, p: number, align: number): number {
    const { adj, pos, pool, offset, sizes, nbOffset, nbEnd, nbId } = this;
    this.collectedAlign = align;
    let m = 0;
    for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (pos[j] < k && pool[j] === p) {
        nbOffset[m] = offset[j];
        nbEnd[m] = align === 1 ? offset[j] + sizes[j] : roundUp(offset[j] + sizes[j], align);
        nbId[m] = j;
        m++;
      }
    }
    return m;
  }

  /**
   * Stable insertion sort of b's adjacency row by the neighbours' current offsets: cheap, as
   * rows are nearly sorted from the last time. Placed neighbours then come in offset order.
   * A row far out of order (more than ROW_SORT_MOVES moves per entry, ROW_SORT_MOVES_AFTER_KEYS
   * when it needed the keys last time) is sorted by packed keys
   * instead, which gives the same order (both sorts are stable): on sets with long-lived
   * buffers (rows of 300-450 entries) the insertion sort's quadratic moves took a sixth of a
   * cold plan.
   */
  private sortRowByOffset(b: number): void {
    this.rowsInIndexOrder = false;
    const { adj, offset } = this;
    const lo = this.adjStart[b];
    const hi = this.adjStart[b + 1];
    let moves = (this.rowKeySorted[b] ? ROW_SORT_MOVES_AFTER_KEYS : ROW_SORT_MOVES) * (hi - lo);
    this.rowKeySorted[b] = 0;
    for (let ai = lo + 1; ai < hi; ai++) {
      const j = adj[ai];
      const o = offset[j];
      let k = ai;
      while (k > lo && offset[adj[k - 1]] > o) {
        adj[k] = adj[k - 1];
        k--;
      }
      adj[k] = j;
      moves -= ai - k;
      if (moves < 0) {
        this.rowKeySorted[b] = 1;
        this.sortRowByKeys(lo, hi);
        return;
      }
    }
  }

  /** sortRowByOffset for a row far out of order: one stable sort by packed keys. */
  private sortRowByKeys(lo: number, hi: number): void {
    const { adj, offset, nbOffset, nbId } = this;
    const m = hi - lo;
    for (let i = 0; i < m; i++) {
      const j = adj[lo + i];
      nbId[i] = j;
      nbOffset[i] = offset[j];
    }
    const idx = stableOrderInto(nbOffset, m, this.sortKeys, this.sortIdx);
    for (let s = 0; s < m; s++) adj[lo + s] = nbId[idx[s]];
  }

  /** Makes the current placement from position `start` on the one rollback returns to. */
  commit(start: number): void {
    for (let k = start; k < this.n; k++) {
      const b = this.order[k];
      this.savedPool[b] = this.pool[b];
      this.savedOffset[b] = this.offset[b];
      this.savedPredecessor[b] = this.predecessor[b];
    }
    this.savedPrefixEnds.set(this.prefixEnds.subarray(start * this.nPools), start * this.nPools);
    this.savedPrefixTotal.set(this.prefixTotal.subarray(start), start);
    this.savedPrefixExcess.set(this.prefixExcess.subarray(start), start);
  }

  /** Undoes the placements made since the last commit, before the order itself is restored. */
  rollback(start: number): void {
    for (let k = start; k < this.reached; k++) {
      const b = this.order[k];
      this.pool[b] = this.savedPool[b];
      this.offset[b] = this.savedOffset[b];
      this.predecessor[b] = this.savedPredecessor[b];
    }
    const to = Math.min(this.n, this.reached + 1);
    this.prefixEnds.set(this.savedPrefixEnds.subarray(start * this.nPools, (to + 1) * this.nPools), start * this.nPools);
    this.prefixTotal.set(this.savedPrefixTotal.subarray(start, to + 1), start);
    this.prefixExcess.set(this.savedPrefixExcess.subarray(start, to + 1), start);
  }

  /** Moves the buffer at position `from` to position `to`, shifting those in between. */
  move(from: number, to: number): void {
    const { order, pos } = this;
    const b = order[from];
    if (from > to) {
      for (let k = from; k > to; k--) {
        order[k] = order[k - 1];
        pos[order[k]] = k;
      }
    } else {
      for (let k = from; k < to; k++) {
        order[k] = order[k + 1];
        pos[order[k]] = k;
      }
    }
    order[to] = b;
    pos[b] = to;
  }

  swap(i: number, j: number): void {
    swapInPermutation(this.order, this.pos, i, j);
  }
}

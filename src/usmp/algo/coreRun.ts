/**
 * One depth-first run of the exact core (exactCore.ts) on one partition, at one capacity, with
 * one preorder: the search over canonical solutions in spatial order, with dominance and
 * section inference (see exactCore.ts for the ideas).
 *
 * A class rather than closures inside the core: the core starts hundreds of short runs per
 * call, and closures made afresh by each run are new call targets for V8, so the optimized code
 * of one run deoptimized at every call into the next run's helpers ("wrong call target", about
 * two thousand times per call). Methods keep one target.
 *
 * `dynamic`: among the candidates tied at a level's lowest offset, the first one tried is the
 * one living in the section with the least slack (the section that most needs filling at that
 * height), not the first in preorder; the others follow in preorder, and ties may be placed in
 * any order, so the run stays exhaustive.
 *
 * `decompose`: MiniMalloc's dynamic decomposition (Moreira et al., ASPLOS 2023). Once every
 * buffer crossing the moment between two sections is placed, the buffers left on either side
 * never meet again: each side (a segment) is searched on its own, left to right, its spatial
 * order starting afresh at the lowest offset. A segment that has no packing fails the placement
 * that cut it off, so the search jumps straight back there instead of re-enumerating the
 * packings of the segments solved before it, which a plain depth-first search does,
 * exponentially. Pruning inside a segment reads only the segment: its dominance height and the
 * bytes its sections still hold above the current offset.
 */
import { gathered } from './gathered';
import { LowFrontier } from './lowFrontier';
import { MaxTree, RANGE_QUERY_WORK } from './maxTree';
import { PairLog } from './pairLog';
import { orderByColumnsDescending, swapEntries, swapInPermutation } from './permutation';

export type RunResult = 'fits' | 'infeasible' | 'unknown';

/**
 * Segments still to search after the current one (a persistent list, so each search level
 * keeps the one in force when it opened and backtracking restores it for free): sections
 * [lo, hi], cut off by the placement at level `owner`.
 */
interface PendingSegment {
  readonly lo: number;
  readonly hi: number;
  readonly owner: number;
  readonly next: PendingSegment | null;
}

/**
 * Preorder keys, as MiniMalloc's letters (each descending): T the largest section total the
 * buffer lives in, W lifetime, A size x lifetime, Z size, E end.
 */
export type PreorderKey = 'T' | 'W' | 'A' | 'Z' | 'E';

/**
 * How a decomposing run orders each new segment: by `heuristic` over `keys`, except T, which is
 * taken afresh from the bytes each section still holds (MiniMalloc re-sorts every sub-problem
 * so). Measured on MiniMalloc's benchmark sets: with the preorder of the whole partition kept,
 * two sets that MiniMalloc packs in a few thousand nodes stayed out of reach.
 */
export interface SegmentOrder {
  readonly heuristic: readonly PreorderKey[];
  readonly keys: Readonly<Record<PreorderKey, Float64Array>>;
}

/** openLevel's answer for a segment with no buffer left to place. */
const SEGMENT_DONE = -2;
/**
 * Work units per section a placement or its undoing updates (a max-tree path and the undo
 * log): measured against the candidate scans' unit, which the budgets were set in. Before the
 * levels' sorted lists (below), each tried candidate was charged a full scan and these were
 * lost in it; without them a run whose candidates fail at once took up to three times the time
 * per unit.
 */
const SECTION_UPDATE_WORK = 3;
/**
 * A whole-partition level reads the low frontier (lowFrontier.ts) instead of every unplaced
 * buffer while its dominance height is within the frontier's reach. A rebuild sets the reach
 * this many mean sizes above the height it found (1/2, 2 and 4 were 3-5% slower than 1 on
 * seven 2,000-buffer sets). Runs of fewer buffers (the constructor's `frontierFrom`), or with
 * a zero-size one (a candidate at any height), scan them all. The answers, offsets and work
 * are the same either way: the frontier only skips buffers the scans would pass over.
 */
const FRONTIER_MARGIN = 1;
const FRONTIER_MIN_PART = 64;
/**
 * A level scans the unplaced buffers for each of its first candidates (a dive tries one or two);
 * after this many it sorts the rest once and walks the list: on MiniMalloc's benchmark sets the
 * search tries hundreds of thousands of candidates that fail at once, each a full scan before.
 */
const LIST_AFTER_TRIES = 2;

/** The core's static tables a run reads. */
export interface CoreTables {
  readonly n: number;
  readonly sizes: Float64Array;
  readonly alignments: Float64Array;
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
  /** Per buffer: sections [secFrom, secTo] it is live in. */
  readonly secFrom: Int32Array;
  readonly secTo: Int32Array;
  readonly sectionCount: number;
  /** Buffers live in each section (CSR). */
  readonly memStart: Int32Array;
  readonly members: Int32Array;
  /** Per section: the bytes of every buffer live in it. */
  readonly sectionBytes: Float64Array;
  /**
   * Per buffer, its size rounded up to the gcd of the alignments: a buffer with another one above
   * it in a section takes at least that much (exactCore.ts, stackedSizes).
   */
  readonly stackedSizes: Float64Array;
  /**
   * Per section: the least height its buffers take stacked (their stacked sizes, less the most
   * any one of them saves on top): a run's starting `need`.
   */
  readonly sectionStack: Float64Array;
  /**
   * Per section, its members by what each saves on top (stacked size less size), most first;
   * absent when no buffer saves anything (then need is rest).
   */
  readonly savers?: Int32Array;
  /**
   * Per buffer, the lowest offset it may take (aligned; without them, 0): a re-solve of part of
   * a plan, the rest fixed below (exactCore.ts, CoreProblem.floors); with them, per section, its
   * buffer of the lowest floor (the first one of its members at that floor).
   */
  readonly floors?: Float64Array;
  readonly lowestFloor?: Int32Array;
}

/*
 * The CoreRun constructor's passes over its part, as functions of their own. A cold plan starts
 * a few dozen runs (53 on mixed seed 78); with these loops in it, the constructor got hot and
 * V8 compiled all of it, twice (a big function: the run's fields and arrays), in the
 * background on the one core the run needs. Without them it stays in the interpreter, where
 * the rest of it (allocations) takes about as long.
 */

/** The least of `values[b]` over the buffers b of `part`, and `from`. */
function lowestOf(part: Int32Array, values: Int32Array, from: number): number {
  let low = from;
  for (let i = 0; i < part.length; i++) low = Math.min(low, values[part[i]]);
  return low;
}

/** The greatest of `values[b]` over the buffers b of `part`, and `from`. */
function highestOf(part: Int32Array, values: Int32Array, from: number): number {
  let high = from;
  for (let i = 0; i < part.length; i++) high = Math.max(high, values[part[i]]);
  return high;
}

/** Whether a buffer of `part` has size zero. */
function hasZeroSize(part: Int32Array, sizes: Float64Array): boolean {
  for (let i = 0; i < part.length; i++) if (sizes[part[i]] === 0) return true;
  return false;
}

/** The bytes of the buffers of `part`. */
function bytesOf(part: Int32Array, sizes: Float64Array): number {
  let bytes = 0;
  for (let i = 0; i < part.length; i++) bytes += sizes[part[i]];
  return bytes;
}

/** `v` rounded up to a multiple of `a` (most alignments in a run are 1 or one pool's). */
export const roundUp = (v: number, a: number): number => (a === 1 ? v : Math.ceil(v / a) * a);

/**
 * Empty arrays whose elements kind is already that of what they will hold (doubles; segments
 * and null). A new `[]` holds small integers until its first other value (an offset, a level's
 * infinite key, a null segment) turns it into another kind with another hidden class: the code
 * V8 had optimized for the last run's arrays then no longer matched the next run's fresh ones,
 * and `place` was compiled four times per cold plan instead of once. One function per kind:
 * V8 remembers the most general kind each array literal has held, and gives it to later arrays
 * from that literal too.
 */
function doubleStack(): number[] {
  const stack = [0.5];
  stack.pop();
  return stack;
}
function segmentStack(): (PendingSegment | null)[] {
  const stack: (PendingSegment | null)[] = [null];
  stack.pop();
  return stack;
}

export class CoreRun {
  /** Work spent by this run (candidate scans, conflict and section updates). */
  work = 0;
  /** The most levels the run has had open at once (each places one buffer): how near a fit it came. */
  deepest = 0;
  private readonly sizes: Float64Array;
  private readonly stackedSizes: Float64Array;
  private readonly alignments: Float64Array;
  private readonly adjStart: Int32Array;
  private readonly adj: Int32Array;
  private readonly secFrom: Int32Array;
  private readonly secTo: Int32Array;
  private readonly memStart: Int32Array;
  private readonly members: Int32Array;

  private readonly placed: Uint8Array;
  private readonly minOffset: Float64Array;
  /** Per section, the bytes of its unplaced buffers: what the preorders and the tie rule rank by. */
  private readonly rest: Float64Array;
  private readonly restTree: MaxTree;
  /**
   * Per section, the least height its unplaced buffers still need stacked: their stacked sizes
   * less the most one of them saves on top (never below their bytes; 0 once none is left). What
   * the inference and the ceiling test. The same arrays as rest when every size is a multiple
   * of the alignments' gcd.
   */
  private readonly need: Float64Array;
  private readonly needTree: MaxTree;
  /**
   * Per section, where its unplaced buffer that saves the most is in `savers` (every member
   * before it is placed); undo log: (section, old position) pairs, then their count, per
   * placement. A section's need subtracts that buffer's saving, not the most any member saved:
   * once that one is placed below others, the rest stack a whole alignment higher at a tight
   * moment, which the need did not see (passSaver).
   */
  private readonly savers: Int32Array | undefined;
  private readonly saverAt: Int32Array;
  private readonly logSaver: number[] = [];
  /**
   * Per buffer, in how many sections it is the unplaced one saving the most: most placements
   * are of buffers that are so nowhere, and skip the walk over their sections.
   */
  private readonly saverIn: Int32Array;
  /** The unplaced buffers, compact (swap-remove; placements are undone in reverse order). */
  private readonly unplaced: Int32Array;
  private readonly slot: Int32Array;
  /**
   * Per slot of `unplaced`, copies of what the levels' scans read (offset, size, preorder rank,
   * first section), kept in step with it: the scans then read four arrays in order instead of
   * four by buffer (about 40% of a run's time on 2,000 random intervals was the level scan).
   */
  private readonly slotOffset: Float64Array;
  private readonly slotSize: Float64Array;
  private readonly slotPre: Int32Array;
  private readonly slotFrom: Int32Array;
  private unplacedCount: number;
  /** Undo logs: (buffer, old minOffset) and (section, old witness), with a mark per level (their lengths). */
  private readonly logMin = new PairLog();
  private readonly logWit = new PairLog();
  /**
   * Witnesses: per live section, an unplaced buffer that can still sit low enough for the
   * section's remaining bytes to fit under the capacity (minOffset <= C - rest). Each buffer
   * heads a linked list of the sections it witnesses, so a raise costs nothing unless the
   * raised buffer is a witness.
   */
  private readonly witness: Int32Array;
  private readonly wNext: Int32Array;
  private readonly wPrev: Int32Array;
  private readonly wHead: Int32Array;
  /** The dominance height of the level openLevel last opened. */
  private levelHeight = Infinity;
  /**
   * The ceiling of that level: the highest offset at which a buffer of its segment can go, the
   * capacity less the most bytes any of the segment's sections still holds. A buffer placed at
   * offset o covers its sections' unplaced buffers (they all conflict with it), which then sit
   * above it, so every section it lives in needs o + its remaining bytes <= C; every other
   * section needs it too, as nothing more goes below o. Candidates come in offset order, so the
   * first one above the ceiling ends the level. (The test after the placement found these
   * failures only after walking the buffer's conflicts and sections: on MiniMalloc's benchmark
   * sets they were 80-97% of the rejected candidates.)
   */
  private levelCeiling = Infinity;
  /** What scanLevel found: the lowest candidate's slot (-1 for none), its offset, how many buffers the segment holds. */
  private scanBest = -1;
  private scanBestOffset = Infinity;
  private scanInSegment = 0;
  /** Undefined where the run scans every unplaced buffer (see FRONTIER_MARGIN). */
  private readonly frontier: LowFrontier | undefined;
  private readonly frontierMargin: number;
  private readonly ties: Int32Array;
  /**
   * Decomposing runs: per boundary s (between sections s and s + 1), the unplaced buffers live
   * on both sides; the boundaries the last placement brought to zero, ascending.
   */
  private readonly cuts: Int32Array;
  private readonly newCuts: number[] = [];
  /** The partition's sections. */
  private readonly partLo: number;
  private readonly partHi: number;
  /** The preorder, the run's own copy when segments re-rank it; undo log (buffer, old rank). */
  private readonly pre: Int32Array;
  private readonly logPre: number[] = [];
  /**
   * The search stack, per level: the key its candidates must be above (that of the buffer
   * placed on the level below, or none at a segment's start), the dominance height, the buffer
   * tried, the candidate a dynamic run tried first (the others then go in preorder), the undo
   * marks, the segment searched, the segments pending and, at the start of a segment other
   * than its cut's first, the level that cut it off; how many candidates it tried, or where
   * its sorted list is (below).
   */
  private readonly floorOffset: number[] = doubleStack();
  private readonly floorPre: number[] = [];
  private readonly heights: number[] = doubleStack();
  private readonly ceilings: number[] = doubleStack();
  private readonly chosen: number[] = [];
  private readonly firstTried: number[] = [];
  private readonly markMin: number[] = [];
  private readonly markWit: number[] = [];
  private readonly markPre: number[] = [];
  private readonly segLo: number[] = [];
  private readonly segHi: number[] = [];
  private readonly pending = segmentStack();
  private readonly jumpTo: number[] = [];
  private readonly triesAt: number[] = [];
  private readonly listStart: number[] = [];
  /** The numeric per-level stacks that popLevel only drops. */
  private readonly levelStacks: number[][] = [
    this.floorOffset,
    this.floorPre,
    this.heights,
    this.ceilings,
    this.chosen,
    this.firstTried,
    this.markMin,
    this.markWit,
    this.segLo,
    this.segHi,
    this.jumpTo,
    this.triesAt,
  ];
  /** The sorted candidate lists of the levels that have one, stacked. */
  private readonly candidates: number[] = [];
  /** Whether solve has opened the first level (a later call resumes the search). */
  private started = false;
  /** A section whose bytes cannot fit above its buffers' floors: nothing to search. */
  private deadAtStart = false;
  /** The first candidate of the level opened last. */
  private firstCandidate = -1;

  constructor(
    tables: CoreTables,
    private readonly part: Int32Array,
    pre: Int32Array,
    private readonly dynamic: boolean,
    private readonly capacity: number,
    private readonly decompose = false,
    private readonly segmentOrder?: SegmentOrder,
    frontierFrom = FRONTIER_MIN_PART,
  ) {
    this.pre = segmentOrder ? pre.slice() : pre;
    const { n, sectionCount, sizes, secFrom, secTo } = tables;
    this.sizes = sizes;
    this.stackedSizes = tables.stackedSizes;
    this.alignments = tables.alignments;
    this.adjStart = tables.adjStart;
    this.adj = tables.adj;
    this.secFrom = secFrom;
    this.secTo = secTo;
    this.memStart = tables.memStart;
    this.members = tables.members;
    // A run's part is a whole partition (exactCore.ts): its sections are [lo, hi] and hold
    // only its buffers, so the per-section tables come from the core's in O(sections); loops
    // over every buffer's sections, run once per run, took most of a short run's set-up.
    const lo = lowestOf(part, secFrom, sectionCount);
    const hi = highestOf(part, secTo, 0);
    this.partLo = lo;
    this.partHi = hi;
    this.placed = new Uint8Array(n);
    this.minOffset = new Float64Array(n);
    this.rest = new Float64Array(sectionCount);
    this.rest.set(tables.sectionBytes.subarray(lo, hi + 1), lo);
    this.restTree = new MaxTree(this.rest);
    if (tables.sectionStack === tables.sectionBytes) {
      this.need = this.rest;
      this.needTree = this.restTree;
    } else {
      this.need = new Float64Array(sectionCount);
      this.need.set(tables.sectionStack.subarray(lo, hi + 1), lo);
      this.needTree = new MaxTree(this.need);
    }
    // Absent exactly when need is rest (stackedHeights, exactCore.ts).
    this.savers = tables.savers;
    this.saverAt = new Int32Array(this.savers ? sectionCount : 0);
    this.saverIn = new Int32Array(this.savers ? n : 0);
    if (this.savers) {
      this.saverAt.set(this.memStart.subarray(lo, hi + 1), lo);
      this.countSaversIn();
    }
    this.unplaced = Int32Array.from(part);
    this.slot = new Int32Array(n);
    this.slotOffset = new Float64Array(part.length);
    this.slotSize = new Float64Array(part.length);
    this.slotPre = new Int32Array(part.length);
    this.slotFrom = new Int32Array(part.length);
    this.fillSlots(tables.floors);
    const bytes = bytesOf(part, sizes);
    const zeroSize = hasZeroSize(part, sizes);
    this.frontier = part.length >= frontierFrom && !zeroSize ? new LowFrontier(n, part.length) : undefined;
    this.frontierMargin = (FRONTIER_MARGIN * bytes) / Math.max(1, part.length);
    this.unplacedCount = part.length;
    this.ties = new Int32Array(part.length);
    this.witness = new Int32Array(sectionCount).fill(-1);
    this.wNext = new Int32Array(sectionCount).fill(-1);
    this.wPrev = new Int32Array(sectionCount).fill(-1);
    this.wHead = new Int32Array(n).fill(-1);
    this.linkWitnesses(tables);
    this.cuts = new Int32Array(decompose ? sectionCount : 0);
    if (decompose) this.countCuts();
    // Setting up is charged too, as it was when it walked every buffer's sections: on small
    // problems the core starts thousands of short runs.
    const spans = this.memStart[hi + 1] - this.memStart[lo];
    this.work = n + (decompose ? 4 : 3) * sectionCount + (decompose ? 3 : 2) * spans;
  }

  /** Per section of the part: its first saver counts as a first saver of that buffer. */
  private countSaversIn(): void {
    const { memStart, saverIn, partLo, partHi } = this;
    const savers = this.savers!;
    for (let sec = partLo; sec <= partHi; sec++) if (memStart[sec + 1] > memStart[sec]) saverIn[savers[memStart[sec]]]++;
  }

  /** The per-slot copies, and the floors as the lowest offsets. */
  private fillSlots(floors: Float64Array | undefined): void {
    const { part, sizes, secFrom, pre, slot, slotOffset, slotSize, slotPre, slotFrom, minOffset } = this;
    for (let i = 0; i < part.length; i++) {
      const b = part[i];
      slot[b] = i;
      slotSize[i] = sizes[b];
      slotPre[i] = pre[b];
      slotFrom[i] = secFrom[b];
      if (floors) minOffset[b] = slotOffset[i] = floors[b];
    }
  }

  /**
   * Each section's first witness: its first member (the lowest index), or with floors the one
   * of the lowest floor, which must leave room for the section's bytes.
   */
  private linkWitnesses(tables: CoreTables): void {
    const { memStart, members, partLo, partHi, need, capacity } = this;
    const { floors, lowestFloor } = tables;
    for (let sec = partLo; sec <= partHi; sec++) {
      if (floors && lowestFloor) {
        const w = lowestFloor[sec];
        this.link(sec, w);
        if (floors[w] > capacity - need[sec]) this.deadAtStart = true;
      } else this.link(sec, members[memStart[sec]]);
    }
  }

  /** Decomposing runs: per boundary, the buffers live on both sides (prefix sums). */
  private countCuts(): void {
    const { part, secFrom, secTo, cuts, partLo, partHi } = this;
    for (const b of part) {
      if (secTo[b] === secFrom[b]) continue;
      cuts[secFrom[b]]++;
      cuts[secTo[b]]--;
    }
    for (let s = partLo + 1; s <= partHi; s++) cuts[s] += cuts[s - 1];
  }

  /**
   * Searches until a fit (its offsets go into `out`), an exhausted space ('infeasible', a
   * proof), or more than `limit` work in all ('unknown'). After 'unknown' a later call with a
   * higher limit goes on where this one stopped: the search loses nothing by pausing.
   */
  solve(limit: number, out: Float64Array): RunResult {
    const { minOffset, logMin, logWit, logPre, dynamic, floorOffset, floorPre, chosen, firstTried, heights } = this;
    const { markMin, markWit, segLo, segHi, pending, jumpTo, triesAt, listStart, candidates, ceilings } = this;
    if (this.deadAtStart) return 'infeasible';
    if (!this.started) {
      this.started = true;
      this.pushLevel(-Infinity, -1, this.partLo, this.partHi, null, -1, 0);
      this.firstCandidate = this.openLevel(-Infinity, -1, this.partLo, this.partHi);
      heights[0] = this.levelHeight;
      ceilings[0] = this.levelCeiling;
    }
    while (chosen.length > 0) {
      // Stopped here, between two candidates of a level, the run can go on later (resume).
      if (this.work > limit) return 'unknown';
      const level = chosen.length - 1;
      let afterOffset = floorOffset[level];
      let afterPre = floorPre[level];
      const tried = chosen[level];
      // Read after the unplacement: the run's own preorder may have been re-ranked below.
      const pre = this.pre;
      if (tried >= 0) {
        this.unplace(tried, markMin[level], markWit[level]);
        // After a dynamic first pick, the preorder walk starts from the level's floor.
        if (tried !== firstTried[level] || !dynamic) {
          afterOffset = minOffset[tried];
          afterPre = pre[tried];
        }
      }
      const lo = segLo[level];
      const hi = segHi[level];
      let b: number;
      if (tried < 0) {
        b = this.firstCandidate;
        firstTried[level] = b;
      } else if (listStart[level] >= 0) {
        b = triesAt[level] < candidates.length ? candidates[triesAt[level]] : -1;
        this.work++;
      } else if (triesAt[level] < LIST_AFTER_TRIES) {
        b = this.nextCandidate(afterOffset, afterPre, heights[level], ceilings[level], dynamic ? firstTried[level] : -1, lo, hi);
      } else {
        // A level that keeps failing: its remaining candidates, sorted once.
        listStart[level] = candidates.length;
        this.listCandidates(afterOffset, afterPre, heights[level], ceilings[level], dynamic ? firstTried[level] : -1, lo, hi);
        triesAt[level] = listStart[level];
        b = triesAt[level] < candidates.length ? candidates[triesAt[level]] : -1;
      }
      triesAt[level]++;
      if (b < 0) {
        // A segment with no packing: the placement that cut it off fails.
        const target = jumpTo[level];
        this.popLevel();
        while (chosen.length - 1 > target && target >= 0) {
          const lv = chosen.length - 1;
          this.unplace(chosen[lv], markMin[lv], markWit[lv]);
          this.popLevel();
        }
        continue;
      }
      markMin[level] = logMin.length;
      markWit[level] = logWit.length;
      chosen[level] = b;
      if (!this.place(b, lo, hi)) continue;
      if (this.unplacedCount === 0) {
        for (const x of this.part) out[x] = minOffset[x];
        return 'fits';
      }
      let nextLo = lo;
      let nextHi = hi;
      let nextPending = pending[level];
      let jump = -1;
      let keyOffset = minOffset[b];
      // A dynamic run may place ties at one offset in any order.
      let keyPre = dynamic ? -1 : pre[b];
      const { newCuts } = this;
      if (newCuts.length > 0) {
        // Search the leftmost side first; the others wait, rightmost deepest.
        for (let k = newCuts.length - 1; k >= 0; k--) {
          const from = newCuts[k] + 1;
          const to = k + 1 < newCuts.length ? newCuts[k + 1] : hi;
          nextPending = { lo: from, hi: to, owner: level, next: nextPending };
        }
        nextHi = newCuts[0];
        keyOffset = -Infinity;
        keyPre = -1;
      }
      const preMark = logPre.length;
      if (newCuts.length > 0) this.rankSegment(nextLo, nextHi);
      let first = this.openLevel(keyOffset, keyPre, nextLo, nextHi);
      // A finished segment: the next one pending starts afresh.
      while (first === SEGMENT_DONE && nextPending !== null) {
        nextLo = nextPending.lo;
        nextHi = nextPending.hi;
        jump = nextPending.owner;
        nextPending = nextPending.next;
        keyOffset = -Infinity;
        keyPre = -1;
        this.rankSegment(nextLo, nextHi);
        first = this.openLevel(keyOffset, keyPre, nextLo, nextHi);
      }
      this.firstCandidate = first;
      this.pushLevel(keyOffset, keyPre, nextLo, nextHi, nextPending, jump, preMark);
    }
    return 'infeasible';
  }

  private pushLevel(keyOffset: number, keyPre: number, lo: number, hi: number, rest: PendingSegment | null, jump: number, preMark: number): void {
    if (this.chosen.length >= this.deepest) this.deepest = this.chosen.length + 1;
    this.floorOffset.push(keyOffset);
    this.floorPre.push(keyPre);
    this.heights.push(this.levelHeight);
    this.ceilings.push(this.levelCeiling);
    this.chosen.push(-1);
    this.firstTried.push(-1);
    this.markMin.push(0);
    this.markWit.push(0);
    this.markPre.push(preMark);
    this.segLo.push(lo);
    this.segHi.push(hi);
    this.pending.push(rest);
    this.jumpTo.push(jump);
    this.triesAt.push(0);
    this.listStart.push(-1);
  }

  /** Drops the top level (its buffer already unplaced), undoing its segment's re-ranking. */
  private popLevel(): void {
    const { logPre, pre } = this;
    const mark = this.markPre.pop()!;
    while (logPre.length > mark) {
      const old = logPre.pop()!;
      const b = logPre.pop()!;
      pre[b] = old;
      this.slotPre[this.slot[b]] = old;
    }
    const list = this.listStart.pop()!;
    if (list >= 0) this.candidates.length = list;
    this.pending.pop();
    for (const stack of this.levelStacks) stack.pop();
  }

  /** A new segment's preorder (see SegmentOrder), logged for backtracking. */
  private rankSegment(lo: number, hi: number): void {
    const order = this.segmentOrder;
    if (!order) return;
    const { pre, logPre } = this;
    const segment = this.segmentBuffers(lo, hi);
    // In index order, so that orderByColumnsDescending's ties by position are ties by index.
    segment.sort();
    const ranked = orderByColumnsDescending(
      order.heuristic.map((key) => (key === 'T' ? this.busiestOf(segment) : gathered(order.keys[key], segment))),
      segment.length,
    );
    for (let rank = 0; rank < segment.length; rank++) {
      const b = segment[ranked[rank]];
      logPre.push(b, pre[b]);
      pre[b] = rank;
      this.slotPre[this.slot[b]] = rank;
    }
    this.work += this.unplacedCount + segment.length * (RANGE_QUERY_WORK + 2 + Math.ceil(Math.log2(segment.length + 1)));
  }

  /** The unplaced buffers whose first section is in [lo, hi]. */
  private segmentBuffers(lo: number, hi: number): Int32Array {
    const { unplaced, secFrom } = this;
    const segment = new Int32Array(this.unplacedCount);
    let count = 0;
    for (let k = 0; k < this.unplacedCount; k++) {
      const b = unplaced[k];
      if (secFrom[b] >= lo && secFrom[b] <= hi) segment[count++] = b;
    }
    return segment.subarray(0, count);
  }

  /** Per buffer of `segment`: the most bytes still to place in one of its sections. */
  private busiestOf(segment: Int32Array): Float64Array {
    const { restTree, secFrom, secTo } = this;
    const busiest = new Float64Array(segment.length);
    for (let i = 0; i < segment.length; i++) busiest[i] = restTree.rangeMax(secFrom[segment[i]], secTo[segment[i]]);
    return busiest;
  }

  private link(sec: number, w: number): void {
    const { witness, wNext, wPrev, wHead } = this;
    witness[sec] = w;
    wPrev[sec] = -1;
    wNext[sec] = w < 0 ? -1 : wHead[w];
    if (w >= 0) {
      if (wHead[w] >= 0) wPrev[wHead[w]] = sec;
      wHead[w] = sec;
    }
  }

  private unlink(sec: number): void {
    const { witness, wNext, wPrev, wHead } = this;
    const w = witness[sec];
    if (w < 0) return;
    if (wPrev[sec] >= 0) wNext[wPrev[sec]] = wNext[sec];
    else wHead[w] = wNext[sec];
    if (wNext[sec] >= 0) wPrev[wNext[sec]] = wPrev[sec];
    witness[sec] = -1;
  }

  /** A new witness for `sec` (its lowest unplaced buffer); false when none is low enough. */
  private rewitness(sec: number): boolean {
    const { memStart, members, placed, minOffset } = this;
    const threshold = this.capacity - this.need[sec];
    let best = -1;
    let bestOffset = Infinity;
    for (let k = memStart[sec]; k < memStart[sec + 1]; k++) {
      const j = members[k];
      if (placed[j] === 1) continue;
      const o = minOffset[j];
      if (o <= threshold && o < bestOffset) {
        best = j;
        bestOffset = o;
      }
    }
    this.work += memStart[sec + 1] - memStart[sec];
    this.logWit.push(sec, this.witness[sec]);
    this.unlink(sec);
    this.link(sec, best);
    return best >= 0 || this.need[sec] <= 0;
  }

  /** Re-checks the sections `j` witnesses; false when one is left without a witness. */
  private recheck(j: number): boolean {
    for (let sec = this.wHead[j]; sec >= 0; ) {
      const following = this.wNext[sec];
      if ((this.placed[j] || this.minOffset[j] > this.capacity - this.need[sec]) && !this.rewitness(sec)) return false;
      sec = following;
    }
    return true;
  }

  /** Places b at its lowest offset; false when the segment [lo, hi] can no longer be packed. */
  private place(b: number, lo: number, hi: number): boolean {
    const { sizes, alignments, adjStart, adj, secFrom, secTo, placed, minOffset, rest, restTree, slot, slotOffset, logMin } = this;
    const raisedFrom = logMin.length;
    const o = minOffset[b];
    const top = o + sizes[b];
    placed[b] = 1;
    const last = --this.unplacedCount;
    this.swapSlots(slot[b], last);
    // Conflicts mostly share one alignment: their raised offset is computed once.
    let lastAlignment = 0;
    let raised = 0;
    // The row's end read once: after a store into a typed array V8 cannot tell that another
    // array's entries did not change (two views may share a buffer) and read it again per entry.
    for (let ai = adjStart[b], end = adjStart[b + 1]; ai < end; ai++) {
      const j = adj[ai];
      if (placed[j]) continue;
      if (alignments[j] !== lastAlignment) {
        lastAlignment = alignments[j];
        raised = roundUp(top, lastAlignment);
      }
      if (raised > minOffset[j]) {
        logMin.push(j, minOffset[j]);
        minOffset[j] = raised;
        slotOffset[slot[j]] = raised;
      }
    }
    restTree.addRange(rest, secFrom[b], secTo[b], -sizes[b]);
    this.work += 1 + adjStart[b + 1] - adjStart[b] + SECTION_UPDATE_WORK * (secTo[b] - secFrom[b] + 1);
    if (this.need !== rest) this.updateNeed(b, -1);
    if (this.savers) this.passSaver(b);
    if (this.decompose) {
      const { cuts, newCuts } = this;
      newCuts.length = 0;
      for (let s = secFrom[b]; s < secTo[b]; s++) if (--cuts[s] === 0) newCuts.push(s);
      this.work += secTo[b] - secFrom[b];
    }
    // The segment's sections hold their remaining bytes above b's offset (its level's
    // ceiling); each must also hold them above the lowest offset its unplaced buffers can take.
    if (!this.recheck(b)) return false;
    for (let k = raisedFrom; k < logMin.length; k += 2) if (!this.recheck(logMin.at(k))) return false;
    return true;
  }

  /** Exchanges two slots of `unplaced` with their copies. */
  private swapSlots(x: number, y: number): void {
    if (x === y) return;
    swapInPermutation(this.unplaced, this.slot, x, y);
    swapEntries(this.slotOffset, x, y);
    swapEntries(this.slotSize, x, y);
    swapEntries(this.slotPre, x, y);
    swapEntries(this.slotFrom, x, y);
  }

  /** Takes b's stacked size off its sections' need (sign -1) or gives it back (+1). */
  private updateNeed(b: number, sign: number): void {
    const { need, needTree, secFrom, secTo } = this;
    const size = sign * this.stackedSizes[b];
    needTree.addRange(need, secFrom[b], secTo[b], size);
  }

  /**
   * b placed: in each section where it was the unplaced buffer saving the most, the next such
   * one takes its place, and the section needs the difference more.
   */
  private passSaver(b: number): void {
    const { savers, saverAt, saverIn, memStart, placed, stackedSizes, sizes, need, needTree, logSaver } = this;
    const list = savers!;
    const count = saverIn[b];
    let passed = 0;
    for (let s = this.secFrom[b]; passed < count && s <= this.secTo[b]; s++) {
      const at = saverAt[s];
      if (list[at] !== b) continue;
      const end = memStart[s + 1];
      let k = at + 1;
      while (k < end && placed[list[k]] === 1) k++;
      this.work += k - at;
      const next = k < end ? stackedSizes[list[k]] - sizes[list[k]] : 0;
      const more = stackedSizes[b] - sizes[b] - next;
      if (more !== 0) {
        needTree.addRange(need, s, s, more);
        this.work += RANGE_QUERY_WORK;
      }
      logSaver.push(s, at);
      saverAt[s] = k;
      if (k < end) saverIn[list[k]]++;
      passed++;
    }
    saverIn[b] -= passed;
    logSaver.push(passed);
  }

  /** Undoes passSaver(b). */
  private restoreSaver(b: number): void {
    const { savers, saverAt, saverIn, memStart, stackedSizes, sizes, need, needTree, logSaver } = this;
    const list = savers!;
    const passed = logSaver.pop()!;
    for (let i = 0; i < passed; i++) {
      const at = logSaver.pop()!;
      const s = logSaver.pop()!;
      const k = saverAt[s];
      const inList = k < memStart[s + 1];
      const next = inList ? stackedSizes[list[k]] - sizes[list[k]] : 0;
      const more = stackedSizes[b] - sizes[b] - next;
      if (more !== 0) needTree.addRange(need, s, s, -more);
      if (inList) saverIn[list[k]]--;
      saverAt[s] = at;
    }
    saverIn[b] += passed;
  }

  private unplace(b: number, minMark: number, witMark: number): void {
    const { sizes, secFrom, secTo, rest, restTree, minOffset, logMin, logWit } = this;
    this.work += 1 + SECTION_UPDATE_WORK * (secTo[b] - secFrom[b] + 1) + (logMin.length - minMark + logWit.length - witMark) / 2;
    while (logWit.length > witMark) {
      const old = logWit.pop();
      const sec = logWit.pop();
      this.unlink(sec);
      this.link(sec, old);
    }
    restTree.addRange(rest, secFrom[b], secTo[b], sizes[b]);
    if (this.need !== rest) this.updateNeed(b, 1);
    if (this.savers) this.restoreSaver(b);
    if (this.decompose) for (let s = secFrom[b]; s < secTo[b]; s++) this.cuts[s]++;
    const { frontier } = this;
    const reach = frontier === undefined ? -Infinity : frontier.reach;
    while (logMin.length > minMark) {
      const old = logMin.pop();
      const j = logMin.pop();
      minOffset[j] = old;
      this.slotOffset[this.slot[j]] = old;
      if (old <= reach) frontier!.admit(j);
    }
    this.placed[b] = 0;
    if (minOffset[b] <= reach) frontier!.admit(b);
    // b is at slot unplacedCount (every later removal has been undone): grow the list back.
    this.unplacedCount++;
  }

  /**
   * The unplaced buffer of the segment [lo, hi] with the smallest (minOffset, preorder) key
   * above (afterOffset, afterPre) that fits under the capacity and below `minHeight`, or -1.
   */
  private nextCandidate(afterOffset: number, afterPre: number, minHeight: number, ceiling: number, exclude: number, lo: number, hi: number): number {
    const { capacity, slotOffset, slotSize, slotPre, slotFrom, frontier } = this;
    const count = this.unplacedCount;
    const whole = lo === this.partLo && hi === this.partHi;
    this.work += count;
    if (whole && frontier !== undefined && minHeight <= frontier.reach) return this.nextInFrontier(frontier, afterOffset, afterPre, minHeight, ceiling, exclude);
    const skip = exclude >= 0 ? this.slot[exclude] : -1;
    let best = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    for (let k = 0; k < count; k++) {
      if (k === skip || (!whole && (slotFrom[k] < lo || slotFrom[k] > hi))) continue;
      const o = slotOffset[k];
      const p = slotPre[k];
      if (o < afterOffset || (o === afterOffset && p <= afterPre)) continue;
      if (o > bestOffset || (o === bestOffset && p > bestPre)) continue;
      const size = slotSize[k];
      if ((o >= minHeight && size > 0) || o > ceiling || o + size > capacity) continue;
      best = k;
      bestOffset = o;
      bestPre = p;
    }
    return best < 0 ? -1 : this.unplaced[best];
  }

  /**
   * nextCandidate on a whole-partition level whose dominance height `minHeight` is within the
   * frontier's reach: every candidate (below that height, no size being zero) is listed.
   */
  private nextInFrontier(frontier: LowFrontier, afterOffset: number, afterPre: number, minHeight: number, ceiling: number, exclude: number): number {
    const { capacity, minOffset, sizes, pre, placed } = this;
    const { list } = frontier;
    let best = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    for (let i = 0; i < frontier.count; i++) {
      const b = list[i];
      const o = minOffset[b];
      if (o >= minHeight || placed[b] === 1 || b === exclude) continue;
      const p = pre[b];
      if (o < afterOffset || (o === afterOffset && p <= afterPre)) continue;
      if (o > bestOffset || (o === bestOffset && p > bestPre)) continue;
      if (o > ceiling || o + sizes[b] > capacity) continue;
      best = b;
      bestOffset = o;
      bestPre = p;
    }
    return best;
  }

  /**
   * Into `candidates`: every buffer nextCandidate would return from here on, in its order (the
   * level's state is the same at each of its calls).
   */
  private listCandidates(afterOffset: number, afterPre: number, minHeight: number, ceiling: number, exclude: number, lo: number, hi: number): void {
    const { minOffset, pre, candidates, frontier } = this;
    const from = candidates.length;
    const count = this.unplacedCount;
    const whole = lo === this.partLo && hi === this.partHi;
    if (whole && frontier !== undefined && minHeight <= frontier.reach) this.listFromFrontier(frontier, afterOffset, afterPre, minHeight, ceiling, exclude);
    else this.listFromSlots(afterOffset, afterPre, minHeight, ceiling, exclude, whole, lo, hi);
    const m = candidates.length - from;
    if (m > 1) {
      const sorted = candidates.slice(from).sort((x, y) => minOffset[x] - minOffset[y] || pre[x] - pre[y]);
      for (let k = 0; k < m; k++) candidates[from + k] = sorted[k];
    }
    this.work += count + m * Math.ceil(Math.log2(m + 1));
  }

  /** listCandidates' pass over every unplaced buffer of the segment [lo, hi]. */
  private listFromSlots(afterOffset: number, afterPre: number, minHeight: number, ceiling: number, exclude: number, whole: boolean, lo: number, hi: number): void {
    const { unplaced, capacity, candidates, slotOffset, slotSize, slotPre, slotFrom } = this;
    const skip = exclude >= 0 ? this.slot[exclude] : -1;
    for (let k = 0; k < this.unplacedCount; k++) {
      if (k === skip || (!whole && (slotFrom[k] < lo || slotFrom[k] > hi))) continue;
      const o = slotOffset[k];
      if (o < afterOffset || (o === afterOffset && slotPre[k] <= afterPre)) continue;
      const size = slotSize[k];
      if ((o >= minHeight && size > 0) || o > ceiling || o + size > capacity) continue;
      candidates.push(unplaced[k]);
    }
  }

  /** listCandidates' pass when the frontier holds every candidate (see nextInFrontier). */
  private listFromFrontier(frontier: LowFrontier, afterOffset: number, afterPre: number, minHeight: number, ceiling: number, exclude: number): void {
    const { capacity, minOffset, sizes, pre, placed, candidates } = this;
    const { list } = frontier;
    for (let i = 0; i < frontier.count; i++) {
      const b = list[i];
      const o = minOffset[b];
      if (o >= minHeight || placed[b] === 1 || b === exclude) continue;
      if (o < afterOffset || (o === afterOffset && pre[b] <= afterPre)) continue;
      if (o > ceiling || o + sizes[b] > capacity) continue;
      candidates.push(b);
    }
  }

  /**
   * For a new level in the segment [lo, hi]: the dominance height (lowest top any of its
   * unplaced buffers can reach, left in levelHeight) and the level's first candidate (-1 for
   * none, SEGMENT_DONE when nothing is left to place there), in one pass.
   */
  private openLevel(afterOffset: number, afterPre: number, lo: number, hi: number): number {
    const { unplaced, sizes, capacity, needTree, frontier } = this;
    const count = this.unplacedCount;
    const whole = lo === this.partLo && hi === this.partHi;
    const ceiling = capacity - (whole ? needTree.max() : needTree.rangeMax(lo, hi));
    this.levelCeiling = ceiling;
    this.work += count + RANGE_QUERY_WORK;
    const listed = whole && frontier !== undefined && count > 0;
    let tieCount = listed ? this.scanFrontier(frontier, afterOffset, afterPre, ceiling) : -1;
    if (tieCount < 0) {
      tieCount = this.scanLevel(afterOffset, afterPre, ceiling, whole, lo, hi);
      if (listed) this.rebuildFrontier(frontier, this.levelHeight + this.frontierMargin);
    }
    const h = this.levelHeight;
    if (this.scanInSegment === 0) return SEGMENT_DONE;
    const best = this.scanBest < 0 ? -1 : unplaced[this.scanBest];
    const bestOffset = this.scanBestOffset;
    // The smallest key is dominated: so is every other, unless a zero-size buffer is left.
    if (best >= 0 && bestOffset >= h && sizes[best] > 0) return this.nextCandidate(afterOffset, afterPre, h, ceiling, -1, lo, hi);
    if (this.dynamic && best >= 0) return this.leastSlackTie(best, bestOffset, h, tieCount);
    return best;
  }

  /**
   * openLevel's pass over the segment's unplaced buffers, in a method of its own: V8 compiles
   * this loop on stack replacement, and that code, meeting openLevel's rarely taken branches
   * after the loop without type feedback, deoptimized there at each later call without being
   * dropped (thousands of times in a plan, a fifth of a cold call). Leaves levelHeight,
   * scanBest (a slot, -1 for none), scanBestOffset and scanInSegment; the slots of the
   * candidates tied at the lowest offset go into `ties`, in scan order; returns their count.
   */
  private scanLevel(afterOffset: number, afterPre: number, ceiling: number, whole: boolean, lo: number, hi: number): number {
    const { capacity, ties, slotOffset, slotSize, slotPre, slotFrom } = this;
    const count = this.unplacedCount;
    let h = Infinity;
    let bestSlot = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    let tieCount = 0;
    let inSegment = 0;
    for (let k = 0; k < count; k++) {
      // The whole partition (every run that does not decompose): no section test.
      if (!whole && (slotFrom[k] < lo || slotFrom[k] > hi)) continue;
      inSegment++;
      const o = slotOffset[k];
      const top = o + slotSize[k];
      if (top < h) h = top;
      if (o > bestOffset || o > ceiling || top > capacity) continue;
      const p = slotPre[k];
      if (o < afterOffset || (o === afterOffset && p <= afterPre)) continue;
      if (o < bestOffset) {
        tieCount = 0;
        bestSlot = k;
        bestOffset = o;
        bestPre = p;
      } else if (p < bestPre) {
        bestSlot = k;
        bestPre = p;
      }
      ties[tieCount++] = k;
    }
    this.levelHeight = h;
    this.scanBest = bestSlot;
    this.scanBestOffset = bestOffset;
    this.scanInSegment = inSegment;
    return tieCount;
  }

  /**
   * scanLevel from the frontier; -1 when the level's dominance height is past the reach (a full
   * scan must answer). The level's candidates below that height are all listed. When none of
   * them is a candidate, the level has none below its height, and scanLevel's lowest candidate,
   * dominated, only decides whether openLevel then charges a (fruitless) nextCandidate: any
   * candidate will do, so the slots are read until one is found (rarely needed: the reach is
   * mostly above the ceiling).
   */
  private scanFrontier(frontier: LowFrontier, afterOffset: number, afterPre: number, ceiling: number): number {
    const tieCount = this.readFrontier(frontier, afterOffset, afterPre, ceiling);
    const h = this.levelHeight;
    const { reach } = frontier;
    if (h > reach) return -1;
    // Unlisted buffers sit above the reach: at or above the ceiling, none is a candidate.
    if (this.scanBest < 0 && reach < ceiling) {
      const slot = this.anyCandidate(afterOffset, afterPre, ceiling);
      if (slot >= 0) {
        this.scanBest = slot;
        this.scanBestOffset = this.slotOffset[slot];
      }
    }
    this.scanInSegment = this.unplacedCount;
    return tieCount;
  }

  /**
   * scanFrontier's pass, dropping the buffers placed or risen past the reach: leaves the
   * listed buffers' lowest top in levelHeight, their lowest candidate's slot and offset in
   * scanBest and scanBestOffset, its ties' slots in `ties`; returns their count. The choice is
   * scanLevel's, read from the arrays by buffer instead of the slot copies: two loops, as each
   * is a hot loop of its own, where a shared helper per buffer would cost a call or field
   * writes per buffer. (A method with nothing after its loop: V8 compiles the loop on stack
   * replacement, and that code, meeting the caller's rarely taken branch without type
   * feedback, deoptimized there at each later call, about 4,000 times in a cold plan.)
   */
  private readFrontier(frontier: LowFrontier, afterOffset: number, afterPre: number, ceiling: number): number {
    const { capacity, ties, minOffset, sizes, pre, placed, slot } = this;
    const { list, listed, reach } = frontier;
    let h = Infinity;
    let best = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    let tieCount = 0;
    let kept = 0;
    for (let i = 0; i < frontier.count; i++) {
      const b = list[i];
      const o = minOffset[b];
      if (placed[b] === 1 || o > reach) {
        listed[b] = 0;
        continue;
      }
      list[kept++] = b;
      const top = o + sizes[b];
      if (top < h) h = top;
      if (o > bestOffset || o > ceiling || top > capacity) continue;
      const p = pre[b];
      if (o < afterOffset || (o === afterOffset && p <= afterPre)) continue;
      if (o < bestOffset) {
        tieCount = 0;
        best = b;
        bestOffset = o;
        bestPre = p;
      } else if (p < bestPre) {
        best = b;
        bestPre = p;
      }
      ties[tieCount++] = slot[b];
    }
    frontier.count = kept;
    this.levelHeight = h;
    this.scanBest = best < 0 ? -1 : slot[best];
    this.scanBestOffset = bestOffset;
    return tieCount;
  }

  /** The first slot (in slot order) holding a candidate of the whole partition's level, or -1. */
  private anyCandidate(afterOffset: number, afterPre: number, ceiling: number): number {
    const { capacity, slotOffset, slotSize, slotPre } = this;
    const count = this.unplacedCount;
    for (let k = 0; k < count; k++) {
      const o = slotOffset[k];
      if (o > ceiling || o + slotSize[k] > capacity) continue;
      if (o < afterOffset || (o === afterOffset && slotPre[k] <= afterPre)) continue;
      return k;
    }
    return -1;
  }

  /** Lists every unplaced buffer at or below `reach`, and only those. */
  private rebuildFrontier(frontier: LowFrontier, reach: number): void {
    const { unplaced, slotOffset } = this;
    frontier.clear(reach);
    for (let k = 0; k < this.unplacedCount; k++) if (slotOffset[k] <= reach) frontier.admit(unplaced[k]);
  }

  /**
   * A dynamic run's first candidate among the level's ties at `bestOffset`: the one living in
   * the section with the least slack, ties by preorder.
   */
  private leastSlackTie(best: number, bestOffset: number, h: number, tieCount: number): number {
    const { unplaced, ties, sizes, capacity, restTree, secFrom, secTo, pre } = this;
    let bestSlack = Infinity;
    let pick = best;
    for (let k = 0; k < tieCount; k++) {
      const b = unplaced[ties[k]];
      if (bestOffset >= h && sizes[b] > 0) continue;
      const slack = capacity - bestOffset - restTree.rangeMax(secFrom[b], secTo[b]);
      this.work += RANGE_QUERY_WORK;
      if (slack < bestSlack || (slack === bestSlack && pre[b] < pre[pick])) {
        bestSlack = slack;
        pick = b;
      }
    }
    return pick;
  }

}

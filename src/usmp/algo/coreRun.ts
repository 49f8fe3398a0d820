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
 */
import { MaxTree, RANGE_QUERY_WORK } from './maxTree';

export type RunResult = 'fits' | 'infeasible' | 'unknown';

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
}

/** `v` rounded up to a multiple of `a` (most alignments in a run are 1 or one pool's). */
export const roundUp = (v: number, a: number): number => (a === 1 ? v : Math.ceil(v / a) * a);

export class CoreRun {
  /** Work spent by this run (candidate scans, conflict and section updates). */
  work = 0;
  private readonly sizes: Float64Array;
  private readonly alignments: Float64Array;
  private readonly adjStart: Int32Array;
  private readonly adj: Int32Array;
  private readonly secFrom: Int32Array;
  private readonly secTo: Int32Array;
  private readonly memStart: Int32Array;
  private readonly members: Int32Array;

  private readonly placed: Uint8Array;
  private readonly minOffset: Float64Array;
  private readonly rest: Float64Array;
  private readonly restTree: MaxTree;
  /** The unplaced buffers, compact (swap-remove; placements are undone in reverse order). */
  private readonly unplaced: Int32Array;
  private readonly slot: Int32Array;
  private unplacedCount: number;
  /** Undo logs: (buffer, old minOffset) and (section, old witness), with a mark per level. */
  private readonly logMin: number[] = [];
  private readonly logWit: number[] = [];
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
  private readonly ties: Int32Array;

  constructor(
    tables: CoreTables,
    private readonly part: Int32Array,
    private readonly pre: Int32Array,
    private readonly dynamic: boolean,
    private readonly capacity: number,
  ) {
    const { n, sectionCount, sizes, secFrom, secTo } = tables;
    this.sizes = sizes;
    this.alignments = tables.alignments;
    this.adjStart = tables.adjStart;
    this.adj = tables.adj;
    this.secFrom = secFrom;
    this.secTo = secTo;
    this.memStart = tables.memStart;
    this.members = tables.members;
    this.placed = new Uint8Array(n);
    this.minOffset = new Float64Array(n);
    this.rest = new Float64Array(sectionCount);
    for (const b of part) for (let s = secFrom[b]; s <= secTo[b]; s++) this.rest[s] += sizes[b];
    this.restTree = new MaxTree(this.rest);
    this.unplaced = Int32Array.from(part);
    this.slot = new Int32Array(n);
    this.unplaced.forEach((b, i) => (this.slot[b] = i));
    this.unplacedCount = part.length;
    this.ties = new Int32Array(part.length);
    this.witness = new Int32Array(sectionCount).fill(-1);
    this.wNext = new Int32Array(sectionCount).fill(-1);
    this.wPrev = new Int32Array(sectionCount).fill(-1);
    this.wHead = new Int32Array(n).fill(-1);
    for (const b of part) for (let sec = secFrom[b]; sec <= secTo[b]; sec++) if (this.witness[sec] < 0) this.link(sec, b);
    // Setting up is charged too: on small problems the core starts thousands of short runs.
    this.work = n + 3 * sectionCount;
    for (const b of part) this.work += 2 * (secTo[b] - secFrom[b] + 1);
  }

  /**
   * Searches until a fit (its offsets go into `out`), an exhausted space ('infeasible', a
   * proof), or more than `limit` work ('unknown').
   */
  solve(limit: number, out: Float64Array): RunResult {
    const { minOffset, pre, logMin, logWit, dynamic } = this;
    // The search stack: per level, the bound its candidates must be above (the key of the
    // buffer placed on the level below), the dominance height, the buffer tried and the marks.
    const floorOffset: number[] = [-Infinity];
    const floorPre: number[] = [-1];
    const opened = this.openLevel(-Infinity, -1);
    const heights: number[] = [this.levelHeight];
    const chosen: number[] = [-1];
    // Per level, the candidate a dynamic run tried first (the others then go in preorder).
    const firstTried: number[] = [-1];
    let firstCandidate = opened;
    const markMin: number[] = [0];
    const markWit: number[] = [0];
    while (chosen.length > 0) {
      const level = chosen.length - 1;
      let afterOffset = floorOffset[level];
      let afterPre = floorPre[level];
      const tried = chosen[level];
      if (tried >= 0) {
        this.unplace(tried, markMin[level], markWit[level]);
        // After a dynamic first pick, the preorder walk starts from the level's floor.
        if (tried !== firstTried[level] || !dynamic) {
          afterOffset = minOffset[tried];
          afterPre = pre[tried];
        }
      }
      if (this.work > limit) return 'unknown';
      const b = tried < 0 ? firstCandidate : this.nextCandidate(afterOffset, afterPre, heights[level], dynamic ? firstTried[level] : -1);
      if (tried < 0) firstTried[level] = b;
      if (b < 0) {
        firstTried.pop();
        floorOffset.pop();
        floorPre.pop();
        heights.pop();
        chosen.pop();
        markMin.pop();
        markWit.pop();
        continue;
      }
      markMin[level] = logMin.length;
      markWit[level] = logWit.length;
      chosen[level] = b;
      if (!this.place(b)) continue;
      if (this.unplacedCount === 0) {
        for (const x of this.part) out[x] = minOffset[x];
        return 'fits';
      }
      floorOffset.push(minOffset[b]);
      // A dynamic run may place ties at one offset in any order.
      floorPre.push(dynamic ? -1 : pre[b]);
      firstCandidate = this.openLevel(minOffset[b], dynamic ? -1 : pre[b]);
      heights.push(this.levelHeight);
      chosen.push(-1);
      firstTried.push(-1);
      markMin.push(0);
      markWit.push(0);
    }
    return 'infeasible';
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
    const threshold = this.capacity - this.rest[sec];
    let best = -1;
    for (let k = memStart[sec]; k < memStart[sec + 1]; k++) {
      const j = members[k];
      if (!placed[j] && minOffset[j] <= threshold && (best < 0 || minOffset[j] < minOffset[best])) best = j;
    }
    this.work += memStart[sec + 1] - memStart[sec];
    this.logWit.push(sec, this.witness[sec]);
    this.unlink(sec);
    this.link(sec, best);
    return best >= 0 || this.rest[sec] === 0;
  }

  /** Re-checks the sections `j` witnesses; false when one is left without a witness. */
  private recheck(j: number): boolean {
    for (let sec = this.wHead[j]; sec >= 0; ) {
      const following = this.wNext[sec];
      if ((this.placed[j] || this.minOffset[j] > this.capacity - this.rest[sec]) && !this.rewitness(sec)) return false;
      sec = following;
    }
    return true;
  }

  private place(b: number): boolean {
    const { sizes, alignments, adjStart, adj, secFrom, secTo, placed, minOffset, rest, restTree, unplaced, slot, logMin } = this;
    const raisedFrom = logMin.length;
    const o = minOffset[b];
    const top = o + sizes[b];
    placed[b] = 1;
    const moved = unplaced[--this.unplacedCount];
    unplaced[slot[b]] = moved;
    slot[moved] = slot[b];
    unplaced[this.unplacedCount] = b;
    slot[b] = this.unplacedCount;
    for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (placed[j]) continue;
      const raised = roundUp(top, alignments[j]);
      if (raised > minOffset[j]) {
        logMin.push(j, minOffset[j]);
        minOffset[j] = raised;
      }
    }
    for (let s = secFrom[b]; s <= secTo[b]; s++) {
      rest[s] -= sizes[b];
      restTree.set(s, rest[s]);
    }
    this.work += 1 + adjStart[b + 1] - adjStart[b] + (secTo[b] - secFrom[b] + 1);
    // Every section must hold its remaining bytes above the current offset...
    if (o + restTree.max() > this.capacity) return false;
    // ... and above the lowest offset its unplaced buffers can take.
    if (!this.recheck(b)) return false;
    for (let k = raisedFrom; k < logMin.length; k += 2) if (!this.recheck(logMin[k])) return false;
    return true;
  }

  private unplace(b: number, minMark: number, witMark: number): void {
    const { sizes, secFrom, secTo, rest, restTree, minOffset, logMin, logWit } = this;
    while (logWit.length > witMark) {
      const old = logWit.pop()!;
      const sec = logWit.pop()!;
      this.unlink(sec);
      this.link(sec, old);
    }
    for (let s = secFrom[b]; s <= secTo[b]; s++) {
      rest[s] += sizes[b];
      restTree.set(s, rest[s]);
    }
    while (logMin.length > minMark) {
      const old = logMin.pop()!;
      minOffset[logMin.pop()!] = old;
    }
    this.placed[b] = 0;
    // b is at slot unplacedCount (every later removal has been undone): grow the list back.
    this.unplacedCount++;
  }

  /**
   * The unplaced buffer with the smallest (minOffset, preorder) key above (afterOffset,
   * afterPre) that fits under the capacity and below `minHeight`, or -1.
   */
  private nextCandidate(afterOffset: number, afterPre: number, minHeight: number, exclude: number): number {
    const { unplaced, minOffset, pre, sizes, capacity } = this;
    const count = this.unplacedCount;
    this.work += count;
    let best = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    for (let k = 0; k < count; k++) {
      const b = unplaced[k];
      if (b === exclude) continue;
      const o = minOffset[b];
      if (o < afterOffset || (o === afterOffset && pre[b] <= afterPre)) continue;
      if (o > bestOffset || (o === bestOffset && pre[b] > bestPre)) continue;
      if ((o >= minHeight && sizes[b] > 0) || o + sizes[b] > capacity) continue;
      best = b;
      bestOffset = o;
      bestPre = pre[b];
    }
    return best;
  }

  /**
   * For a new level: the dominance height (lowest top any unplaced buffer can reach, left in
   * levelHeight) and the level's first candidate, in one pass.
   */
  private openLevel(afterOffset: number, afterPre: number): number {
    const { unplaced, minOffset, pre, sizes, capacity, ties } = this;
    const count = this.unplacedCount;
    this.work += count;
    let h = Infinity;
    let best = -1;
    let bestOffset = Infinity;
    let bestPre = 0;
    // The candidates tied at the lowest offset, in scan order, for a dynamic run's choice.
    let tieCount = 0;
    for (let k = 0; k < count; k++) {
      const b = unplaced[k];
      const o = minOffset[b];
      const top = o + sizes[b];
      if (top < h) h = top;
      if (o > bestOffset || top > capacity) continue;
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
      ties[tieCount++] = b;
    }
    this.levelHeight = h;
    // The smallest key is dominated: so is every other, unless a zero-size buffer is left.
    if (best >= 0 && bestOffset >= h && sizes[best] > 0) return this.nextCandidate(afterOffset, afterPre, h, -1);
    if (this.dynamic && best >= 0) {
      const { secFrom, secTo, restTree } = this;
      let bestSlack = Infinity;
      let pick = best;
      for (let k = 0; k < tieCount; k++) {
        const b = ties[k];
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
    return best;
  }
}

/**
 * The exact core of `auto`: "do all buffers fit in capacity C?" for one pool, answered by a
 * depth-first search over canonical solutions, in the spirit of MiniMalloc (Moreira et al.,
 * ASPLOS 2023; our own implementation):
 *
 *  - Canonical solutions: every buffer sits at offset 0 or directly on top of a conflicting
 *    buffer (its aligned end). Any valid plan can be pushed down into one, so searching only
 *    these loses nothing. A buffer's candidate offset is therefore its `minOffset`: the highest
 *    aligned end among its placed conflicts.
 *  - Spatial ordering: buffers are placed in non-decreasing (offset, preorder) order, so each
 *    solution is reached once; the next buffer is chosen among the unplaced ones by that key.
 *  - Dominance: a candidate whose offset is at or above the lowest top any unplaced buffer could
 *    reach (min over unplaced of minOffset + size) would leave a gap that buffer fits in; skip.
 *  - Section inference: time is cut into sections (the spans between live-range endpoints); in
 *    each, the bytes still to place must fit between the section's floor (the top placed so
 *    far, and at least the current offset) and C. Two max-trees over sections keep the check
 *    O(log S) per changed section.
 *  - Static partitions: time spans that no buffer crosses are solved independently.
 *
 * The search counts its work (steps); a budget in those units ends it, so the answer (fits,
 * does not fit, or unknown) depends only on the input and the budget, never on the clock.
 */
import { IntervalConflicts, timeIndex } from '../intervalConflicts';

export interface CoreProblem {
  readonly count: number;
  readonly sizes: Float64Array;
  /** Per buffer: its alignment in the pool (lcm of buffer and pool alignment). */
  readonly alignments: Float64Array;
  readonly intervals: IntervalConflicts;
}

export type CoreOutcome =
  | { readonly kind: 'fits'; readonly offsets: Float64Array; readonly total: number }
  | { readonly kind: 'infeasible' }
  | { readonly kind: 'unknown' };

/** A max segment tree with point updates. */
class MaxTree {
  private readonly size: number;
  private readonly t: Float64Array;
  constructor(values: Float64Array) {
    let size = 1;
    while (size < values.length) size *= 2;
    this.size = size;
    this.t = new Float64Array(2 * size).fill(-Infinity);
    this.t.set(values, size);
    for (let i = size - 1; i >= 1; i--) this.t[i] = Math.max(this.t[2 * i], this.t[2 * i + 1]);
  }
  set(i: number, v: number): void {
    let k = i + this.size;
    this.t[k] = v;
    for (k >>= 1; k >= 1; k >>= 1) {
      const m = Math.max(this.t[2 * k], this.t[2 * k + 1]);
      if (this.t[k] === m) break;
      this.t[k] = m;
    }
  }
  max(): number {
    return this.t[1];
  }
}

/** Static preorders, as MiniMalloc's letters: T max section total, W lifetime, A size x lifetime, Z size. */
type PreorderKey = 'T' | 'W' | 'A' | 'Z';
const PREORDERS: readonly (readonly PreorderKey[])[] = [
  ['T', 'W', 'Z'],
  ['W', 'A', 'T'],
  ['T', 'A', 'W'],
];
/** The first run of each preorder: this many dives' worth (a dive is about m^2 units). */
const FIRST_RUN_DIVES = 2;
const FIRST_RUN_MIN_WORK = 10_000;
const UNALLOCATED_FLOOR = process.env.UF === '1';
const WITNESS = process.env.UF === '2';

const roundUp = (v: number, a: number): number => (a === 1 ? v : Math.ceil(v / a) * a);

export class ExactCore {
  /** Work spent so far (candidate scans, conflict and section updates). */
  work = 0;
  stats = { nodes: 0, fails: 0, maxDepth: 0, runs: 0, failDepth: new Array<number>(20).fill(0) };
  private readonly n: number;
  private readonly adjStart: Int32Array;
  private readonly adj: Int32Array;
  /** Per buffer: sections [secFrom, secTo] it is live in. */
  private readonly secFrom: Int32Array;
  private readonly secTo: Int32Array;
  private readonly sectionCount: number;
  /** Buffers live in each section (CSR). */
  private readonly memStart: Int32Array;
  private readonly members: Int32Array;
  /** Static preorder ranks (tie-breaks of the spatial order), one per heuristic of PREORDERS. */
  private readonly preorders: Int32Array[];
  /** Buffers grouped by partition (time spans no buffer crosses). */
  private readonly partitions: Int32Array[];

  constructor(private readonly problem: CoreProblem) {
    const n = problem.count;
    this.n = n;
    const { start, adj } = problem.intervals.adjacency();
    this.adjStart = start;
    this.adj = adj;
    // Sections: between consecutive distinct times t_k, a buffer [f, l] covers t_k for f <= t_k <= l.
    const times = problem.intervals.times();
    this.sectionCount = times.length;
    this.secFrom = Int32Array.from(problem.intervals.first, (t) => timeIndex(times, t));
    this.secTo = Int32Array.from(problem.intervals.last, (t) => timeIndex(times, t));
    const live = new Float64Array(this.sectionCount + 1);
    for (let b = 0; b < n; b++) {
      live[this.secFrom[b]] += problem.sizes[b];
      live[this.secTo[b] + 1] -= problem.sizes[b];
    }
    for (let s = 1; s < this.sectionCount; s++) live[s] += live[s - 1];
    this.memStart = new Int32Array(this.sectionCount + 1);
    for (let b = 0; b < n; b++) for (let s = this.secFrom[b]; s <= this.secTo[b]; s++) this.memStart[s + 1]++;
    for (let s = 0; s < this.sectionCount; s++) this.memStart[s + 1] += this.memStart[s];
    this.members = new Int32Array(this.memStart[this.sectionCount]);
    const fill = this.memStart.slice(0, this.sectionCount);
    for (let b = 0; b < n; b++) for (let s = this.secFrom[b]; s <= this.secTo[b]; s++) this.members[fill[s]++] = b;
    // Preorders: each a static tie-break of the spatial order; restarts take turns with them.
    const crowd = new Float64Array(n);
    for (let b = 0; b < n; b++) {
      let m = 0;
      for (let s = this.secFrom[b]; s <= this.secTo[b]; s++) if (live[s] > m) m = live[s];
      crowd[b] = m;
    }
    const keys: Record<PreorderKey, (b: number) => number> = {
      T: (b) => crowd[b],
      W: (b) => problem.intervals.last[b] - problem.intervals.first[b],
      A: (b) => problem.sizes[b] * (problem.intervals.last[b] - problem.intervals.first[b] + 1),
      Z: (b) => problem.sizes[b],
    };
    this.preorders = PREORDERS.map((heuristic) => {
      const byPre = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => {
        for (const k of heuristic) {
          const d = keys[k](b) - keys[k](a);
          if (d !== 0) return d;
        }
        return a - b;
      });
      const rank = new Int32Array(n);
      byPre.forEach((b, r) => (rank[b] = r));
      return rank;
    });
    // Partitions: maximal runs of sections joined by live buffers.
    const reach = new Int32Array(this.sectionCount).fill(-1);
    for (let b = 0; b < n; b++) reach[this.secFrom[b]] = Math.max(reach[this.secFrom[b]], this.secTo[b]);
    const partOfSection = new Int32Array(this.sectionCount);
    let part = -1;
    let open = -1;
    for (let s = 0; s < this.sectionCount; s++) {
      if (s > open) part++;
      open = Math.max(open, reach[s]);
      partOfSection[s] = part;
    }
    const groups: number[][] = Array.from({ length: part + 1 }, () => []);
    for (let b = 0; b < n; b++) groups[partOfSection[this.secFrom[b]]].push(b);
    this.partitions = groups.filter((g) => g.length > 0).map((g) => Int32Array.from(g));
  }

  /**
   * Decides whether everything fits in `capacity`, spending at most `budget` work units.
   * 'infeasible' is a proof (the whole canonical search space was exhausted).
   */
  decide(capacity: number, budget: number): CoreOutcome {
    const { n, problem } = this;
    const offsets = new Float64Array(n);
    const limit = this.work + budget;
    for (let b = 0; b < n; b++) if (problem.sizes[b] > capacity) return { kind: 'infeasible' };
    for (const part of this.partitions) {
      const r = this.solveWithRestarts(part, capacity, limit, offsets);
      if (r !== 'fits') return { kind: r };
    }
    let total = 0;
    for (let b = 0; b < n; b++) total = Math.max(total, offsets[b] + problem.sizes[b]);
    return { kind: 'fits', offsets, total };
  }

  /**
   * Depth-first search gets stuck below an early wrong choice; short runs that take turns with
   * different preorders, each allowed twice the work of the last round, find fits far sooner
   * (as MiniMalloc's round robin). Any run that ends within its limit is an answer: a fit, or
   * the whole canonical space searched, a proof whatever the preorder.
   */
  private solveWithRestarts(part: Int32Array, capacity: number, limit: number, out: Float64Array): 'fits' | 'infeasible' | 'unknown' {
    const m = part.length;
    let runWork = Math.max(FIRST_RUN_MIN_WORK, FIRST_RUN_DIVES * m * m);
    for (;;) {
      for (const pre of this.preorders) {
        const runLimit = Math.min(limit, this.work + runWork);
        this.stats.runs++;
        const r = this.solvePartition(part, pre, capacity, runLimit, out);
        if (r !== 'unknown') return r;
        if (this.work >= limit) return 'unknown';
      }
      runWork *= 2;
    }
  }

  private solvePartition(
    part: Int32Array,
    pre: Int32Array,
    capacity: number,
    limit: number,
    out: Float64Array,
  ): 'fits' | 'infeasible' | 'unknown' {
    const { sizes, alignments } = this.problem;
    const { adjStart, adj, secFrom, secTo } = this;
    const m = part.length;
    const placed = new Uint8Array(this.n);
    const minOffset = new Float64Array(this.n);
    const floor = new Float64Array(this.sectionCount);
    const rest = new Float64Array(this.sectionCount);
    for (const b of part) for (let s = secFrom[b]; s <= secTo[b]; s++) rest[s] += sizes[b];
    // floor + rest and rest, per section; only this partition's sections are non-zero.
    const sumTree = new MaxTree(rest);
    const restTree = new MaxTree(rest);
    // Undo log: pairs (buffer, old minOffset) and (section, old floor), with a mark per level.
    const logMin: number[] = [];
    const logSec: number[] = [];
    // The search stack: per level, its candidates (sorted), next index and the placed buffer.
    const cands: Int32Array[] = [];
    const next: number[] = [];
    const chosen: number[] = [];
    const markMin: number[] = [];
    const markSec: number[] = [];
    let placedCount = 0;
    const secStamp = new Int32Array(this.sectionCount);
    let epoch = 0;
    const affected: number[] = [];
    const { memStart, members } = this;
    // Witnesses: per live section, an unplaced buffer that can still sit low enough for the
    // section's remaining bytes to fit under the capacity (minOffset <= C - rest). None left
    // means the section cannot be completed. Each buffer heads a linked list of the sections it
    // witnesses, so a raise costs nothing unless the raised buffer is a witness.
    const witness = new Int32Array(this.sectionCount).fill(-1);
    const wNext = new Int32Array(this.sectionCount).fill(-1);
    const wPrev = new Int32Array(this.sectionCount).fill(-1);
    const wHead = new Int32Array(this.n).fill(-1);
    const logWit: number[] = [];
    const markWit: number[] = [];
    const link = (sec: number, w: number) => {
      witness[sec] = w;
      wPrev[sec] = -1;
      wNext[sec] = w < 0 ? -1 : wHead[w];
      if (w >= 0) {
        if (wHead[w] >= 0) wPrev[wHead[w]] = sec;
        wHead[w] = sec;
      }
    };
    const unlink = (sec: number) => {
      const w = witness[sec];
      if (w < 0) return;
      if (wPrev[sec] >= 0) wNext[wPrev[sec]] = wNext[sec];
      else wHead[w] = wNext[sec];
      if (wNext[sec] >= 0) wPrev[wNext[sec]] = wPrev[sec];
      witness[sec] = -1;
    };
    /** Finds a new witness for `sec` (the lowest unplaced member); false when there is none. */
    const rewitness = (sec: number): boolean => {
      const threshold = capacity - rest[sec];
      let best = -1;
      for (let k = memStart[sec]; k < memStart[sec + 1]; k++) {
        const j = members[k];
        if (!placed[j] && minOffset[j] <= threshold && (best < 0 || minOffset[j] < minOffset[best])) best = j;
      }
      this.work += memStart[sec + 1] - memStart[sec];
      logWit.push(sec, witness[sec]);
      unlink(sec);
      link(sec, best);
      return best >= 0 || rest[sec] === 0;
    };
    if (WITNESS) {
      for (const b of part) for (let sec = secFrom[b]; sec <= secTo[b]; sec++) if (witness[sec] < 0) link(sec, b);
    }
    /** Re-checks the sections `j` witnesses; false when one is left without a witness. */
    const recheck = (j: number): boolean => {
      for (let sec = wHead[j]; sec >= 0; ) {
        const following = wNext[sec];
        if (placed[j] || minOffset[j] > capacity - rest[sec]) {
          if (!rewitness(sec)) return false;
        }
        sec = following;
      }
      return true;
    };

    const candidatesAfter = (lastOffset: number, lastPre: number): Int32Array => {
      this.work += m;
      let minHeight = Infinity;
      for (let k = 0; k < m; k++) {
        const b = part[k];
        if (!placed[b]) minHeight = Math.min(minHeight, minOffset[b] + sizes[b]);
      }
      const list: number[] = [];
      for (let k = 0; k < m; k++) {
        const b = part[k];
        if (placed[b]) continue;
        const o = minOffset[b];
        if (o < lastOffset || (o === lastOffset && pre[b] < lastPre)) continue;
        if (o >= minHeight && sizes[b] > 0) continue;
        if (o + sizes[b] > capacity) continue;
        list.push(b);
      }
      list.sort((a, b) => minOffset[a] - minOffset[b] || pre[a] - pre[b]);
      return Int32Array.from(list);
    };

    const place = (b: number): boolean => {
      const logMinStart = logMin.length;
      const o = minOffset[b];
      const top = o + sizes[b];
      placed[b] = 1;
      placedCount++;
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
        logSec.push(s, floor[s]);
        if (top > floor[s]) floor[s] = top;
        rest[s] -= sizes[b];
        sumTree.set(s, floor[s] + rest[s]);
        restTree.set(s, rest[s]);
      }
      this.work += 1 + adjStart[b + 1] - adjStart[b] + 2 * (secTo[b] - secFrom[b] + 1);
      if (WITNESS) {
        if (!recheck(b)) return false;
        for (let ai = logMinStart; ai < logMin.length; ai += 2) if (!recheck(logMin[ai])) return false;
      }
      if (UNALLOCATED_FLOOR) {
        epoch++;
        for (let ai = logMinStart; ai < logMin.length; ai += 2) {
          const j = logMin[ai];
          for (let s = secFrom[j]; s <= secTo[j]; s++) {
            if (secStamp[s] !== epoch) {
              secStamp[s] = epoch;
              affected.push(s);
            }
          }
        }
        for (const s of affected) {
          let mn = Infinity;
          for (let k = memStart[s]; k < memStart[s + 1]; k++) {
            const j = members[k];
            if (!placed[j] && minOffset[j] < mn) mn = minOffset[j];
          }
          this.work += memStart[s + 1] - memStart[s];
          if (mn !== Infinity && mn > floor[s]) {
            logSec.push(s, floor[s]);
            floor[s] = mn;
            sumTree.set(s, floor[s] + rest[s]);
          }
        }
        affected.length = 0;
      }
      // Every section must still hold its remaining bytes above max(floor, o).
      return sumTree.max() <= capacity && o + restTree.max() <= capacity;
    };

    const unplace = (b: number, minMark: number, secMark: number, witMark: number): void => {
      while (logWit.length > witMark) {
        const old = logWit.pop()!;
        const sec = logWit.pop()!;
        unlink(sec);
        link(sec, old);
      }
      while (logSec.length > secMark) {
        const old = logSec.pop()!;
        const s = logSec.pop()!;
        floor[s] = old;
        sumTree.set(s, floor[s] + rest[s]);
      }
      for (let s = secFrom[b]; s <= secTo[b]; s++) {
        rest[s] += sizes[b];
        sumTree.set(s, floor[s] + rest[s]);
        restTree.set(s, rest[s]);
      }
      while (logMin.length > minMark) {
        const old = logMin.pop()!;
        minOffset[logMin.pop()!] = old;
      }
      placed[b] = 0;
      placedCount--;
    };

    cands.push(candidatesAfter(-Infinity, -1));
    next.push(0);
    chosen.push(-1);
    markMin.push(0);
    markSec.push(0);
    markWit.push(0);
    while (cands.length > 0) {
      const level = cands.length - 1;
      if (chosen[level] >= 0) {
        unplace(chosen[level], markMin[level], markSec[level], markWit[level]);
        chosen[level] = -1;
      }
      if (next[level] >= cands[level].length) {
        cands.pop();
        next.pop();
        chosen.pop();
        markMin.pop();
        markSec.pop();
        markWit.pop();
        continue;
      }
      if (this.work > limit) return 'unknown';
      const b = cands[level][next[level]++];
      markMin[level] = logMin.length;
      markSec[level] = logSec.length;
      markWit[level] = logWit.length;
      chosen[level] = b;
      this.stats.nodes++;
      if (!place(b)) { this.stats.fails++; this.stats.failDepth[Math.floor(20 * placedCount / (m + 1))]++; continue; }
      if (placedCount > this.stats.maxDepth) this.stats.maxDepth = placedCount;
      if (placedCount === m) {
        for (const x of part) out[x] = minOffset[x];
        return 'fits';
      }
      cands.push(candidatesAfter(minOffset[b], pre[b]));
      next.push(0);
      chosen.push(-1);
      markMin.push(0);
      markSec.push(0);
      markWit.push(0);
    }
    return 'infeasible';
  }
}

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
 *    solution is reached once; the next buffer is the unplaced one with the smallest key above
 *    the last placed one.
 *  - Dominance: a candidate whose offset is at or above the lowest top any unplaced buffer could
 *    reach (min over unplaced of minOffset + size) would leave a gap that buffer fits in; skip.
 *  - Section inference: time is cut into sections (the spans between live-range endpoints). In
 *    each, the bytes still to place must fit under C above the current offset (one max-tree
 *    over the sections' remaining bytes) and above the lowest offset any of the section's
 *    unplaced buffers can still take (MiniMalloc's "unallocated floor"). The latter is kept as
 *    a witness per section: one unplaced buffer low enough; only when a witness is raised or
 *    placed is its section scanned for another, so a placement costs little more than its
 *    conflicts.
 *  - Static partitions: time spans that no buffer crosses are solved independently; the small
 *    partitions' long runs also split as they go (dynamic decomposition, coreRun.ts).
 *  - Restarts: a depth-first search that takes a wrong turn early thrashes below it, while
 *    another tie-break order often dives straight to a fit. So the search runs as a series of
 *    short runs (a couple of dives' work each), over a fixed list of preorders and then
 *    seeded random variations of them, with a final run that takes whatever budget is left.
 *    Any run that ends inside its limit is an answer: a fit, or an exhausted canonical space
 *    (a proof, whatever the preorder).
 *
 * The search counts its work (steps); a budget in those units ends it, so the answer (fits,
 * does not fit, or unknown) depends only on the input and the budget, never on the clock.
 */
import { performance } from 'node:perf_hooks';
import { IntervalConflicts, timeIndex } from '../intervalConflicts';
import { buffersByOffset, PlanLayout, planLayout, TopRegion, topRegion } from './topRegion';
import { seededRandom } from './seededRandom';
import { MaxTree, RANGE_QUERY_WORK } from './maxTree';
import { alignmentGcd, gcd, roundUpTo } from '../stackBound';
import { pushDown } from './pushDown';
import { mirroredOrder } from './mirror';
import { liftAboveBound } from './liftMoves';
import { CoreRun, CoreTables, PreorderKey, RunResult, SegmentOrder, roundUp } from './coreRun';
import { orderByColumnsDescending } from './permutation';
import { gathered } from './gathered';

export interface CoreProblem {
  readonly count: number;
  /**
   * Sizes above 0 for exact answers: static runs mishandle zero-size buffers (a false
   * 'infeasible' is possible), so `auto` plans those apart (planWithoutZeroSize).
   */
  readonly sizes: Float64Array;
  /** Per buffer: its alignment in the pool (lcm of buffer and pool alignment). */
  readonly alignments: Float64Array;
  readonly intervals: IntervalConflicts;
  /**
   * Per buffer, the lowest offset it may take (a multiple of its alignment): the tops of the
   * buffers of a plan that stay where they are, when only the others are placed again
   * (resolveTop). The search's rules hold over them as they do over 0: each buffer still takes
   * its lowest offset clear of what is placed, now at least its floor, and candidates still come
   * in offset order. Only `decide` reads them (greedyDive places from 0).
   */
  readonly floors?: Float64Array;
}

/** How ExactCore.decide runs (see there). */
export interface DecideOptions {
  readonly slack?: boolean;
  readonly aboveBound?: boolean;
}

export type CoreOutcome =
  | { readonly kind: 'fits'; readonly offsets: Float64Array; readonly total: number }
  | { readonly kind: 'infeasible' }
  | { readonly kind: 'unknown' };

/** Where solveWithRestarts is on one partition: the runs so far and the random factors' stream. */
interface Restarts {
  readonly random: () => number;
  readonly longRuns: CoreRun[];
  longTurns: number;
  shortRuns: number;
  longWork: number;
  shortWork: number;
  /** The most buffers one of its runs placed at once (CoreRun.deepest). */
  deepest: number;
}

function newRestarts(partLength: number): Restarts {
  return { random: seededRandom(RESTART_SEED + partLength), longRuns: [], longTurns: 0, shortRuns: 0, longWork: 0, shortWork: 0, deepest: 0 };
}

/** A decision that ran out of work: its partition, its offsets so far and its runs (resumeDecision). */
interface PausedDecision {
  readonly capacity: number;
  readonly pattern: string;
  readonly runDives: number;
  readonly offsets: Float64Array;
  part: number;
  restarts: Restarts;
}

/**
 * Static preorders (PreorderKey, coreRun.ts). Measured on random interval sets: which one dives
 * straight to a fit varies from set to set, hence several.
 */
const PREORDERS: readonly (readonly PreorderKey[])[] = [
  ['T', 'W', 'Z'],
  ['A'],
  ['T', 'A', 'W'],
  ['E'],
  ['W', 'A', 'T'],
  ['Z'],
];
/**
 * Partitions up to this many buffers also search as MiniMalloc does: one static, decomposing run
 * per preorder of a few fixed ones, taking turns. A run is resumed at its next turn where the
 * last one stopped (CoreRun.solve), so the preorder that finds the packing (or exhausts the
 * space) needs only its own run's work. MiniMalloc's public benchmark sets (154-454 buffers of
 * real accelerator workloads, each packed at its peak) need one run of 0.4M-20M units with the
 * right preorder and were out of reach of short restarts with varied preorders; see
 * SMALL_PREORDERS.
 */
const SMALL_PARTITION = 500;
/**
 * The small partitions' preorders (indices into PREORDERS): T-W-Z, T-A-W and W-A-T, MiniMalloc's
 * own three (its TWA orders as TWZ: at equal lifetimes, area orders as size); all six left each
 * preorder's longest run too short. With LONG_SHARE and the small problems' budgets
 * (callBudget.ts, coreSteps.ts), measured on the eleven MiniMalloc sets and 57 random sets of
 * 150-1,000 buffers: MiniMalloc sets at the bound 0 -> 3 (A, C, F), mean overhead 11.5% ->
 * 7.2%, set A no longer above Vela's plan; random sets of 500 buffers 0.47% -> 0.31% (2 smaller,
 * 1 larger), 300: 0.26% -> 0.12%, lifetimes up to 80: 0.46% -> 0.16%, up to 160 and 250 a little
 * smaller; none newly above TFLite Micro's or Vela's plan; sets of 1,000 buffers and more keep
 * their plans (their partitions are larger).
 */
const SMALL_PREORDERS = [0, 2, 4];
/**
 * Small partitions interleave the long runs with the short ones (below), which meet the bound
 * fast on many random sets the long runs miss; the long runs take this many times the short
 * ones' work. Measured when the long runs still restarted with doubled limits (against a share
 * of 2: shares 3, 5, 10 and long runs only were within 0.3 points of one another on MiniMalloc's
 * sets and random sets of 200-800 buffers; adding plain or undecomposed runs to the rotation was
 * worse on the held-out sets). With resumed runs a share of 10 packed MiniMalloc's set B at its
 * bound too but lost the bound on a random 500-buffer set that a late short run had met.
 */
const LONG_SHARE = 5;
/** Relative spread of the random factor on the primary key of the varied preorders. */
const PREORDER_NOISE = 0.6;
/**
 * A run's limit in dives (one dive: every buffer placed once, see diveWork): at the lower bound
 * a fit comes from a run's first dive with little backtracking, when it comes (see
 * memory-planner.md, "Why those uniform sets stay above the bound"), so many short runs, each
 * its own preorder, are the better lottery; above it (a descent's probe or re-solve), with
 * slack in the sections, backtracking a while longer finds more. Measured on 532 held-out
 * 2,000-buffer sets (uniform seeds 1-140, heavy-tailed 1-12, mixed 1-260, long and medium
 * lifetimes 1-60), runs of 3 dives above the bound: 37 plans smaller, 15 larger, none leaving
 * the bound; mean overhead 0.224% -> 0.219% (medium 0.525% -> 0.496%, uniform 0.026% ->
 * 0.022%, seed 63 0.25% -> the bound). 4 dives: about the same; 3 at the bound as well: 4 sets
 * lose it (their bound's fit is in a later short run); 1.5 everywhere: 37 larger. Problems
 * up to SMALL_PROBLEM buffers keep 2 (coreSteps.ts): their runs were tuned on MiniMalloc's
 * benchmark sets, and set J went from 4.87% to 5.38% above its bound with 3.
 */
const RUN_DIVES = 2;
const ABOVE_BOUND_RUN_DIVES = 3;
const RUN_MIN_WORK = 10_000;
const RESTART_SEED = 0x5eed;
/**
 * Which runs are dynamic (d) or static (s), cyclically (see coreRun.ts): at the lower bound
 * (every section's slack counts) mostly dynamic; above it, static first, which measured better.
 */
const BOUND_RUNS = 'dds';
/**
 * At the bound, from the run BOUND_VARIED_FROM on, every run is dynamic and varies A and W-A-T
 * in turn (indices into PREORDERS); the runs before follow BOUND_RUNS over PREORDERS as above.
 * A fit at the bound comes from one run's first dive, so the varied runs are a lottery whose
 * odds differ by kind. Logged over every run of the bound's decision on uniform 2,000-buffer
 * sets 15, 71 and 136 (440, 176 and 272 runs to their fits, at 1.97G, 786M and 1.21G units):
 * the static runs and the dynamic ones varying E stopped lowest (median depths 361-771 and
 * 534-863 levels of 2,000), the dynamic ones varying A and W-A-T deepest (731-1,135 for A,
 * 785-1,038 for W-A-T; 9-21 of 30-74 runs past 1,200 levels each, the others 0-9), and all
 * three fits were dynamic runs varying A. The decision at the bound on 100 fresh uniform sets
 * (seeds 141-240, not among the 532 held-out ones), fits within 48M units (about a call's bound
 * share) and 200M: 69 and 77 as before, 70 and 87 so. From the first varied run on (6) it was
 * 71 and 87, but three mixed held-out sets lost the bound (97, 180, 185): their fit, as that of
 * uniform 73, 75, 83 and 117, is run 7's (dynamic, varying A), which that rotation gave other
 * random factors; from run 8 every plan of the 532 keeps its total (see memory-planner.md,
 * twenty-sixth session).
 */
const BOUND_VARIED = [1, 4];
const BOUND_VARIED_FROM = 8;
const SLACK_RUNS = 's';
/**
 * The top's re-solve (resolveTop) skips a region freeing more than this share of the buffers.
 * Seen fits freed 3-67% of them (uniform 2,000-buffer sets 49-434 buffers, dense ones 280-1,339,
 * random 300-500-buffer sets 31-67%); MiniMalloc's D and J, 4.9% and 5.5% above the bound,
 * freed 88% and 93% and spent the whole 12M units for nothing, D about 0.09 s of a cold plan
 * that took 1.0 s. Measured on 333 held-out sets (uniform, heavy-tailed, dense, 200-2,000
 * buffers, MiniMalloc's eleven): the same plans.
 */
const MAX_REGION_SHARE = 0.8;
/**
 * A dive's frontier reaches this share of the mean buffer size past the tolerance window
 * (ExactCore.dive). Each step then reads the buffers near the lowest offset, not all the
 * unplaced ones, and rebuilds the frontier when the window passes it. Measured on 2,000-buffer
 * sets, cold `uma-ts plan` on one core (medians of five, the same plans): mixed 1 1.14 ->
 * 1.09 s, uniform 15 and mixed 12 about 16 ms less, long s14 the same (its dives' cost is
 * their conflicts); in a warm process, the final dives of sparse sets 20-30% faster with 1/4
 * or 1/10 than with 1 or 2 (larger frontiers) or 0 (rebuilt at every rise of the window).
 * Measured again (twenty-fifth session; warm, the dives' CPU time, least of five): 1/8 against
 * 1/4 4-6% faster on mixed 2 and 78, the same on long 51; 1/16 against 1/8 2-5% faster on
 * mixed 2, 78 and medium 3; 1/16 against 1/4 5-6% on uniform 15 and 71, within 1-2% on mixed
 * 1 and 12, medium 1 and long 14; 1/32 within 1% of 1/16, 1/2 4% slower than 1/4.
 */
const FRONTIER_MARGIN = 1 / 16;

export class ExactCore {
  /** Work spent so far (candidate scans, conflict and section updates). */
  work = 0;
  /** The work of the last push-down (0 before any): about what the next one will cost. */
  lastPushDownWork = 0;
  /**
   * A wall clock (performance.now()) past which a decision ends, between runs, as unknown:
   * only when the caller has a time budget; without one the answers depend on the work alone.
   */
  deadline = Infinity;
  /** Conflicts, sections and section members: what the dives and the runs (coreRun.ts) read. */
  private readonly tables: CoreTables;
  /** Per section: the bytes of every buffer live in it. */
  private readonly sectionBytes: Float64Array;
  /** Preorder keys per buffer. */
  private readonly keys: Record<PreorderKey, Float64Array>;
  /** Ranks of the fixed preorders, built on first use. */
  private readonly fixedRanks: (Int32Array | undefined)[] = [];
  /** Buffers grouped by partition (time spans no buffer crosses). */
  private readonly partitions: Int32Array[];
  /** The bound's decision where it ran out of work (see resumeDecision). */
  private pausedDecision: PausedDecision | undefined;

  constructor(private readonly problem: CoreProblem) {
    const n = problem.count;
    const { start: adjStart, adj } = problem.intervals.adjacency();
    // Sections: between consecutive distinct times t_k, a buffer [f, l] covers t_k for f <= t_k <= l.
    const times = problem.intervals.times();
    const sectionCount = times.length;
    const secFrom = timeIndices(times, problem.intervals.first);
    const secTo = timeIndices(times, problem.intervals.last);
    const live = new Float64Array(sectionCount + 1);
    liveBytes(secFrom, secTo, problem.sizes, live);
    this.sectionBytes = live.subarray(0, sectionCount);
    const memStart = new Int32Array(sectionCount + 1);
    countMembers(secFrom, secTo, memStart);
    const members = new Int32Array(memStart[sectionCount]);
    fillMembers(secFrom, secTo, memStart, members);
    const crowd = new Float64Array(n);
    crowding(secFrom, secTo, live, crowd);
    const { first, last } = problem.intervals;
    this.keys = {
      T: crowd,
      W: Float64Array.from({ length: n }, (_, b) => last[b] - first[b]),
      A: Float64Array.from({ length: n }, (_, b) => problem.sizes[b] * (last[b] - first[b] + 1)),
      Z: Float64Array.from(problem.sizes),
      E: Float64Array.from(last),
    };
    const partOfSection = new Int32Array(sectionCount);
    const parts = partitionSections(secFrom, secTo, partOfSection);
    const groups: number[][] = Array.from({ length: parts }, () => []);
    for (let b = 0; b < n; b++) groups[partOfSection[secFrom[b]]].push(b);
    this.partitions = groups.filter((g) => g.length > 0).map((g) => Int32Array.from(g));
    const { floors } = problem;
    const lowestFloor = floors ? lowestFloorOf(floors, memStart, members) : undefined;
    const stackedSizes = stackedSizesOf(problem);
    const padded = stackedSizes.some((v, b) => v !== problem.sizes[b]);
    const savers = padded ? saversOf(problem, stackedSizes, secFrom, secTo, memStart) : undefined;
    const sectionStack = savers ? stackedHeights(problem, stackedSizes, savers, memStart, members) : this.sectionBytes;
    this.tables = new Tables({ n, sizes: problem.sizes, alignments: problem.alignments, adjStart, adj, secFrom, secTo, sectionCount, memStart, members, sectionBytes: this.sectionBytes, stackedSizes, sectionStack, savers, floors, lowestFloor });
  }

  /**
   * Decides whether everything fits in `capacity`, spending at most `budget` work units.
   * 'infeasible' is a proof (the whole canonical search space was exhausted). `slack`: the
   * capacity is above the lower bound (a descent's probe), which picks the runs' kinds.
   * `aboveBound`: runs of ABOVE_BOUND_RUN_DIVES, for a capacity above the whole problem's lower
   * bound (a probe, or a descent's re-solve of part of it).
   */
  decide(capacity: number, budget: number, { slack = false, aboveBound = false }: DecideOptions = {}): CoreOutcome {
    const pattern = slack ? SLACK_RUNS : BOUND_RUNS;
    const runDives = aboveBound ? ABOVE_BOUND_RUN_DIVES : RUN_DIVES;
    const { problem } = this;
    const n = problem.count;
    const offsets = new Float64Array(n);
    const limit = this.work + budget;
    const { floors } = problem;
    if (pattern === BOUND_RUNS) this.pausedDecision = undefined;
    for (let b = 0; b < n; b++) if ((floors ? floors[b] : 0) + problem.sizes[b] > capacity) return { kind: 'infeasible' };
    return this.decideFrom({ capacity, pattern, runDives, offsets, part: 0, restarts: newRestarts(this.partitions[0]?.length ?? 0) }, limit);
  }

  /**
   * The last decision at a capacity without slack (the bound's), when it ran out of work: it
   * goes on from where it stopped (the partition, the next short run and its random factors),
   * with `budget` more work. Unknown when there is none to resume.
   */
  resumeDecision(capacity: number, budget: number): CoreOutcome {
    const paused = this.pausedDecision;
    if (!paused || paused.capacity !== capacity) return { kind: 'unknown' };
    this.pausedDecision = undefined;
    return this.decideFrom(paused, this.work + budget);
  }

  /**
   * How near the paused decision (resumeDecision) came to a fit: the most buffers one of its runs
   * placed at once, as a share of its partition's (0 when none is paused).
   */
  pausedDepth(): number {
    const paused = this.pausedDecision;
    return paused ? paused.restarts.deepest / this.partitions[paused.part].length : 0;
  }

  private decideFrom(state: PausedDecision, limit: number): CoreOutcome {
    const { capacity, pattern, runDives, offsets } = state;
    for (; state.part < this.partitions.length; state.part++) {
      const part = this.partitions[state.part];
      const r = this.solveWithRestarts(part, capacity, limit, offsets, pattern, runDives, state.restarts);
      if (r === 'unknown' && pattern === BOUND_RUNS) this.pausedDecision = state;
      if (r !== 'fits') return { kind: r };
      state.restarts = newRestarts(this.partitions[state.part + 1]?.length ?? 0);
    }
    return { kind: 'fits', offsets, total: this.totalOf(offsets) };
  }

  /** The top of a plan of this core's buffers. */
  private totalOf(offsets: Float64Array): number {
    let total = 0;
    for (let b = 0; b < offsets.length; b++) total = Math.max(total, offsets[b] + this.problem.sizes[b]);
    return total;
  }

  /** How many buffers the core places. */
  bufferCount(): number {
    return this.problem.count;
  }

  /**
   * A step every packing's total comes in: a divisor g of every size such that each alignment
   * divides g or is a multiple of it. A canonical offset is 0 or a placed buffer's end rounded up
   * to an alignment, so by induction every offset and end is a multiple of g, and the smallest
   * total is a canonical packing's. Capacities between two multiples decide nothing new
   * (MiniMalloc's sets: sizes in KiB, where a descent probed capacities a byte apart).
   */
  granularity(): number {
    const { sizes, alignments, count } = this.problem;
    let g = 0;
    for (let b = 0; b < count; b++) g = gcd(g, sizes[b]);
    for (let changed = g > 1; changed; ) {
      changed = false;
      for (let b = 0; b < count && g > 1; b++) {
        const a = alignments[b];
        if (g % a !== 0 && a % g !== 0) {
          g = gcd(g, a);
          changed = true;
        }
      }
    }
    return Math.max(1, g);
  }

  /**
   * How flat the live-bytes profile is: the mean over the time sections of the bytes live in
   * each, as a share of the most bytes live in one (1 when every section is at the peak).
   */
  profileFill(): number {
    const { sectionBytes } = this;
    let peak = 0;
    let sum = 0;
    for (let s = 0; s < sectionBytes.length; s++) {
      peak = Math.max(peak, sectionBytes[s]);
      sum += sectionBytes[s];
    }
    return peak === 0 ? 1 : sum / sectionBytes.length / peak;
  }

  /** The mean buffer size (the scale of a dive's tolerance). */
  meanSize(): number {
    return this.problem.sizes.reduce((a, x) => a + x, 0) / Math.max(1, this.problem.count);
  }

  /** One dive's work over the whole problem (for budgets in dives). */
  diveWork(): number {
    return this.partitions.reduce((w, part) => w + this.partDiveWork(part), 0);
  }

  /** One dive's work on a partition: each level scans the unplaced buffers and places one. */
  private partDiveWork(part: Int32Array): number {
    const { adjStart, secFrom, secTo } = this.tables;
    let w = (part.length * (part.length + 1)) / 2;
    for (const b of part) w += 1 + adjStart[b + 1] - adjStart[b] + (secTo[b] - secFrom[b] + 1);
    return w;
  }

  /**
   * Short runs over the preorders (fixed, then varied), the last one with all that is left;
   * small partitions: static decomposing runs over SMALL_PREORDERS, resumed in turn.
   */
  private solveWithRestarts(part: Int32Array, capacity: number, limit: number, out: Float64Array, pattern: string, runDives: number, state = newRestarts(part.length)): RunResult {
    const baseWork = Math.max(RUN_MIN_WORK, runDives * this.partDiveWork(part));
    const { random, longRuns } = state;
    // Static runs can miss a fit with zero-size buffers (see CoreProblem.sizes): not for those.
    const small = part.length <= SMALL_PARTITION && part.every((b) => this.problem.sizes[b] > 0);
    // Small partitions: the long runs and the short ones take turns (a long run goes on
    // whenever the long ones have spent at most LONG_SHARE times the short ones' work).
    for (;;) {
      const long = small && state.longWork <= LONG_SHARE * state.shortWork;
      const before = this.work;
      // Too little left for two turns: the last one gets it all.
      const turnLimit = limit - this.work < 2 * baseWork ? limit : this.work + baseWork;
      let result: RunResult;
      if (long) {
        const k = state.longTurns++ % SMALL_PREORDERS.length;
        const fixed = SMALL_PREORDERS[k];
        // Each preorder's run decomposes (coreRun.ts), each segment in its own preorder.
        longRuns[k] ??= this.newRun(part, this.fixedRank(fixed), false, capacity, { heuristic: PREORDERS[fixed], keys: this.keys });
        result = this.advance(longRuns[k], turnLimit, out);
        state.deepest = Math.max(state.deepest, longRuns[k].deepest);
      } else {
        const r = state.shortRuns++;
        // At the bound, late runs: dynamic, varying BOUND_VARIED in turn (see there).
        const late = pattern === BOUND_RUNS && r >= BOUND_VARIED_FROM;
        const base = late ? BOUND_VARIED[(r - BOUND_VARIED_FROM) % BOUND_VARIED.length] : r % PREORDERS.length;
        const pre = r < PREORDERS.length ? this.fixedRank(r) : this.variedRank(PREORDERS[base], random);
        const run = this.newRun(part, pre, late || pattern[r % pattern.length] === 'd', capacity, undefined);
        result = this.advance(run, turnLimit, out);
        state.deepest = Math.max(state.deepest, run.deepest);
      }
      if (result !== 'unknown' || this.work >= limit) return result;
      if (this.deadline !== Infinity && performance.now() >= this.deadline) return 'unknown';
      if (long) state.longWork += this.work - before;
      else state.shortWork += this.work - before;
    }
  }

  private fixedRank(r: number): Int32Array {
    return (this.fixedRanks[r] ??= this.rankBy(PREORDERS[r], undefined));
  }

  /** A preorder with its primary key scaled by a random factor per buffer. */
  private variedRank(heuristic: readonly PreorderKey[], random: () => number): Int32Array {
    const n = this.problem.count;
    const noise = Float64Array.from({ length: n }, () => 1 + PREORDER_NOISE * (random() - 0.5));
    this.work += n;
    return this.rankBy(heuristic, noise);
  }

  private rankBy(heuristic: readonly PreorderKey[], noise: Float64Array | undefined): Int32Array {
    const { keys } = this;
    const n = this.problem.count;
    const primary = keys[heuristic[0]].slice(0, n);
    if (noise) for (let b = 0; b < n; b++) primary[b] *= noise[b];
    const columns = [primary, ...heuristic.slice(1).map((k) => keys[k])];
    const order = orderByColumnsDescending(columns, n);
    const rank = new Int32Array(n);
    for (let r = 0; r < n; r++) rank[order[r]] = r;
    // The sort is charged: small problems make many varied preorders.
    this.work += n * Math.ceil(Math.log2(n + 1));
    return rank;
  }

  private readonly diveRandom = seededRandom(RESTART_SEED);

  /**
   * A plan of this problem pushed down (pushDown.ts), its work charged. For the whole problem
   * only: a re-solve's floors (CoreProblem.floors) are not honoured there.
   */
  pushDown(offsets: Float64Array): { offsets: Float64Array; total: number } {
    const r = pushDown(this.tables, offsets);
    this.work += r.work;
    this.lastPushDownWork = r.work;
    return r;
  }

  /**
   * A plan of this problem upside down (mirror.ts): with one alignment a plan; with several,
   * each dividing the largest, its order only, which the caller's push-down makes a plan
   * (mirroredOrder); undefined otherwise.
   */
  mirror(offsets: Float64Array): Float64Array | undefined {
    return mirroredOrder(this.tables, offsets);
  }

  /** The largest alignment of the problem's buffers (1 at least). */
  maxAlignment(): number {
    return this.tables.alignments.reduce((a, b) => Math.max(a, b), 1);
  }

  /**
   * A plan of the whole problem less than its largest alignment above `bound`, after lift moves
   * (liftMoves.ts), its work charged; undefined when no plan is that close.
   */
  liftNearBound(offsets: Float64Array, bound: number): { offsets: Float64Array; total: number } | undefined {
    const total = this.totalOf(offsets);
    if (total <= bound || total - bound >= this.maxAlignment()) return undefined;
    const r = liftAboveBound(this.tables, offsets, bound, this.deadline);
    this.work += r.work;
    return r;
  }

  /**
   * The spatial greedy: places, one at a time, the unplaced buffer that can sit lowest; among
   * those tied there, the one living in the section with the most bytes still to place (the
   * dynamic rule of the search), then by preorder `preorder` (fixed ones first, then varied).
   * Never fails; its plan is a canonical one, a cheap upper bound shaped like the search's own
   * dives. On dense sets (long lifetimes) a few of them beat every other start by points.
   *
   * `tolerance` (bytes, 0 for the plain spatial greedy): every buffer that can sit at most this
   * far above the lowest offset competes by the dynamic rule, so a buffer of the busiest section
   * may go first, at the price of a hole of at most that height under it. The plan is then no
   * longer canonical, but every buffer still sits on its placed conflicts, so it is valid. On
   * dense sets, tolerant dives (coreSteps.ts has the tolerances) beat plain ones by points on
   * many sets.
   *
   * `abortAt`: a dive that can no longer end below this total stops there, with total Infinity
   * (its offsets are then incomplete). Every buffer still to place goes at or above the lowest
   * offset any of them can take, and those of one section stack, so the dive ends at or above
   * that offset plus the most bytes one section still holds (the runs' ceiling, coreRun.ts).
   * Against the best total so far, this stops dives a third of the way early on average
   * (measured on 2,000-buffer sets: 21-41% of the dives' work), where a dive's own top only
   * passes the best in its last few placements.
   */
  greedyDive(preorder: number, tolerance = 0, abortAt = Infinity): { offsets: Float64Array; total: number } {
    const pre = preorder < PREORDERS.length ? this.fixedRank(preorder) : this.variedRank(PREORDERS[preorder % PREORDERS.length], this.diveRandom);
    const offsets = new Float64Array(this.tables.n);
    const total = this.dive(pre, offsets, tolerance, abortAt);
    return { offsets, total };
  }

  /**
   * greedyDive's placements, offsets into `offsets`; returns the top. (Its own method: V8
   * compiles the loop on stack replacement, and such code that meets greedyDive's object
   * literal after the loop was thrown away at every dive.)
   */
  private dive(pre: Int32Array, offsets: Float64Array, tolerance: number, abortAt: number): number {
    const { n, sizes, alignments, adjStart, adj, secFrom, secTo } = this.tables;
    const placed = new Uint8Array(n);
    // Each unplaced buffer's lowest offset; a placement raises its conflicts' whether placed or
    // not (a placed buffer's offset is in `offsets`): no test of a random bit per conflict,
    // which the processor mispredicted about as often as not.
    const minOffset = new Float64Array(n);
    const rest = Float64Array.from(this.sectionBytes);
    const restTree = new MaxTree(rest);
    const unplaced = Int32Array.from({ length: n }, (_, i) => i);
    const slotOf = Int32Array.from(unplaced);
    // Each buffer's busiest section, kept until a conflict is placed: only a conflict's
    // placement lowers a section the buffer lives in. (Charged as a query all the same: the
    // budget's units, and so the plans, stay those of a query per candidate.) Sections only
    // lose bytes during a dive, so a stale value is an upper bound (Infinity before the first
    // query): a candidate whose bound cannot beat the best so far is passed over unqueried.
    // On dense sets most candidates are stale at every step (each placement marks its
    // conflicts), and the queries were a quarter of a 10,000-buffer dive's time.
    const busyOf = new Float64Array(n).fill(Infinity);
    const busyStale = new Uint8Array(n).fill(1);
    // The frontier: every unplaced buffer whose lowest offset is at most `reach` (and maybe
    // some that have risen above it since). Offsets only rise, so a buffer left out stays
    // above reach; while the lowest offset plus the tolerance is within reach, a step reads
    // the frontier alone, and only past it all the unplaced buffers (FRONTIER_MARGIN). The
    // steps are charged the unplaced count all the same, so the budgets, and the plans, stay.
    const frontier = new Int32Array(n);
    let frontierCount = 0;
    let reach = -Infinity;
    const margin = FRONTIER_MARGIN * this.meanSize();
    // Buffers within the tolerance of the lowest offset seen so far in a scan: one pass finds
    // the lowest offset and a superset of its candidates.
    const near = new Int32Array(n);
    const oneAlignment = sharedValue(alignments);
    let count = n;
    let total = 0;
    while (count > 0) {
      this.work += count;
      let low = Infinity;
      let nearCount = 0;
      let kept = 0;
      // The lists are filtered by writing every entry and advancing over the kept ones: no
      // branch on placed or within reach, which went either way at random (see topRegion.ts,
      // BRANCHLESS). Entries are written at or before the one read.
      for (let i = 0; i < frontierCount; i++) {
        const b = frontier[i];
        const o = minOffset[b];
        const keep = +(placed[b] === 0) & +(o <= reach);
        frontier[kept] = b;
        kept += keep;
        const isNear = keep & +(o <= low + tolerance);
        near[nearCount] = b;
        nearCount += isNear;
        if ((isNear & +(o < low)) !== 0) low = o;
      }
      frontierCount = kept;
      // An empty frontier (low Infinity) or a window past reach: rebuilt from every unplaced buffer.
      if (low + tolerance > reach) {
        // One pass over them, not two (one for the lowest offset, one for the frontier): every
        // buffer within reach of the lowest offset seen so far is kept. That only falls as the
        // pass goes, so the list holds the frontier (in the same order) and a few more, which a
        // pass over the list drops.
        low = Infinity;
        frontierCount = 0;
        for (let k = 0; k < count; k++) {
          const b = unplaced[k];
          const o = minOffset[b];
          if (o < low) low = o;
          frontier[frontierCount] = b;
          frontierCount += +(o <= low + tolerance + margin);
        }
        reach = low + tolerance + margin;
        kept = 0;
        nearCount = 0;
        for (let i = 0; i < frontierCount; i++) {
          const b = frontier[i];
          const o = minOffset[b];
          frontier[kept] = b;
          kept += +(o <= reach);
          near[nearCount] = b;
          nearCount += +(o <= low + tolerance);
        }
        frontierCount = kept;
      }
      if (low + restTree.max() >= abortAt) return Infinity;
      // The busiest, ties by preorder (ranks are distinct, so the order of `near` does not matter).
      let b = -1;
      let bestBusy = -Infinity;
      const lowest = low + tolerance;
      // Candidates counted here and charged with the step's placement, once per step: a field
      // update per candidate (2.6M per mixed plan) cost 4% of the dives. (Whole numbers: the
      // same sum.) Not once per dive: a store after the loop, with no feedback when V8
      // compiles the loop on stack replacement, threw that code away in every cold plan.
      let candidates = 0;
      for (let i = 0; i < nearCount; i++) {
        const c = near[i];
        if (minOffset[c] > lowest) continue;
        candidates++;
        if (busyStale[c]) {
          // At most busyOf[c] now: below the best, or equal and later in the preorder, it loses.
          if (busyOf[c] < bestBusy || (busyOf[c] === bestBusy && pre[c] > pre[b])) continue;
          busyOf[c] = restTree.rangeMax(secFrom[c], secTo[c]);
          busyStale[c] = 0;
        }
        const busy = busyOf[c];
        if (busy > bestBusy || (busy === bestBusy && pre[c] < pre[b])) {
          bestBusy = busy;
          b = c;
        }
      }
      const slot = slotOf[b];
      const moved = unplaced[--count];
      unplaced[slot] = moved;
      slotOf[moved] = slot;
      placed[b] = 1;
      const top = minOffset[b] + sizes[b];
      total = Math.max(total, top);
      offsets[b] = minOffset[b];
      if (oneAlignment > 0) {
        // One alignment for all (most sets): the raised offset once, no alignment read per conflict.
        const raised = roundUp(top, oneAlignment);
        for (let ai = adjStart[b], end = adjStart[b + 1]; ai < end; ai++) {
          const j = adj[ai];
          if (raised > minOffset[j]) minOffset[j] = raised;
          busyStale[j] = 1;
        }
      } else {
        // Conflicts mostly share one alignment: their raised offset is computed once.
        let lastAlignment = 0;
        let raised = 0;
        for (let ai = adjStart[b], end = adjStart[b + 1]; ai < end; ai++) {
          const j = adj[ai];
          if (alignments[j] !== lastAlignment) {
            lastAlignment = alignments[j];
            raised = roundUp(top, lastAlignment);
          }
          if (raised > minOffset[j]) minOffset[j] = raised;
          busyStale[j] = 1;
        }
      }
      restTree.addRange(rest, secFrom[b], secTo[b], -sizes[b]);
      this.work += candidates * RANGE_QUERY_WORK + 1 + adjStart[b + 1] - adjStart[b] + secTo[b] - secFrom[b] + 1;
    }
    return total;
  }

  /**
   * Re-solves the top of a plan at `capacity` (a large neighbourhood, topRegion.ts): the
   * buffers above its holes are placed again by the core's search, over floors left by the
   * others, which stay where they are. One region per hole share, in turn (each lets the
   * sections keep fewer holes than the one before), within `budget` work in all. Returns the
   * merged plan of the first region whose buffers fit, else undefined. A fit is at most
   * `capacity`: every buffer ending above it leaves more holes in its sections than they can
   * keep, so the region frees it. `aboveBound`: the region's runs are those of a capacity
   * above the lower bound (see decide).
   */
  resolveTop(
    offsets: Float64Array,
    capacity: number,
    budget: number,
    holeShares: readonly number[],
    { aboveBound = false }: Pick<DecideOptions, 'aboveBound'> = {},
  ): { offsets: Float64Array; total: number } | undefined {
    const limit = this.work + budget;
    const byOffset = buffersByOffset(offsets);
    this.work += byOffset.work;
    // Choosing a region reads every section's members four times at least: a budget that does
    // not cover that could not place a region either. (Where most buffers live through most
    // sections, 2,000 buffers hold 4M members: each try cost 0.1 s past the budget.)
    const leastRegionWork = this.tables.n + 4 * this.tables.members.length;
    let layout: PlanLayout | undefined;
    for (const share of holeShares) {
      if (this.work + leastRegionWork >= limit || performance.now() >= this.deadline) return undefined;
      layout ??= planLayout(this.tables, offsets, byOffset.order);
      const region = topRegion(this.tables, layout, capacity, share);
      if (!region) {
        this.work += this.tables.n;
        continue;
      }
      this.work += region.work;
      // Nearly the whole problem again, which the bound's own search already failed with more.
      if (region.free.length > MAX_REGION_SHARE * this.tables.n) continue;
      const fit = this.resolveRegion(region, capacity, limit, aboveBound);
      if (fit) {
        const merged = offsets.slice();
        region.free.forEach((b, k) => (merged[b] = fit[k]));
        const total = this.totalOf(merged);
        if (total <= capacity) return { offsets: merged, total };
      }
    }
    return undefined;
  }

  /** The freed buffers of `region` placed by a core of their own over their floors; their offsets, or undefined. */
  private resolveRegion(region: TopRegion, capacity: number, limit: number, aboveBound: boolean): Float64Array | undefined {
    const { free, floors } = region;
    const { sizes, alignments, intervals } = this.problem;
    const sub = new ExactCore({
      count: free.length,
      sizes: gathered(sizes, free),
      alignments: gathered(alignments, free),
      intervals: intervals.subset(free),
      floors,
    });
    sub.deadline = this.deadline;
    // Its tables, as the region's passes are charged.
    this.work += sub.tables.n + sub.tables.adj.length + sub.tables.members.length;
    const r = sub.decide(capacity, Math.max(0, limit - this.work), { aboveBound });
    this.work += sub.work;
    return r.kind === 'fits' ? r.offsets : undefined;
  }

  /** A depth-first run (CoreRun) on a partition, its set-up charged to this core. */
  private newRun(part: Int32Array, pre: Int32Array, dynamic: boolean, capacity: number, order: SegmentOrder | undefined): CoreRun {
    const run = new CoreRun(this.tables, part, pre, dynamic, capacity, order !== undefined, order);
    this.work += run.work;
    return run;
  }

  /**
   * Runs (or resumes) `run` until this core's work reaches `limit`, charged to this core; on a
   * fit, the partition's offsets go into `out`.
   */
  private advance(run: CoreRun, limit: number, out: Float64Array): RunResult {
    const before = run.work;
    // Work is counted in whole units, so the floor stops at the same step; a fractional limit
    // (budgets are shares) made V8 drop the code it had compiled for whole ones.
    const result = run.solve(Math.floor(before + limit - this.work), out);
    this.work += run.work - before;
    return result;
  }
}

/**
 * The core's tables as a class instance, not an object literal. V8 records which class of
 * typed array each field of a literal's first object holds, compiles `dive` and the `CoreRun`
 * constructor against it, and drops that record (and that code) at the literal's second object:
 * a region's core, once per cold plan. A class's fields start undefined, so V8 records no array
 * class and has nothing to drop.
 */
class Tables implements CoreTables {
  readonly n!: number;
  readonly sizes!: Float64Array;
  readonly alignments!: Float64Array;
  readonly adjStart!: Int32Array;
  readonly adj!: Int32Array;
  readonly secFrom!: Int32Array;
  readonly secTo!: Int32Array;
  readonly sectionCount!: number;
  readonly memStart!: Int32Array;
  readonly members!: Int32Array;
  readonly sectionBytes!: Float64Array;
  readonly stackedSizes!: Float64Array;
  readonly sectionStack!: Float64Array;
  readonly savers?: Int32Array;
  readonly floors?: Float64Array;
  readonly lowestFloor?: Int32Array;
  constructor(tables: CoreTables) {
    Object.assign(this, tables);
  }
}

/*
 * The core's tables, one pass per function with nothing after its loops: in the constructor,
 * V8 compiled them all on stack replacement, then the whole constructor again (two compiles
 * of about 14 ms each per cold multi-pool plan).
 */

/** The value every entry holds, or 0 when they differ (or there are none). */
function sharedValue(values: Float64Array): number {
  const first = values.length > 0 ? values[0] : 0;
  for (let i = 1; i < values.length; i++) if (values[i] !== first) return 0;
  return first;
}

/** Per time of `at`, its section: the index of the last of `times` at or before it. */
function timeIndices(times: Float64Array, at: Float64Array): Int32Array {
  const out = new Int32Array(at.length);
  for (let i = 0; i < at.length; i++) out[i] = timeIndex(times, at[i]);
  return out;
}

/** Per section, into `live`: the bytes of the buffers live in it (prefix sums of +size/-size). */
function liveBytes(secFrom: Int32Array, secTo: Int32Array, sizes: Float64Array, live: Float64Array): void {
  for (let b = 0; b < secFrom.length; b++) {
    live[secFrom[b]] += sizes[b];
    live[secTo[b] + 1] -= sizes[b];
  }
  for (let s = 1; s < live.length - 1; s++) live[s] += live[s - 1];
}

/**
 * What the runs' section inference counts (coreRun.ts, `need`). Buffers live in one section all
 * conflict, so they stack; every offset is a multiple of g, the gcd of the alignments, so a
 * buffer with another one above it takes its size rounded up to g, and only the top one its bare
 * size. A section then needs its stacked sizes less the most any member saves on top. Counting
 * bare bytes instead, a 16-byte pool of unaligned sizes showed the inference a few hundred bytes
 * of room per busy section that no packing has, at capacities near the lower bound (which counts
 * the padding, stackBound.ts). With sizes that are multiples of g both are the bytes (and the
 * sections' stacks are their bytes).
 * (Three functions returning arrays, not one returning an object literal: a literal's second
 * object loses the array classes V8 recorded for its first, and that threw away the code
 * compiled for the function at every second core of a cold plan.)
 */
function stackedSizesOf(problem: CoreProblem): Float64Array {
  const g = alignmentGcd(problem.alignments);
  const stacked = new Float64Array(problem.sizes.length);
  for (let b = 0; b < stacked.length; b++) stacked[b] = roundUpTo(problem.sizes[b], g);
  return stacked;
}

/**
 * Each section's members by what they save on top, most first (then by index), for the runs to
 * follow which unplaced buffer saves the most (CoreRun.passSaver).
 */
function saversOf(problem: CoreProblem, stackedSizes: Float64Array, secFrom: Int32Array, secTo: Int32Array, memStart: Int32Array): Int32Array {
  const { sizes } = problem;
  const saving = new Float64Array(sizes.length);
  for (let b = 0; b < sizes.length; b++) saving[b] = stackedSizes[b] - sizes[b];
  // One sort of the buffers, not one per section: dense sets have millions of member entries.
  // Packed ranks (no comparator called per pair): most saving first, ties by index.
  const bySaving = orderByColumnsDescending([saving], sizes.length);
  const savers = new Int32Array(memStart[memStart.length - 1]);
  fillMembers(secFrom, secTo, memStart, savers, bySaving);
  return savers;
}

/** Per section: the least height its members take stacked (their stacked sizes less the most one saves on top). */
function stackedHeights(problem: CoreProblem, stackedSizes: Float64Array, savers: Int32Array, memStart: Int32Array, members: Int32Array): Float64Array {
  const { sizes } = problem;
  const sectionStack = new Float64Array(memStart.length - 1);
  for (let sec = 0; sec < sectionStack.length; sec++) {
    let stacked = 0;
    for (let k = memStart[sec]; k < memStart[sec + 1]; k++) stacked += stackedSizes[members[k]];
    const top = savers[memStart[sec]];
    sectionStack[sec] = stacked - (memStart[sec + 1] > memStart[sec] ? stackedSizes[top] - sizes[top] : 0);
  }
  return sectionStack;
}

/**
 * Row starts of the section members' CSR, into memStart: each section's member count from
 * +1/-1 at each buffer's ends (as liveBytes), not one increment per member entry (dense sets
 * have millions of them, and a region's core builds these 10-30 times a plan).
 */
function countMembers(secFrom: Int32Array, secTo: Int32Array, memStart: Int32Array): void {
  const sections = memStart.length - 1;
  const delta = new Int32Array(sections + 1);
  for (let b = 0; b < secFrom.length; b++) {
    delta[secFrom[b]]++;
    delta[secTo[b] + 1]--;
  }
  let live = 0;
  for (let s = 0; s < sections; s++) {
    live += delta[s];
    memStart[s + 1] = memStart[s] + live;
  }
}

/** The buffers live in each section into members: each row in `order`, ascending without one. */
function fillMembers(secFrom: Int32Array, secTo: Int32Array, memStart: Int32Array, members: Int32Array, order?: Int32Array): void {
  const fill = memStart.slice(0, memStart.length - 1);
  for (let i = 0; i < secFrom.length; i++) {
    const b = order ? order[i] : i;
    for (let s = secFrom[b]; s <= secTo[b]; s++) members[fill[s]++] = b;
  }
}

/** Per section: its member of the lowest floor (the first of them). */
function lowestFloorOf(floors: Float64Array, memStart: Int32Array, members: Int32Array): Int32Array {
  const lowest = new Int32Array(memStart.length - 1);
  for (let s = 0; s < lowest.length; s++) {
    let w = members[memStart[s]];
    for (let k = memStart[s] + 1; k < memStart[s + 1]; k++) if (floors[members[k]] < floors[w]) w = members[k];
    lowest[s] = w;
  }
  return lowest;
}

/**
 * Per buffer, into crowd: the most bytes live in one of its sections, by a range query each
 * (a scan of its sections was one step per member entry).
 */
function crowding(secFrom: Int32Array, secTo: Int32Array, live: Float64Array, crowd: Float64Array): void {
  const tree = new MaxTree(live);
  for (let b = 0; b < secFrom.length; b++) crowd[b] = tree.rangeMax(secFrom[b], secTo[b]);
}

/**
 * Partitions: maximal runs of sections joined by live buffers. Each section's partition into
 * partOfSection; returns the count.
 */
function partitionSections(secFrom: Int32Array, secTo: Int32Array, partOfSection: Int32Array): number {
  const reach = new Int32Array(partOfSection.length).fill(-1);
  for (let b = 0; b < secFrom.length; b++) reach[secFrom[b]] = Math.max(reach[secFrom[b]], secTo[b]);
  let part = -1;
  let open = -1;
  for (let s = 0; s < partOfSection.length; s++) {
    if (s > open) part++;
    open = Math.max(open, reach[s]);
    partOfSection[s] = part;
  }
  return part + 1;
}

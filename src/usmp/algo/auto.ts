/**
 * `auto`, the default planner. Not TVM's: it aims at the lower bound (memory pressure).
 *
 *  0. Independent parts (buffers whose candidate pools never meet, poolGroups.ts) are planned
 *     one by one, each through the steps below.
 *
 *  1. Lower bound = max(given memory pressure, our own bound: peak live bytes when every buffer
 *     has a live range, else a greedy clique weight).
 *  2. A few placement orders (size, weighted degree, urgency, chronological) x gap policies
 *     (first-fit, best-fit); keep the smallest total (sum of pool ends). On one-pool problems
 *     with live ranges the size order breaks ties as TFLite Micro does, so size/first-fit is
 *     exactly TFLM's greedy plan; every later step only keeps plans that are no worse, so `auto`
 *     is never larger than TFLM. Dense sets (long lifetimes, isDense) place the size order alone,
 *     unless the urgency order reaches the bound (urgencyAtBound).
 *  3. One pool, live ranges (exactCore.ts; steps a-b in coreSteps.ts), under one counted
 *     budget (CallBudget):
 *     a. the exact core decides the bound itself; a fit is the optimum, proven;
 *     b. else the core's spatial greedy dives give an upper bound (on dense sets points below
 *        any other start), and a descent on the capacity with short core runs closes the gap
 *        (an exhausted run proves a capacity infeasible and raises the proven bound);
 *     b'. very sparse sets still above the bound (at most about 48 conflicts per buffer on 2,000
 *        buffers): Vela 3.10's climb, uncharged; at the bound it ends the call, else its plan
 *        replaces a larger one at the end (sparseVelaClimb);
 *     c. the local search (iteratedSearch.ts) goes on from the best plan with what is left (not on
 *        dense sets, where each placement walks hundreds of conflicts and the search gets too few
 *        steps to pay);
 *     d. sparse sets still above the bound: a few tolerant dives (coreSteps.ts), kept when smaller;
 *     e. any set still above the bound: the top of the plan re-solved by the core at the bound
 *        (ExactCore.resolveTop, topRegion.ts; a set of more than 500 buffers only within 0.1%
 *        of it when dense, 2% when sparse), the buffers above its holes placed again over the
 *        others; a fit is the optimum, proven; else the plan pushed down and its top
 *        re-solved below it (finishAboveBound), then the same on the plan upside down, in turns
 *        while it lowers the plan (finishMirrored, mirror.ts);
 *     f. a plan still above the bound by less than an alignment: lift moves (liftMoves.ts), a
 *        buffer with a large rounding moved to the top of the busiest moment (tried on the
 *        plans of steps b and c and on the best greedy start too: a lift to the bound there
 *        ends the call; so does a short re-solve of the top at the bound, tried on the plan of
 *        step b);
 *     g. still above the bound (more than 500 buffers): the finish of step e once more, from the
 *        urgency order's first-fit plan (finishSecondStart), kept when smaller.
 *     h. still above the bound, where a run of step a came near a fit: step a's decision resumed
 *        where its share stopped it, with the work left under the call's ceiling
 *        (ExactCore.resumeDecision); a fit is the optimum, proven;
 *     i. dense, still above the bound (more than 500 buffers), where the last mirrored round of
 *        step e still lowered the plan (or the plan is step g's): more mirrored rounds with the
 *        work left below the call's ceiling less a margin (LATE_ROUNDS_MARGIN), kept when smaller.
 *  4. Otherwise (several pools, size limits, conflict lists, or `exactCore: false`): where it
 *     applies and is affordable, the Vela-style bottleneck climb (bottleneckClimb.ts, Vela's
 *     own choices: its plan is at most Vela's), then the local search from the best plan so far,
 *     re-placing only from the first changed position and keeping moves that are no worse; a
 *     search stalled on a plateau restarts from its best plan with a small kick
 *     (iteratedSearch.ts).
 *  5. Multi-pool interval sets (multiPool.ts): a lower bound that adds up the pools' pinned
 *     peaks; after the search, pool by pool (one-pool auto, or the exact core within a size
 *     limit), and when still above the bound, buffers moved off the unlimited pool's
 *     peak into the limited one and the pools packed again; then pool choices searched on
 *     live bytes alone (profileSplit.ts) and the best plan repaired to them (repackChoices).
 *
 * Conflicts count in either direction (a plan must keep every listed pair apart), pools are
 * tried in preference order with their size hints, and offsets honour both the buffer's and
 * the pool's alignment. Reproducible: every step is bounded by work budgets (counted steps,
 * scaled to the problem size), so the plan depends on the input and seed only; the wall clock
 * (`timeBudgetMs`, or by default a safety cap above 5,000 buffers, safetyClock.ts) is a safety
 * net that says when it cut in (AutoStats.timeCapReached).
 */
import { performance } from 'node:perf_hooks';
import { MemoryPlanningError } from '../../errors';
import { asIntervalGroup, lowerBoundOfBuffers } from '../conflicts';
import { oneWayConflicts, poolSizesOfPlan } from '../verify';
import { recordOptimality } from '../optimality';
import { BufferInfo, BufferPlan, PlanningAlgorithm, PlanningOptions, PoolAllocation } from '../types';
import { ascending, compactPartOf, restrictCompact } from '../compactConflicts';
import { IntervalConflicts, intervalGroupOf } from '../intervalConflicts';
import { alignmentInPool, IndexedPlan, IndexedProblem, indexProblem, poolsExhaustedError, toBufferPlan } from './indexed';
import { describeShortfall, LimitShortfall, limitShortfall } from './limitShortfall';
import { searchWithinLimits } from './withinLimits';
import { skylinePlacement } from './skyline';
import { ExactCore } from './exactCore';
import { CALL_WORK_CEILING, CallBudget, DENSE_DEGREE, isDense, POOL_CALL_MIN_WORK, SMALL_PROBLEM } from './callBudget';
import { initialOrders, NamedOrder, tflmOrder, URGENCY_ORDER, urgencyOrder } from './orderings';
import { stableOrderByValue } from './permutation';
import { BottleneckClimb, bottleneckClimbApplies, VELA_SEED } from './bottleneckClimb';
import { iteratedSearch } from './iteratedSearch';
import { earlyResolveAtBound, finalTolerantDives, finishAboveBound, finishMirrored, finishSecondStart, fitWithin, lateResolveAtBound, resolveTopAtBound, runCoreSteps } from './coreSteps';
import { PlacementEngine } from './placement';
import { CompressedPools, intervalsOf, multiPoolLowerBound, packPools, rebalancePools, repackChoices } from './multiPool';
import { splitByProfiles } from './profileSplit';
import { choicesPeak, concentratedChoices, stackedPlan } from './concentrated';
import { exactPoolChoices } from './poolChoices';
import { seededRandom } from './seededRandom';
import { independentPoolGroups } from './poolGroups';
import { lowerPoolTops, preferEarlierPools } from './preferPools';
import { timeCapMs, timeCapReached } from './safetyClock';
import { withCandidates, withoutLimit } from './withCandidates';

/**
 * Default search budget in full-placement equivalents (one full placement costs n plus the
 * adjacency size in work units), with a floor so that small problems still get a real search.
 * Sized so that a whole call on 2000 random intervals (Vela's 500 climb iterations included)
 * takes about 0.6 s on a busy 2-core machine, leaving margin under the time cap.
 */
const SEARCH_FULL_PLACEMENTS = 100;
/**
 * On multi-pool interval sets the search mainly decides which pool holds each buffer: each pool
 * is then re-planned on its own (packPools), which is where the rest of the time goes. What the
 * search's length decides there is close to chance: on 30 bench-style 2,000-buffer sets with
 * pins, 50 full placements (10M units) and 25 (5M, the floor) gave mean overheads of 0.85%
 * and 0.81% (12 plans larger by up to 2.0 points, 8 smaller by up to 2.8); 25 takes about
 * 140 ms less of a cold call on one core, which was then 0.9-1.1 s.
 */
const MULTI_POOL_SEARCH_FULL_PLACEMENTS = 25;
/**
 * Its ceiling on sets with many conflicts per buffer (DENSE_DEGREE): about one full placement.
 * There the pools' packings after the search (packPoolByPool) make the plan, 3-7% below the
 * search's own, and which plan they reach from the search's choices is close to chance. With
 * pins on long- and medium-lifetime and mixed 2,000-buffer sets (one core, warm; seeds 1-6 and
 * 11-14 of the portfolio's families, medium at 500 too, then seeds 21-30): 10M units against
 * 1M gave 14 and 12 plans smaller, 9 and 7 larger, mean overhead 1.08% -> 0.99% and 1.23% ->
 * 1.23%, and took 35-40% less time (warm calls over 1 s: 4 -> 1 and 9 -> 1); no search at all
 * gave 1.01% on the first. (Earlier, 50 full placements had bought nothing over 25.) A fuzzed
 * 1,456-buffer set of two pools, all live at once (2.1M conflict entries), had spent 1.6 s
 * reaching the one-pool ceiling of 40M. Sparse sets keep that ceiling: the bench's
 * 10,000-buffer set with pins, whose 25 placements are 25M units, ended at 0.067% above its
 * bound with 10M instead of 0.030%.
 */
const MULTI_POOL_MAX_SEARCH_WORK = 1_000_000;
const MIN_SEARCH_WORK = 5_000_000;
/**
 * The floor, though, is at most this many full placements: a move's fixed costs outweigh its
 * work units on tiny problems, where the floor alone took 0.8 s on a 4-buffer multi-pool set
 * (a million placements of a search space of a few hundred plans).
 */
const MAX_FLOOR_FULL_PLACEMENTS = 10_000;
/**
 * The bound's decision resumed at the call's end (ExactCore.resumeDecision), with the work left
 * under the ceiling (at least RESUME_MIN_WORK), where one of its runs came near a fit: placed at
 * least RESUME_MIN_DEPTH of its partition's buffers at once (ExactCore.pausedDepth). A fit at the
 * bound comes from a run's first dive with little backtracking, so a decision whose deepest run
 * stopped far down is a lottery of many more runs; one whose run came within a few percent of
 * the top has its fit a run or two on. Measured (twenty-seventh session) on the 194 held-out
 * sets of 2,000 buffers and fewer that ended above the bound (98 of the 532, 96 of the 336 of
 * the campaign), resumed with whatever the ceiling left: 5 reach the bound (mixed 238, dag 7,
 * iss250 19, blocky 5 and ramp 1, from up to 0.83% above it), every other plan the same; the
 * deepest runs of those that fit placed 96-99.8% of their buffers, except ramp 1's (60%, its fit
 * the resume's second run), while 174 of the 189 that missed stopped below 90%. Resumed on
 * every set, the missed ones spent up to the ceiling for nothing (mixed 78, the slowest cold
 * plan of the 532, 132M -> 150M units). With the gate: the four at the bound, ramp 1 not; 15
 * dag and dagm sets resume for nothing (114-144M -> 150M units), every other plan and its work
 * the same; warm CPU of the resumed ones under that of mixed 78.
 */
const RESUME_MIN_WORK = 1_000_000;
const RESUME_MIN_DEPTH = 0.9;
/**
 * And a ceiling: dense sets (long lifetimes: 2000 buffers with 5M conflict entries) would
 * otherwise get 500M units, many seconds; this keeps a 2000-buffer call near a second without
 * any clock.
 */
const MAX_SEARCH_WORK = 40_000_000;
const DEFAULT_SEED = 0x5eed;

export interface AutoPlanningOptions extends PlanningOptions {
  /** Upper bound on local-search moves. */
  readonly maxIterations?: number;
  /**
   * Search budget in work units (neighbours scanned by placements). The plan depends only on the
   * input, the seed and this budget, unless the wall-clock `timeBudgetMs` cap cuts in first.
   */
  readonly workBudget?: number;
  /** Run the exact core where it applies (default true); off, auto is greedy + climb + search. */
  readonly exactCore?: boolean;
}

export interface AutoStats {
  readonly lowerBound: number;
  readonly initialTotal: number;
  readonly finalTotal: number;
  /** Local-search steps. */
  readonly iterations: number;
  /** Iterations of the Vela-style climb (0 when it does not apply or the start hit the bound). */
  readonly climbIterations: number;
  /** Which strategy gave the plan. */
  readonly strategy: 'greedy' | 'bottleneck climb' | 'local search' | 'exact core' | 'pool by pool';
  /**
   * Proven: no plan is smaller. Either the total reached the lower bound, or the exact core
   * exhausted the search for every smaller capacity.
   */
  readonly provenOptimal: boolean;
  /** The best proven lower bound: lowerBound, raised when the exact core proved a capacity infeasible. */
  readonly provenLowerBound: number;
  /** Work units the exact core spent (0 when it did not run). */
  readonly coreWork: number;
  /** Work units the search spent (see PlacementEngine.work). */
  readonly work: number;
  readonly initialOrder: string;
  /**
   * The wall clock (`timeBudgetMs`, or the safety cap above UNCAPPED_UP_TO buffers,
   * safetyClock.ts) ran out before the call ended: the plan may depend on the machine's speed.
   */
  readonly timeCapReached: boolean;
}

interface Start {
  readonly order: Int32Array;
  readonly bestFit: boolean;
  readonly name: string;
}

/**
 * The best of the starts, and whether the engine still holds its placement. Only a strictly
 * smaller total wins, so a placement is abandoned as soon as its running total reaches the best
 * one, and no start is tried after one reaches the lower bound.
 */
function pickStart(
  problem: IndexedProblem,
  engine: PlacementEngine,
  lowerBound: number,
  sizeOrderOnly: boolean,
  core?: ExactCore,
): { start: Start; total: number; placed: boolean; lifted?: Float64Array; urgencyPlan?: UrgencyPlan } {
  let best: Start | undefined;
  let bestTotal = Infinity;
  let firstFailure = -1;
  let placed = false;
  const orders = initialOrders(problem, engine);
  const urgencyPlan: { missed?: UrgencyPlan } = {};
  const atBound = sizeOrderOnly ? urgencyAtBound(engine, orders, lowerBound, core, urgencyPlan) : undefined;
  if (atBound) return { ...atBound, placed: true };
  const tried: Int32Array[] = [];
  tries: for (const o of sizeOrderOnly ? orders.slice(0, 1) : orders) {
    // An order equal to one placed already places the same: where every buffer has one
    // lifetime (all live at once) the degree, urgency and chronological orders coincide.
    if (tried.some((t) => sameEntries(t, o.order))) continue;
    tried.push(o.order);
    for (const bestFit of o.firstFitOnly || sizeOrderOnly ? [false] : [false, true]) {
      // On huge inputs (100k buffers) a best-fit placement costs seconds; first-fit ones only.
      if (bestFit && engine.adj.length > BEST_FIT_STARTS_UP_TO) continue;
      engine.setOrder(o.order);
      engine.bestFit.fill(bestFit ? 1 : 0);
      // An excess limit of -Infinity makes placeFrom also stop at a total equal to the best.
      const total = engine.placeFrom(0, bestTotal, false, -Infinity);
      if (engine.failedBuffer >= 0 && firstFailure < 0) firstFailure = engine.failedBuffer;
      placed = total < bestTotal;
      if (placed) {
        bestTotal = total;
        best = { order: o.order, bestFit, name: `${o.name}/${bestFit ? 'best-fit' : 'first-fit'}` };
        if (total <= lowerBound) break tries;
      }
    }
  }
  if (!best) {
    const rescued = failedFirst(engine, orders[0].order, firstFailure) ?? packedWithinLimit(problem, engine, core) ?? searchedWithinLimits(problem, engine);
    if (!rescued) throw poolsExhaustedError(problem.buffers[Math.max(0, firstFailure)]);
    return { start: rescued.start, total: rescued.total, placed: true };
  }
  return { start: best, total: bestTotal, placed, urgencyPlan: urgencyPlan.missed };
}

/** The urgency order's smaller placement of a dense set that missed the bound (urgencyAtBound). */
interface UrgencyPlan {
  readonly total: number;
  readonly offsets: Float64Array;
  /** It ended within an alignment of the bound, and the lift (ExactCore.liftNearBound) missed. */
  readonly liftTried: boolean;
}

/** Whether two orders, or two pool choices, are entry for entry the same. */
function sameEntries(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Dense sets place the size order alone, but a placement that reaches the lower bound is the
 * optimum, proven, and ends the call. Vela's urgency order does on sets of a few distinct sizes,
 * where the core's dives and descent stop above it: one of 400 held-out sets of mixed families
 * (2,000 buffers, five sizes, 0.13% above the bound before; Vela's climb reached the bound
 * there in 11 swaps). Each placement is abandoned as soon as it passes the bound, so a miss
 * costs part of a placement. That work is not charged to the call's budget: it is bounded by
 * two placements, and on dense sets a budget a percent smaller reshuffles which plans the
 * core's dives find (measured on 80 held-out dense sets: six plans moved by up to 0.4 point
 * either way, for no bound hit), so the check leaves every other dense plan as it was.
 * A placement that ends less than an alignment above the bound is finished and lifted
 * (ExactCore.liftNearBound), uncharged unless the lift reaches the bound: on mixed seed 133
 * (CNN-like sizes in a 64-byte pool) the urgency order ends 56 bytes above it and a lift
 * packs it there, where the core's steps and descent had ended 0.058% above (Vela's climb
 * reaches the bound after 50 iterations).
 *
 * The first-fit placement is finished even past the bound and handed back in `out`: on dense
 * sets of a few distinct sizes it can end below every plan of the core's steps, and autoSearch
 * then takes it before the final re-solve of the top. In a held-out campaign (2026-11-30, 570
 * sets of 29 families) `auto` ended above Vela 3.10's climb on 8, 7 of them with three to six
 * sizes and medium lifetimes; with this, 2 of the 8 are at the bound (the urgency placement
 * 0.021% and 0.017% above it, the core's steps 0.042% and 0.053%), and the 380 dense and
 * mixed held-out sets keep their plans. It costs the rest of one placement, uncharged like
 * the check: 0.01-0.03 s of a cold plan on long-lifetime sets.
 *
 * The best-fit placement is handed back too when it got within an alignment of the bound (it
 * is finished then, for the lift) and the lift missed, if below the first-fit one: on iss400
 * seed 27 (bench/heldoutFamilies.ts: 2,000 buffers, lifetimes up to 400 of 800 operators,
 * alignment 64) it ends 6 bytes above the bound, where the first-fit placement is 0.90% above
 * and the core's steps and finishes end 0.113% above (Vela 3.10 0.286%); the 868 held-out
 * sets of the regular check keep their plans. Such a plan was lifted as far as it goes
 * already, so the lift after the finish skips it (UrgencyPlan.liftTried): on that set a lift
 * of 12 tries costs 72M units, past the call's ceiling.
 */
function urgencyAtBound(
  engine: PlacementEngine,
  orders: readonly NamedOrder[],
  lowerBound: number,
  core: ExactCore | undefined,
  out: { missed?: UrgencyPlan },
): { start: Start; total: number; lifted?: Float64Array } | undefined {
  const urgency = orders.find((o) => o.name === URGENCY_ORDER);
  if (!urgency) return undefined;
  const work = engine.work;
  // A placement ending within an alignment of the bound is finished and lifted (liftMoves.ts).
  const near = core ? core.maxAlignment() - 1 : 0;
  for (const bestFit of [false, true]) {
    engine.setOrder(urgency.order);
    engine.bestFit.fill(bestFit ? 1 : 0);
    // First-fit goes on past the bound: a miss is the call's `urgencyPlan` (see above).
    const total = engine.placeFrom(0, bestFit ? lowerBound + near : Infinity);
    const start = { order: urgency.order, bestFit, name: `${urgency.name}/${bestFit ? 'best-fit' : 'first-fit'}` };
    if (total <= lowerBound) return { start, total };
    // One copy serves both: the lift copies the plan before it moves anything.
    const offsets = total < Infinity ? engine.offset.slice() : undefined;
    const liftTried = core !== undefined && total <= lowerBound + near;
    if (offsets && (out.missed === undefined || total < out.missed.total)) out.missed = { total, offsets, liftTried };
    if (core && offsets && liftTried) {
      const lifted = atBoundOrUncharged(core, lowerBound, () => core.liftNearBound(offsets, lowerBound));
      if (lifted) return { start, total: lifted.total, lifted: lifted.offsets };
    }
  }
  engine.work = work;
  return undefined;
}

/**
 * The plan `attempt` makes, when it is at `bound`; else undefined, and the attempt's work not
 * charged. For the early tries at the bound: lift moves on a plan within an alignment of it
 * (ExactCore.liftNearBound) on the best greedy start, a dense set's urgency placement and the
 * plans of the core's steps and of the search, and a short re-solve of the top on the steps'
 * plan (earlyResolveAtBound). A plan at the bound is the optimum, proven, and ends the call
 * there, where the core's steps, the search, the final dives, the re-solve and the descent
 * would take up to 0.3-0.5 s to get no lower. A miss is bounded (12 push-downs, or
 * 4M units of re-solve) and not charged, so every later step sees the budget it saw without
 * the try, and plans that miss stay as they were.
 */
function atBoundOrUncharged(
  core: ExactCore,
  bound: number,
  attempt: () => { offsets: Float64Array; total: number } | undefined,
): { offsets: Float64Array; total: number } | undefined {
  const work = core.work;
  const plan = attempt();
  if (plan && plan.total <= bound) return plan;
  core.work = work;
  return undefined;
}

/** Re-placements failedFirst tries at most (n of them on smaller problems). */
const FAILED_FIRST_ATTEMPTS = 64;

/** `order` placed first-fit everywhere: a start named `name`, or undefined when a buffer fits no pool. */
function firstFitStart(engine: PlacementEngine, order: Int32Array, name: string): { start: Start; total: number } | undefined {
  engine.setOrder(order);
  engine.bestFit.fill(0);
  const total = engine.placeFrom(0, Infinity);
  return total < Infinity ? { start: { order, bestFit: false, name }, total } : undefined;
}

/**
 * The buffers in the order of a plan's offsets, ties by index: placed first-fit, each buffer
 * lands at or below its offset there (its slot is still free when its turn comes).
 */
function offsetOrder(offsets: Float64Array): Int32Array {
  const n = offsets.length;
  return stableOrderByValue(offsets, n, new Float64Array(n), new Int32Array(n));
}

/**
 * When no start places every buffer (size limits), a plan may still exist: with a pool of 40
 * bytes aligned to 16, 17 then 9 conflicting bytes end at 41, 9 then 17 at 33. The buffer that
 * failed moves to the front of the order and the order is placed again, first-fit, a bounded
 * number of times. It runs only where auto used to report the pools exhausted, so every plan
 * found before stays the same. A buffer that fails at the front fits none of its pools alone.
 */
function failedFirst(engine: PlacementEngine, order: Int32Array, failed: number): { start: Start; total: number } | undefined {
  const current = Int32Array.from(order);
  const attempts = Math.min(FAILED_FIRST_ATTEMPTS, current.length);
  for (let attempt = 0; attempt < attempts && failed >= 0; attempt++) {
    const k = current.indexOf(failed);
    if (k === 0) return undefined;
    current.copyWithin(1, 0, k);
    current[0] = failed;
    const placed = firstFitStart(engine, current, 'failed first/first-fit');
    if (placed) return placed;
    failed = engine.failedBuffer;
  }
  return undefined;
}

/**
 * Work for packedWithinLimit's decision: a few dozen dives on 2,000 buffers. It runs only where
 * auto would otherwise report the pool exhausted, outside the call's budget.
 */
const WITHIN_LIMIT_WORK = 20_000_000;
/** Work for packedWithinLimit's greedy dives before that (a few on 2,000 buffers, all on small sets). */
const WITHIN_LIMIT_DIVES_WORK = 5_000_000;

/**
 * One size-limited pool where no greedy start and no failed-first order fits: the exact core
 * dives, then decides whether everything fits within the limit. The greedy orders can all miss a packing
 * that exists (fuzzed: six buffers, peak 854 bytes, a 1,006-byte pool; every start left the
 * buffer live throughout with no gap), which the core's search over canonical placements finds.
 * First-fit in the order of the core's offsets puts each buffer at or below its offset there,
 * so within the limit too.
 */
function packedWithinLimit(problem: IndexedProblem, engine: PlacementEngine, core: ExactCore | undefined): { start: Start; total: number } | undefined {
  const limit = problem.poolLimits[0];
  if (!core || !Number.isFinite(limit)) return undefined;
  const offsets = fitWithin(core, limit, WITHIN_LIMIT_DIVES_WORK, WITHIN_LIMIT_WORK);
  return offsets && firstFitStart(engine, offsetOrder(offsets), 'exact core/first-fit');
}

/** Work for searchedWithinLimits, in conflict entries scanned: about 0.1 s. */
const ORDER_SEARCH_WORK = 20_000_000;

/**
 * Any problem with size limits that nothing above fitted: a backtracking search of placement
 * orders (withinLimits.ts; complete for one pool within its budget), placed again by the engine.
 */
function searchedWithinLimits(problem: IndexedProblem, engine: PlacementEngine): { start: Start; total: number } | undefined {
  const order = searchWithinLimits(problem, engine.adjStart, engine.adj, ORDER_SEARCH_WORK)?.order;
  return order ? firstFitStart(engine, order, 'order search/first-fit') : undefined;
}

/** Adjacency entries above which the greedy phase skips best-fit starts (deterministically). */
const BEST_FIT_STARTS_UP_TO = 4_000_000;

/** Iterations of Vela's own search; the climb always gets them (unless the clock runs out). */
const VELA_ITERATIONS = 500;
/** Past Vela's iterations, the climb goes on while it finds a smaller size this often. */
const CLIMB_STALL = 200;
/** Past Vela's iterations, the climb's share of the work budget; the rest is the local search's. */
const CLIMB_SHARE = 0.5;

/** The Vela-style strategy (bottleneckClimb.ts); its work is charged to the engine's counter. */
function climb(problem: IndexedProblem, engine: PlacementEngine, lowerBound: number, workLimit: number, deadline: number, seed: number) {
  const c = new BottleneckClimb(problem, engine.adjStart, engine.adj, urgencyOrder(problem)!, seed);
  const startWork = engine.work;
  const now = () => performance.now();
  const base = { target: lowerBound, deadline, now };
  c.run({ ...base, workLimit: Infinity, maxIterations: VELA_ITERATIONS, stallIterations: Infinity });
  const share = startWork + (workLimit - startWork) * CLIMB_SHARE;
  c.run({ ...base, workLimit: share - startWork, maxIterations: Infinity, stallIterations: CLIMB_STALL });
  engine.work += c.work;
  return c;
}

/**
 * Vela's climb is cheap where its 500 iterations cost at most this many placement units (500
 * full placements of buffers and conflict entries: at most about 48 conflicts per buffer on
 * 2,000 buffers).
 */
const CHEAP_VELA_CLIMB_WORK = 50_000_000;

/**
 * Vela 3.10's climb (bottleneckClimb.ts, widening, from the urgency order, Vela's seed) for
 * VELA_ITERATIONS iterations, on one-pool sets where that is cheap; undefined elsewhere. Its
 * work is not charged: every later step sees the budget it saw without it, and its plan only
 * ends the call (at the bound, proven) or replaces a larger plan at the end (autoSearch).
 *
 * On such sparse sets a plan above the bound is rare, and there `auto` lost to Vela more often
 * than anywhere else: of the 1,484 sets this sparse among `mixedFamily` seeds 1000-4999, 33
 * were above the bound, and on three of them above Vela (seeds 1272 and 1809, where Vela is at
 * the bound, and 2935: 2.640% above it against Vela's 2.094%), as on mixed 409 (2.227% against
 * 1.347%). With it, 1272 and 1809 end at the bound in half the time, 2935 at Vela's plan, 409
 * at 1.864%, and no other plan of the 1,484 changes; a call that misses takes 0.05-0.15 s more.
 * (Taking its plan before the finishing steps instead did better on some of the 33, as low as
 * 0.673% on mixed 409, and worse on others: see docs/memory-planner.md, twenty-eighth session.)
 */
function sparseVelaClimb(
  problem: IndexedProblem,
  engine: PlacementEngine,
  target: number,
  deadline: number,
  seed = VELA_SEED,
): { offsets: Float64Array; total: number } | undefined {
  if (VELA_ITERATIONS * (problem.count + engine.adj.length) > CHEAP_VELA_CLIMB_WORK || !bottleneckClimbApplies(problem)) return undefined;
  const c = new BottleneckClimb(problem, engine.adjStart, engine.adj, urgencyOrder(problem)!, seed, true);
  c.run({ target, workLimit: Infinity, maxIterations: VELA_ITERATIONS, stallIterations: Infinity, deadline, now: () => performance.now() });
  return { offsets: c.bestOffsets(), total: c.bestSize };
}

/** Runs the planner on an indexed problem and leaves the best placement in the engine. */
export function autoSearch(
  problem: IndexedProblem,
  lowerBound: number,
  options: AutoPlanningOptions = {},
  startedAt = performance.now(),
  core?: ExactCore,
  engine = new PlacementEngine(problem),
  poolIntervals?: IntervalConflicts,
  minCallWork?: number,
): { engine: PlacementEngine; stats: AutoStats; plan?: IndexedPlan } {
  engine.setExcessTargets(lowerBound);
  // The budget covers the whole call, set-up and starting orders included. Unless given, there
  // is no clock up to UNCAPPED_UP_TO buffers, and above that only a safety cap the counted
  // budgets end every step well before (safetyClock.ts): the plan is the same on any machine,
  // however busy.
  const deadline = startedAt + timeCapMs(problem.count, options.timeBudgetMs);
  // Dense interval sets with the core (long lifetimes): each engine placement walks hundreds of
  // thousands of conflict entries, so the greedy phase places the size order alone (TFLM's
  // plan, the one to stay under) and there is no local search; the core's dives (points better
  // than any greedy start there) and descent do the work and hand out their offsets.
  const dense = core !== undefined && isDense(problem, engine, core);
  // Set before the starts, whose lifts may already run the core (a clock only above
  // UNCAPPED_UP_TO buffers, or when one is given).
  if (core) core.deadline = deadline;
  const { start, total: initialTotal, placed, lifted: liftedUrgency, urgencyPlan } = pickStart(problem, engine, lowerBound, dense, core);
  let provenLowerBound = lowerBound;
  // Sorted rows only speed up a search (offsets are the same either way), so a call without
  // one does not pay for sorting them.
  engine.sortRows = !dense && performance.now() < deadline;
  let best = initialTotal;
  if (!placed || engine.sortRows) {
    // Placing with sorted rows gives the same offsets, but other predecessors for the search.
    engine.setOrder(start.order);
    engine.bestFit.fill(start.bestFit ? 1 : 0);
    best = engine.placeFrom(0, Infinity);
  }
  engine.commit(0);
  // A start within an alignment of the bound, lifted there, is the optimum, proven.
  const liftedStart =
    liftedUrgency ??
    (core && deadline > startedAt && best > lowerBound ? atBoundOrUncharged(core, lowerBound, () => core.liftNearBound(engine.offset.slice(), lowerBound))?.offsets : undefined);
  // A plan at the proven bound before the search: the call ends with it.
  const provenAt = (c: ExactCore, offsets: Float64Array, total: number, bound: number, strategy: AutoStats['strategy'] = 'exact core') => {
    const stats: AutoStats = {
      lowerBound,
      initialTotal,
      finalTotal: total,
      iterations: 0,
      climbIterations: 0,
      work: engine.work,
      initialOrder: start.name,
      strategy,
      provenOptimal: true,
      provenLowerBound: bound,
      coreWork: c.work,
      timeCapReached: timeCapReached(startedAt, deadline),
    };
    return { engine, stats, plan: onePoolPlan(offsets) };
  };
  if (core && liftedStart) return provenAt(core, liftedStart, lowerBound, lowerBound);

  // A zero time budget asks for the greedy phase only; otherwise the core runs on its own
  // counted budget, whatever the clock says. With the core, one budget covers the rest of the
  // call (the bound, the dives, the descent, then the search), in core work units; without it,
  // the search has its own.
  const coreOn = core !== undefined && deadline > startedAt;
  const share = workShare(options);
  const callBudget = core ? new CallBudget(core, engine, problem, minCallWork, Number.isFinite(deadline), share) : undefined;
  let descended = false;
  let plan: IndexedPlan | undefined;
  if (core && coreOn && callBudget) {
    const steps = runCoreSteps(core, callBudget, lowerBound, best, dense, deadline);
    provenLowerBound = steps.provenLowerBound;
    const stepsOffsets = steps.offsets;
    const lifted =
      !steps.atBound && stepsOffsets && minCallWork === undefined
        ? (atBoundOrUncharged(core, provenLowerBound, () => core.liftNearBound(stepsOffsets, provenLowerBound)) ??
          atBoundOrUncharged(core, provenLowerBound, () => earlyResolveAtBound(core, stepsOffsets, steps.total, provenLowerBound)))
        : undefined;
    if (lifted) return provenAt(core, lifted.offsets, lifted.total, provenLowerBound);
    if (steps.atBound) return provenAt(core, steps.offsets!, steps.total, lowerBound);
    const offsets = steps.offsets;
    if (offsets && dense) {
      best = steps.total;
      plan = onePoolPlan(offsets);
      descended = true;
    } else if (offsets) {
      // The engine holds a plan at most as large (offsetOrder), and the local search goes on from it.
      engine.setOrder(offsetOrder(offsets));
      engine.bestFit.fill(0);
      best = engine.placeFrom(0, Infinity);
      engine.commit(0);
      descended = true;
    }
  }
  // Very sparse sets still above the bound: Vela's own climb, uncharged, a fit at the bound
  // ending the call and its plan a candidate at the end (sparseVelaClimb).
  let velaCandidate: { offsets: Float64Array; total: number } | undefined;
  if (core && coreOn && !dense && minCallWork === undefined && problem.count > SMALL_PROBLEM && best > provenLowerBound) {
    const vela = sparseVelaClimb(problem, engine, provenLowerBound, deadline, options.seed);
    if (vela && vela.total <= lowerBound) return provenAt(core, vela.offsets, vela.total, lowerBound, 'bottleneck climb');
    if (vela && vela.total < best) velaCandidate = vela;
  }
  // Without the core: the Vela-style climb, on its own from the urgency order; its plan is the
  // one to beat (first-fit everywhere, so its order alone reproduces it). With the core it does
  // not run (but for sparseVelaClimb's candidate above): on every bench set the core's steps and
  // the search end below Vela's plan, and the climb's iterations would take their budget
  // (measured: worse plans, slower).
  let climbed: BottleneckClimb | undefined;
  const searchWork =
    options.workBudget ??
    Math.floor(
      share *
        Math.min(
          poolIntervals && engine.adj.length > DENSE_DEGREE * problem.count ? MULTI_POOL_MAX_SEARCH_WORK : MAX_SEARCH_WORK,
          Math.max(
            Math.min(MIN_SEARCH_WORK, MAX_FLOOR_FULL_PLACEMENTS * (problem.count + engine.adj.length)),
            (poolIntervals ? MULTI_POOL_SEARCH_FULL_PLACEMENTS : SEARCH_FULL_PLACEMENTS) * (problem.count + engine.adj.length),
          ),
        ),
    );
  // Its iterations are full re-placements: on dense sets (long lifetimes) Vela's 500 of them
  // take seconds, so it runs only where they are affordable.
  const climbAffordable = VELA_ITERATIONS * (problem.count + engine.adj.length) <= CLIMB_MAX_WORK;
  if (!coreOn && best > lowerBound && climbAffordable && performance.now() < deadline && bottleneckClimbApplies(problem)) {
    climbed = climb(problem, engine, lowerBound, engine.work + searchWork, deadline, options.seed ?? VELA_SEED);
    if (climbed.bestSize <= best) {
      engine.setOrder(climbed.order);
      engine.bestFit.fill(0);
      best = engine.placeFrom(0, Infinity);
      engine.commit(0);
    }
  }
  const climbTotal = climbed?.bestSize ?? Infinity;
  const searchStartTotal = best;
  // Strategy 2, the local search, with the rest of the budget (none on dense sets). When another
  // strategy's plan was adopted, a second line starts from the best greedy start; it stops at
  // the proven bound (the core may have proved a plan above the lower bound optimal).
  const searched = iteratedSearch(
    engine,
    seededRandom(options.seed ?? DEFAULT_SEED),
    best,
    searchStartTotal < initialTotal ? { total: initialTotal, order: start.order, bestFit: new Uint8Array(engine.n).fill(start.bestFit ? 1 : 0) } : undefined,
    {
      target: provenLowerBound,
      otherTotal: climbTotal,
      maxIterations: options.maxIterations ?? Infinity,
      workLimit: dense ? engine.work : engine.work + (options.workBudget ?? (callBudget && coreOn ? callBudget.forSearch() : searchWork)),
      deadline,
    },
  );
  let { kept } = searched;
  const { iterations } = searched;
  best = searched.current;
  // The search starts from the climb's plan when that was adopted, so credit whoever last
  // improved the total.
  let winner: AutoStats['strategy'] =
    kept.total < searchStartTotal
      ? 'local search'
      : descended
        ? 'exact core'
        : searchStartTotal < initialTotal
          ? 'bottleneck climb'
          : 'greedy';
  let replace = kept.total < best;
  if (climbed && climbTotal < kept.total) {
    kept = { total: climbTotal, order: climbed.order, bestFit: new Uint8Array(engine.n) };
    winner = 'bottleneck climb';
    replace = true;
  }
  if (replace) {
    engine.setOrder(kept.order);
    engine.bestFit.set(kept.bestFit);
    best = engine.placeFrom(0, Infinity);
    engine.commit(0);
  } else if (iterations > 0) {
    // The plan handed out is always a full placement of the final order: valid by construction.
    // (The search's incremental placements equal full ones as long as it starts from a complete
    // placement, which every restart and kick leaves; the fallback below is defensive.)
    best = engine.placeFrom(0, Infinity);
    engine.commit(0);
  }
  if (best === Infinity) {
    engine.setOrder(searched.start.order);
    engine.bestFit.set(searched.start.bestFit);
    best = engine.placeFrom(0, Infinity);
    engine.commit(0);
    winner = descended ? 'exact core' : searchStartTotal < initialTotal ? 'bottleneck climb' : 'greedy';
  }
  // The search's plan may be within an alignment of the bound: lifted there, nothing after runs.
  let liftTried: number | undefined;
  if (core && coreOn && minCallWork === undefined && best > provenLowerBound) {
    const offsets = plan ? plan.offset : engine.offset.slice();
    const lifted = atBoundOrUncharged(core, provenLowerBound, () => core.liftNearBound(offsets, provenLowerBound));
    liftTried = best;
    if (lifted) {
      plan = onePoolPlan(lifted.offsets);
      best = lifted.total;
      winner = 'exact core';
    }
  }
  // A whole call's last step (a pool's re-plan inside a multi-pool call is only a part of one,
  // whose second is spent already).
  // The steps after the call's budget share one ceiling of the whole call's core work
  // (CALL_WORK_CEILING, callBudget.ts): each gets at most what is left of it.
  const ceiling = Math.floor(share * CALL_WORK_CEILING);
  if (core && coreOn && !dense && minCallWork === undefined && best > provenLowerBound) {
    const dive = finalTolerantDives(core, best, deadline, undefined, ceiling);
    if (dive) {
      plan = onePoolPlan(dive.offsets);
      best = dive.total;
      winner = 'exact core';
    }
  }
  // A dense set's urgency placement (urgencyAtBound), when it ended below every step's plan.
  if (urgencyPlan && urgencyPlan.total < best) {
    plan = onePoolPlan(urgencyPlan.offsets);
    best = urgencyPlan.total;
    if (urgencyPlan.liftTried && provenLowerBound === lowerBound) liftTried = best;
    winner = 'greedy';
  }
  // Last, on a whole call still above the proven bound: the top of the plan re-solved at that
  // bound (a fit there is the optimum), else the plan pushed down (pushDown.ts) and its top
  // re-solved below it (finishAboveBound), then the same upside down, in turns (finishMirrored):
  // a tolerant dive leaves gaps that buffers above could fill, the holes low in the stack are out
  // of every re-solve's reach until mirrored, and it only lowers the total. The push-down comes second
  // because a plan with its gaps filled leaves the re-solve a smaller region (measured: two
  // dense sets that the re-solve packed at the bound missed it when pushed down first).
  let firstFinishStillLowering = false;
  // Whether the plan the finishing steps end with may still be lowered by mirrored rounds: the
  // first finish's were still lowering it when their work ran out, or it is the second start's
  // (dense: a descent, no rounds of its own). Elsewhere another round repeats the last one.
  let roundsMayLower = false;
  if (core && coreOn && minCallWork === undefined && best > provenLowerBound) {
    const offsets = plan ? plan.offset : engine.offset.slice();
    // A re-solve's fit is at the bound, below best: always taken.
    const resolved = resolveTopAtBound(core, { offsets, total: best }, provenLowerBound, dense, ceiling);
    let finished: { offsets: Float64Array; total: number; stillLowering?: boolean } =
      resolved ??
      (core.work + core.lastPushDownWork < ceiling
        ? finishMirrored(core, finishAboveBound(core, offsets, provenLowerBound, dense, deadline, undefined, ceiling), provenLowerBound, dense, deadline, 1, ceiling)
        : { offsets, total: best });
    firstFinishStillLowering = finished.stillLowering === true;
    // A dense plan the finish brought near the bound: the re-solve at the bound it skipped further
    // above (lateResolveAtBound).
    if (dense && !resolved && finished.total < best && finished.total > provenLowerBound) finished = lateResolveAtBound(core, finished, provenLowerBound, ceiling) ?? finished;
    if (finished.total < best) {
      plan = onePoolPlan(finished.offsets);
      best = finished.total;
      winner = 'exact core';
      roundsMayLower = firstFinishStillLowering;
    }
    // A plan a few bytes above the aligned bound: the wrong buffer tops its busiest moment. (The
    // search's plan, if no step after it lowered the total, was lifted as far as it goes.)
    const lifted = best > provenLowerBound && best !== liftTried ? core.liftNearBound(plan ? plan.offset : engine.offset.slice(), provenLowerBound) : undefined;
    if (lifted && lifted.total < best) {
      plan = onePoolPlan(lifted.offsets);
      best = lifted.total;
      winner = 'exact core';
    }
  }
  // Still above the bound: the finish once more, from a second start (the urgency order's
  // first-fit plan, finishSecondStart), kept when smaller. Large calls only: measured on
  // 2,000-buffer sets, where the other finishing steps' limits (coreSteps.ts) pay for it; dense
  // ones only where the first finish's mirrored rounds had stopped lowering the plan.
  if (core && coreOn && minCallWork === undefined && problem.count > SMALL_PROBLEM && best > provenLowerBound && !(dense && firstFinishStillLowering)) {
    const second = finishSecondStart(core, urgencyOrder(problem)!, provenLowerBound, dense, deadline, ceiling);
    if (second && second.total < best) {
      plan = onePoolPlan(second.offsets);
      best = second.total;
      winner = 'exact core';
      roundsMayLower = dense;
    }
  }
  // Still above the bound with work left under the call's ceiling: the bound's own decision goes
  // on where its share ended (resumeDecision). A fit is the optimum; a miss changes no plan.
  if (core && coreOn && minCallWork === undefined && best > provenLowerBound && provenLowerBound === lowerBound && core.work + RESUME_MIN_WORK < ceiling && core.pausedDepth() >= RESUME_MIN_DEPTH) {
    const resumed = core.resumeDecision(lowerBound, ceiling - core.work);
    if (resumed.kind === 'fits') {
      plan = onePoolPlan(resumed.offsets);
      best = resumed.total;
      winner = 'exact core';
    }
  }
  // Dense, still above the bound: more mirrored rounds on the call's plan (finishMirrored, which
  // starts a round only when its push-down fits below the late ceiling), kept when smaller
  // (LATE_ROUNDS_MARGIN). After the
  // resumed decision: its fit is the optimum, proven, and rounds before it would leave it only
  // the margin (on the 868 held-out sets no call runs both, so either order gives the same
  // plans). Large calls only, as the second start: on the campaign's 500-buffer sets (n500) one
  // took 0.57 -> 0.65 s warm (its plan 0.149% -> 0.037% above the bound), past the slowest
  // 2,000-buffer calls.
  const lateCeiling = ceiling - Math.max(LATE_ROUNDS_MARGIN, core?.lastPushDownWork ?? 0);
  if (core && coreOn && dense && roundsMayLower && minCallWork === undefined && problem.count > SMALL_PROBLEM && plan && best > provenLowerBound) {
    const more = finishMirrored(core, { offsets: plan.offset, total: best }, provenLowerBound, dense, deadline, 1, lateCeiling);
    if (more.total < best) {
      plan = onePoolPlan(more.offsets);
      best = more.total;
      winner = 'exact core';
    }
  }
  // A very sparse set's Vela climb (sparseVelaClimb), when it ended below every step's plan.
  if (velaCandidate && velaCandidate.total < best) {
    plan = onePoolPlan(velaCandidate.offsets);
    best = velaCandidate.total;
    winner = 'bottleneck climb';
  }
  const climbIterations = climbed?.iterations ?? 0;
  let coreWork = core?.work ?? 0;
  // Multi-pool interval sets: each pool packed on its own after the search chose the pools.
  if (poolIntervals && deadline > startedAt && best > lowerBound) {
    const packed = packPoolByPool(problem, poolIntervals, engine, lowerBound, deadline, options.seed);
    coreWork = packed.work;
    if (packed.total < best) {
      plan = packed.plan;
      best = packed.total;
      winner = 'pool by pool';
    }
  }
  return {
    engine,
    plan,
    stats: {
      lowerBound,
      initialTotal,
      finalTotal: best,
      iterations,
      climbIterations,
      work: engine.work,
      initialOrder: start.name,
      strategy: winner,
      provenOptimal: best <= provenLowerBound,
      provenLowerBound,
      coreWork,
      timeCapReached: timeCapReached(startedAt, deadline),
    },
  };
}

/**
 * The search chose each buffer's pool; each pool is then packed on its own (one-pool auto, or
 * the exact core within a size limit). When the result is still above the bound, the pool
 * choices are the problem. First, buffers move from the unlimited pools' busiest moments into
 * the limited pools (rebalancePools) and the pools are packed again on a smaller budget (on 30
 * bench-style 2,000-buffer sets with pins, 4 plans smaller, none larger: mean 0.805% ->
 * 0.767%; about 10 ms more per call). Then the choices are searched on live bytes alone and
 * the best plan so far repaired to them (SPLIT_ROUNDS; on the bench's 25 sets with pins, seeds
 * 11-30 of 2,000 buffers and 11-15 of 500: 10 plans smaller, none larger, mean overhead 0.691%
 * -> 0.409%, seed 21 1.85% -> 0.68%, 500-buffer seed 12 0.97% -> 0.05%; cold, one core,
 * 0.07-0.24 s more on the slowest, at most 0.91 s for the whole command). The best of all
 * these plans is returned. A pool that cannot shrink proves nothing about the whole problem
 * (other pool choices might do better), so no proof comes out of this step.
 */
function packPoolByPool(
  problem: IndexedProblem,
  poolIntervals: IntervalConflicts,
  engine: PlacementEngine,
  lowerBound: number,
  deadline: number,
  seed: number | undefined,
): { plan?: IndexedPlan; total: number; work: number } {
  // A pool planned by `auto` itself with `options`, as a part of this call (minCallWork) or not.
  const planPoolWith =
    (options: AutoPlanningOptions, minCallWork?: number) =>
    (sub: readonly BufferInfo[], bound: number): { plan: BufferPlan; work: number } => {
      // Under a clock (given, or the default cap on large sets) a pool gets what is left of it.
      const timeBudgetMs = Number.isFinite(deadline) ? Math.max(1, deadline - performance.now()) : undefined;
      const r = planAutoCall(sub, bound, { ...options, seed, timeBudgetMs }, minCallWork);
      return { plan: r.plan, work: r.stats.work + r.stats.coreWork };
    };
  const planPool = (workBudget?: number) => planPoolWith({ workBudget }, POOL_CALL_MIN_WORK);
  const limitedCore = coreBudget(problem.count, CORE_LIMITED_POOL_SHARE);
  const packed = packPools(problem, poolIntervals, engine, limitedCore, planPool());
  let work = packed.work;
  const tries = [packed];
  if (sumOf(packed.ends) > lowerBound) {
    const moved = rebalancePools(problem, poolIntervals, engine, REBALANCE_WORK);
    if (moved.moves > 0) {
      const again = packPools(problem, poolIntervals, moved.plan, limitedCore / 2, planPool(REBALANCED_POOL_WORK));
      work += again.work;
      tries.push(again);
    }
  }
  // The pools' peaks may sum to more than the bound: pool choices by live bytes alone
  // (profileSplit.ts), then the best plan so far repaired to them. The rounds differ only in
  // how they treat size-limited pools: without one, a second would repeat the first.
  const rounds = problem.poolLimits.some((l) => l !== Infinity) ? SPLIT_ROUNDS : SPLIT_ROUNDS.slice(0, 1);
  // Each round from the best of `line` so far, its plan added to it.
  const splitRounds = (line: CompressedPools[]): void => {
    // The last repair's start and choices: a round that ends at the same choices from the same
    // plan (its margin or floors moved no buffer) would repeat that repair, to the byte.
    let repaired: { from: CompressedPools; pool: Int32Array } | undefined;
    for (const round of rounds) {
      const from = line.reduce((a, t) => (sumOf(t.ends) < sumOf(a.ends) ? t : a));
      // A total past 2^53 is no plan at all (no byte count states it): no gap is too small there.
      if (sumOf(from.ends) <= lowerBound * (1 + SPLIT_MIN_GAP) && sumOf(from.ends) <= Number.MAX_SAFE_INTEGER) break;
      const limits = problem.poolLimits.map((l) => (l === Infinity ? l : Math.floor(l * (1 - round.margin))));
      const floors = round.floored ? problem.poolLimits.map((l, p) => (l === Infinity ? 0 : from.ends[p])) : undefined;
      const split = splitByProfiles(problem, poolIntervals, from.plan.pool, PROFILE_SPLIT_WORK, seed ?? DEFAULT_SEED, limits, floors);
      work += split.work;
      // No move: the same choices, whose pools packPools packed already.
      if (split.moves === 0 || split.peaks >= sumOf(from.ends)) continue;
      if (repaired && repaired.from === from && sameEntries(repaired.pool, split.pool)) continue;
      repaired = { from, pool: split.pool };
      const again = repackChoices(problem, poolIntervals, from.plan, split.pool, REPACK_WORK, deadline);
      if (!again) continue;
      work += again.work;
      line.push(again);
    }
  };
  splitRounds(tries);
  // Every buffer that may go in the main unlimited pool there (concentrated.ts), where the peaks
  // of those choices are below every plan so far: packed pool by pool from stacks, then the
  // rounds above from it, kept where smaller once the pools' tops are lowered (as the call does
  // with the plan it returns): a plan 0.03% below the best before that step ended above the
  // bound, where the best came down to it (a 200-buffer set with pins, heavy-tailed sizes). A
  // line of its own, so that the rounds from the other plans start where they did before: from
  // it, they left some plans larger.
  const concentrated = concentratedChoices(problem);
  const bestTry = tries.reduce((a, t) => (sumOf(t.ends) < sumOf(a.ends) ? t : a));
  if (concentrated && sumOf(bestTry.ends) > lowerBound && choicesPeak(problem, poolIntervals, concentrated) < sumOf(bestTry.ends)) {
    const again = packPools(problem, poolIntervals, stackedPlan(problem, concentrated), limitedCore, planPoolWith(sharedBy({}, CONCENTRATED_POOL_SHARE)));
    work += again.work;
    const lowered = (plan: IndexedPlan) => sumOf(poolEnds(problem, lowerPoolTops(problem, plan, engine.adjStart, engine.adj)));
    const beaten = lowered(bestTry.plan);
    if (again.ends.every((end, p) => end <= problem.poolLimits[p]) && lowered(again.plan) < beaten) {
      const line = [again];
      splitRounds(line);
      tries.push(...line.filter((t, i) => i === 0 || lowered(t.plan) < beaten));
    }
  }
  let best: { plan?: IndexedPlan; total: number; work: number } = { total: Infinity, work };
  for (const t of tries) {
    const total = sumOf(t.ends);
    if (total < best.total) best = { plan: t.plan, total, work };
  }
  return best;
}

/**
 * The share of a whole call the concentrated choices' unlimited pool is planned with: nearly
 * every buffer is there, and a pool's re-plan (POOL_CALL_MIN_WORK, without the finishing steps)
 * left it 2-7% above its peak where a whole call packs it at the peak. Sets with pins (one core,
 * warm), against a pool's re-plan: 62 sets 10 plans smaller, 3 larger, mean overhead 0.61% ->
 * 0.45% (medium lifetimes 3 2.10% -> 0.42%); seeds 21-30 of five families 8 smaller, 1
 * larger, 0.56% -> 0.42%; up to 0.5 s more where it runs (0.25: 0.49% on both).
 */
const CONCENTRATED_POOL_SHARE = 0.5;

/** Work units of the pool choices by live bytes (splitByProfiles). */
const PROFILE_SPLIT_WORK = 500_000;
/**
 * Plans closer to the bound than this share of it skip those rounds: what they could gain is
 * less than their time is worth (on the bench's sets with pins, plans 0.004-0.08% above the
 * bound gained at most 0.025 points; a fuzzed four-pool set 0.002% above, 0.4 s of nothing).
 */
const SPLIT_MIN_GAP = 0.001;
/** The core's work repairing a plan to those choices (repackChoices), all pools together. */
const REPACK_WORK = 8_000_000;
interface SplitRound {
  /** Each size-limited pool is kept this share below its limit. */
  readonly margin: number;
  /** Each size-limited pool counts at least its end in `from` (see below). */
  readonly floored: boolean;
}
/**
 * The rounds of pool choices by live bytes, each from the best plan so far. First with the
 * size-limited pools 5% below their limits: a pool full to its limit at many moments packs
 * badly. Then with those pools counted at their current ends at least: a small SRAM holding many
 * buffers seldom packs down to its own peak (one-pool auto ends 0.9-4.3% above it on the bench's
 * sets), so moving buffers out of it lowers the sum of peaks more than the plan; with its end as
 * a floor, the choices move buffers into it where its profile has room below that end.
 */
const SPLIT_ROUNDS: readonly SplitRound[] = [
  { margin: 0.05, floored: false },
  { margin: 0, floored: true },
];

/** Budget of the exact core on a size-limited pool of a multi-pool set, as a share of a few dives. */
const CORE_DIVES = 4;
const CORE_MAX_WORK = 30_000_000;
/**
 * Size-limited pools of a multi-pool set (full, most buffers): the core rarely finds room there.
 * Measured on 50 bench-style 2k sets with pins: it never did, in 56 tries of 2-4M units each
 * (about 25 ms warm, 40 ms cold on one core); a quarter of that still covers a few dives.
 */
const CORE_LIMITED_POOL_SHARE = 0.0625;
/** Work units of rebalancePools, and the search budget of each pool's second re-plan. */
const REBALANCE_WORK = 5_000_000;
const REBALANCED_POOL_WORK = 2_000_000;
const sumOf = (a: Float64Array): number => a.reduce((x, y) => x + y, 0);
/** Per pool, where `plan` ends. */
function poolEnds(problem: IndexedProblem, plan: IndexedPlan): Float64Array {
  const ends = new Float64Array(problem.pools.length);
  for (let b = 0; b < problem.count; b++) ends[plan.pool[b]] = Math.max(ends[plan.pool[b]], plan.offset[b] + problem.sizes[b]);
  return ends;
}
function coreBudget(n: number, share: number): number {
  return Math.max(1_000_000, Math.min(CORE_MAX_WORK, CORE_DIVES * n * n)) * share;
}

/** The climb's 500 iterations are affordable up to this many placement work units. */
const CLIMB_MAX_WORK = 150_000_000;

/**
 * The late mirrored rounds on dense sets (after every other step, auto.ts) stop this far below
 * the call's ceiling (CALL_WORK_CEILING), or a push-down's work (the last one's) below it if
 * more. A round starts only when its push-down, as the last one cost, fits below that, and its
 * descent's re-solves stop there, but a re-solve's set-up (choosing its region, its core's
 * tables: reads of the conflict rows, as a push-down's are) can pass its limit: by up to 1.9M
 * units on the held-out long-lifetimes sets (push-downs of 4.7M), by 7M on a set of the
 * campaign's issue shape with lifetimes up to 400 operators (push-downs of 10M), whose call
 * ended at 152M with a fixed 5M. The first finish's rounds stop at their own work (36M), still
 * lowering the plan on some dense sets, whose calls then end 13-28M units below the ceiling;
 * the late rounds continue them only there (or where the plan is the second start's, which has
 * no rounds on dense sets): elsewhere a round would repeat the last, failed one (the same plan
 * finished once more in its own orientation, tried on the 14 medium sets of that kind: no plan
 * lower). Kept when smaller, so no plan grows. See docs/memory-planner.md, twenty-seventh
 * session, for what they gain and cost.
 */
const LATE_ROUNDS_MARGIN = 5_000_000;

/** The exact core's offsets as a plan: everything in the one pool. */
function onePoolPlan(offsets: Float64Array): IndexedPlan {
  return { pool: new Int32Array(offsets.length), offset: offsets };
}

/** The exact core covers one-pool interval sets (conflicts = overlapping live ranges). */
function exactCoreFor(problem: IndexedProblem, intervals: IntervalConflicts | undefined): ExactCore | undefined {
  if (!intervals || problem.pools.length !== 1) return undefined;
  if (problem.candidates.some((c) => c.length !== 1)) return undefined;
  const alignments = Float64Array.from({ length: problem.count }, (_, b) => alignmentInPool(problem, b, 0));
  return new ExactCore({ count: problem.count, sizes: problem.sizes, alignments, intervals });
}

export function autoLowerBound(buffers: readonly BufferInfo[], memoryPressure: number): number {
  return Math.max(memoryPressure, lowerBoundOfBuffers(buffers));
}

/** `auto` with its statistics, for the benchmark and the CLI. */
export function planAuto(buffers: readonly BufferInfo[], memoryPressure: number, options: AutoPlanningOptions = {}) {
  const result = planAutoCall(buffers, memoryPressure, options);
  const { stats } = result;
  // A conflict listed one way binds only the buffer that lists it (verifyPlan, as TVM's
  // planners read it), while auto keeps every listed pair apart: its proofs are of that
  // stricter problem, and a plan sharing the addresses of such a pair may be smaller (two
  // 16-byte buffers, one listing the other: auto's 32 bytes were reported proven optimal, where
  // greedy_by_size's valid 16 were the optimum). Only the bound of the mutual pairs
  // (lowerBoundOfBuffers) proves anything then, whether or not the stricter problem was solved
  // (a plan not proven optimal carried that problem's proven bound, above valid plans: 4 bytes
  // where one of 3 exists).
  if (oneWayConflicts(buffers).length === 0) return result;
  const lowerBound = autoLowerBound(buffers, memoryPressure);
  const provenOptimal = stats.finalTotal <= lowerBound;
  return { ...result, stats: { ...stats, lowerBound, provenLowerBound: provenOptimal ? stats.finalTotal : lowerBound, provenOptimal } };
}

/**
 * Zero-size buffers overlap nothing, so each sits at offset 0 of its first candidate pool
 * (aligned, within any limit, adding nothing to the total) and the rest is planned without
 * them. Left in, the exact core's static runs (the descent's probes) went wrong: a zero-size
 * buffer's top sets the dominance height, a buffer at that offset is then dominated unless the
 * zero-size one goes first, and after it the fixed tie order may forbid it; so capacities a plan
 * fits were "proved" infeasible (a one-pool set of 6 buffers, optimum 73, reported 74 proven
 * optimal). Interval groups stay interval groups.
 */
function planWithoutZeroSize(
  buffers: readonly BufferInfo[],
  memoryPressure: number,
  options: AutoPlanningOptions,
  minCallWork?: number,
): { plan: BufferPlan; stats: AutoStats } {
  const zero = new Set(buffers.filter((b) => b.sizeBytes === 0).map((b) => b.name));
  const sized = buffers.filter((b) => b.sizeBytes > 0);
  // A group stays a group, each buffer with its own candidate pools (a JSON set's vary).
  const compact = compactPartOf(buffers);
  const rest: BufferInfo[] = intervalGroupOf(buffers)
    ? asIntervalGroup(sized)
    : compact && ascending(compact.indices)
      ? sized.length === 0
        ? []
        : restrictCompact(sized, compactPartOf(sized)!)
      : sized.map((b) => ({ ...b, conflicts: b.conflicts.filter((c) => !zero.has(c)) }));
  const { plan, stats } = planAutoCall(rest, memoryPressure, options, minCallWork);
  const all = new Map<string, PoolAllocation>();
  for (const b of buffers) all.set(b.name, zero.has(b.name) ? { pool: b.poolCandidates[0].name, offset: 0 } : plan.get(b.name)!);
  return { plan: all as BufferPlan, stats };
}

/** `minCallWork`: the floor of the core's budget (CallBudget), lower for a part of a call. */
function planAutoCall(
  buffers: readonly BufferInfo[],
  memoryPressure: number,
  options: AutoPlanningOptions,
  minCallWork?: number,
): { plan: BufferPlan; stats: AutoStats } {
  if (buffers.some((b) => b.sizeBytes === 0)) return planWithoutZeroSize(buffers, memoryPressure, options, minCallWork);
  if (buffers.length === 0) {
    const stats: AutoStats = {
      lowerBound: 0,
      initialTotal: 0,
      finalTotal: 0,
      iterations: 0,
      climbIterations: 0,
      work: 0,
      initialOrder: 'none',
      strategy: 'greedy',
      provenOptimal: true,
      provenLowerBound: 0,
      coreWork: 0,
      timeCapReached: false,
    };
    return { plan: new Map(), stats };
  }
  const groups = independentPoolGroups(buffers);
  if (groups) return planPoolGroups(groups, memoryPressure, options, minCallWork);
  const startedAt = performance.now();
  const problem = indexProblem(buffers);
  if (problem.intervals && problem.intervals.entryCount() > MAX_ADJACENCY_ENTRIES) {
    return planDenseIntervals(problem, problem.intervals, autoLowerBound(buffers, memoryPressure));
  }
  const compactDense = denseCompactIntervals(buffers);
  if (compactDense) return planDenseIntervals(problem, compactDense, autoLowerBound(buffers, memoryPressure));
  const stacked = stackedClique(problem, buffers, memoryPressure);
  if (stacked) return stacked;
  const engine = new PlacementEngine(problem);
  // Conflicts that are exactly the live-range overlaps (an interval group, or conflict lists
  // that say the same, as a JSON buffer set with live ranges; read before a search re-sorts the
  // engine's rows): one pool gets the exact core; several pools their own lower bound, and the
  // exact core per pool after the search.
  const intervals = intervalsOf(problem, engine.adjStart, engine.adj);
  const poolIntervals = problem.pools.length > 1 ? intervals : undefined;
  // Limits the live bytes prove too small: refused before any search (limitShortfall.ts).
  const shortfall = intervals && limitShortfall(problem, intervals);
  if (shortfall) throw shortfallError(problem, shortfall);
  // Live ranges that are the conflicts: the bound counts the alignment padding no plan avoids
  // (with one pool too: a JSON set's lists may say what its ranges say).
  const ownBound = intervals ? multiPoolLowerBound(problem, intervals) : lowerBoundOfBuffers(buffers);
  const lowerBound = Math.max(memoryPressure, ownBound);
  let searched: ReturnType<typeof autoSearch>;
  try {
    searched = autoSearch(
      problem,
      lowerBound,
      options,
      startedAt,
      // A zero time budget asks for the greedy phase alone: no core to build.
      options.exactCore === false || options.timeBudgetMs === 0 ? undefined : exactCoreFor(problem, intervals),
      engine,
      options.exactCore === false ? undefined : poolIntervals,
      minCallWork,
    );
  } catch (e) {
    // Limits that add up to less than the set's own bound hold no plan: nothing to rescue. Not
    // the pressure's: a given one is a target, and may be above what the limits hold.
    if (!(e instanceof MemoryPlanningError) || sumOf(problem.poolLimits) < ownBound) throw e;
    // (Once every buffer has one candidate, choosing pools changes nothing: no second round.)
    const choice = problem.candidates.some((c) => c.length > 1);
    const pinned = choice ? pinnedWithinLimits(problem, engine, intervals) : undefined;
    const planned = pinned && overflowAsUndefined(() => planPinned(pinned, memoryPressure, lowerBound, sharedBy(options, PINNED_RESCUE_SHARE), minCallWork));
    const lifted = planned ?? planLifted(problem, poolIntervals, lowerBound, memoryPressure, options, minCallWork, startedAt);
    if (lifted) return lifted;
    throw e;
  }
  const { stats, plan } = searched;
  if (problem.pools.length === 1) return { plan: toBufferPlan(problem, plan ?? engine), stats };
  // Several pools: pool ends lowered where top buffers have room elsewhere, then free moves to
  // preferred pools.
  const lowered = lowerPoolTops(problem, plan ?? engine, engine.adjStart, engine.adj);
  const preferred = preferEarlierPools(problem, lowered, engine.adjStart, engine.adj);
  const ends = poolEnds(problem, preferred);
  const finalTotal = Math.min(stats.finalTotal, sumOf(ends));
  // Lowering the pool tops can bring the plan down to the proven bound: then it is proven too
  // (a three-pool set at its bound of 8,192 bytes was reported not proven, while `uma-ts plan`,
  // judging the total by the bound itself, said proven).
  const provenOptimal = stats.provenOptimal || finalTotal <= stats.provenLowerBound;
  return { plan: toBufferPlan(problem, preferred), stats: { ...stats, finalTotal, provenOptimal } };
}

/** Pools exhausted, as TVM says it, for the largest buffer of a shortfall, with the proof in `shortfall`. */
function shortfallError(problem: IndexedProblem, s: LimitShortfall): MemoryPlanningError {
  const e = poolsExhaustedError(problem.buffers[s.largest]);
  const why = describeShortfall(problem, s);
  return new MemoryPlanningError(`${e.message}; ${why}`, { ...e.context, shortfall: why });
}

/**
 * Several pools where every start overflowed a limit (the engine takes each buffer's first
 * candidate pool where it fits, and the order search with that rule missed): the order search
 * choosing the pools itself, then, on small sets with live ranges, every choice of pools with
 * the exact core deciding each limited pool (poolChoices.ts). Its buffers, each pinned to the
 * pool found, are planned again.
 */
function pinnedWithinLimits(problem: IndexedProblem, engine: PlacementEngine, intervals: IntervalConflicts | undefined): BufferInfo[] | undefined {
  const pool =
    searchWithinLimits(problem, engine.adjStart, engine.adj, ORDER_SEARCH_WORK, true)?.pool ??
    (intervals ? exactPoolChoices(problem, intervals, ORDER_SEARCH_WORK) : undefined);
  if (!pool) return undefined;
  return withCandidates(problem.buffers, (i) => [problem.pools[pool[i]]]);
}

/**
 * Size limits that no start fitted, nor the rescues at them (pickStart, pinnedWithinLimits): the
 * same buffers planned again as a whole call (its greedy starts, then the exact core's steps or
 * the pools' search) with size limits lifted, and that plan kept where every pool fits its
 * limit. Without a limit those steps run from the best start; with one they never ran, as no
 * start fitted, so a limit at what auto itself plans without it could fail. One pool:
 * rectangles cut from a 1 MiB pool and limited to it failed on 22 of 51 sets of 120-800
 * buffers, 2,000-buffer sets limited to auto's own plan without a limit on 9 of 12 of long and
 * medium lifetimes (seeds 1-6). Several pools: the bench's sets with pins (SRAM limited to a
 * third of the bound, DRAM not) with DRAM then limited to its use in auto's plan, as a user
 * sizes a pool from the memory report, failed on 10 of 10 of 2,000 buffers (seeds 11-20), now on
 * 2 (where the pool choices a tighter SRAM leads to differ too much). With several pools
 * limited, every limit is lifted at once first (fuzzed sets of 20-80 buffers with every pool
 * limited to its size in auto's own plan failed on 8 of 800: no single lift fitted). Then one
 * at a time, from the last pool (where a preference order spills), at most MAX_LIFTED pools.
 * (Limits that add up to less than the set's own bound never get here.) Under a clock, each
 * call gets what is left of it.
 */
function planLifted(
  problem: IndexedProblem,
  intervals: IntervalConflicts | undefined,
  lowerBound: number,
  memoryPressure: number,
  options: AutoPlanningOptions,
  minCallWork: number | undefined,
  startedAt: number,
): { plan: BufferPlan; stats: AutoStats } | undefined {
  const limits = problem.poolLimits;
  // Its own calls do not lift again: with k limited pools that would nest k deep.
  if ((options as LiftingOptions)[LIFTED]) return undefined;
  const limited = problem.pools.map((_, p) => p).filter((p) => Number.isFinite(limits[p]));
  // Pools are one by name (indexProblem).
  const index = new Map(problem.pools.map((q, k) => [q.name, k] as const));
  const { timeBudgetMs } = options;
  // The lifted calls are marked; the pinned ones (pools of one candidate each, whose own lifts
  // leave no limit to lift) are not.
  const leftOfClock = (lifting: boolean): LiftingOptions => ({
    ...options,
    ...(timeBudgetMs === undefined || !Number.isFinite(timeBudgetMs) ? {} : { timeBudgetMs: Math.max(1, timeBudgetMs - (performance.now() - startedAt)) }),
    ...(lifting ? { [LIFTED]: true as const } : {}),
  });
  // Every limit at once first: a user who sized the pools from the memory report of a plan
  // without limits gets that plan back (the calls count work, not time).
  const lifts = [...(limited.length > 1 ? [limited] : []), ...[...limited].reverse().slice(0, MAX_LIFTED).map((p) => [p])];
  for (const lift of lifts) {
    const pools = problem.pools.map((q, k) => (lift.includes(k) ? withoutLimit(q) : q));
    const buffers = withCandidates(problem.buffers, (b) => problem.buffers[b].poolCandidates.map((q) => pools[index.get(q.name)!]));
    const pressure = liftedPressure(buffers, memoryPressure, lift.length === limited.length);
    const lifted = overflowAsUndefined(() => planAutoCall(buffers, pressure, leftOfClock(true), minCallWork));
    if (!lifted) continue;
    if (withinLimits(problem, lifted.plan)) return judged(lifted, lowerBound);
    // Past a limit: its pool choices, free buffers then moved off the pools' peaks where the
    // other pools stay within their limits (profileSplit.ts), and each pool planned on its own
    // within its limit, with a whole call's work (within the call above, a pool got a part).
    if (problem.pools.length === 1) continue;
    const choices = Int32Array.from(problem.buffers, (b) => index.get(lifted.plan.get(b.name)!.pool)!);
    const room = problem.poolLimits.map((l) => (l === Infinity ? l : Math.floor(l * (1 - LIFTED_SPLIT_MARGIN))));
    const chosen = intervals ? splitByProfiles(problem, intervals, choices, LIFTED_SPLIT_WORK, options.seed ?? DEFAULT_SEED, room).pool : choices;
    const pinned = withCandidates(problem.buffers, (b) => [problem.pools[chosen[b]]]);
    const repacked = overflowAsUndefined(() => planPinned(pinned, memoryPressure, lowerBound, leftOfClock(false), minCallWork));
    if (repacked && withinLimits(problem, repacked.plan)) return repacked;
  }
  return undefined;
}

/**
 * The target of a call with limits lifted. With every limit lifted, a pressure above the set's
 * own bound is a bound of the limits (the one `uma-ts plan` computes for a JSON set with
 * them): as the target it stopped the call short of the plan made without limits (a fuzzed
 * three-pool set, limits at that plan's sizes, failed so), so the set's own bound instead. A
 * pressure below it is the user's target, kept; so is any with a limit left.
 */
function liftedPressure(buffers: readonly BufferInfo[], memoryPressure: number, everyLimit: boolean): number {
  return everyLimit ? Math.min(memoryPressure, lowerBoundOfBuffers(buffers)) : memoryPressure;
}

/** A plan of the problem with a limit lifted, its bound and proof those of the problem. */
function judged(lifted: { plan: BufferPlan; stats: AutoStats }, lowerBound: number): { plan: BufferPlan; stats: AutoStats } {
  const provenLowerBound = Math.max(lowerBound, lifted.stats.provenLowerBound);
  return {
    plan: lifted.plan,
    stats: { ...lifted.stats, lowerBound: Math.max(lowerBound, lifted.stats.lowerBound), provenLowerBound, provenOptimal: lifted.stats.finalTotal <= provenLowerBound },
  };
}

/**
 * The options of a call that is a share of another's: one of several independent groups'
 * (planPoolGroups), or a rescue's (PINNED_RESCUE_SHARE). The share of a whole call's work it may
 * spend (its budget, its steps' ceiling, its search), 1 unless set.
 */
const WORK_SHARE = Symbol('workShare');
type SharedOptions = AutoPlanningOptions & { readonly [WORK_SHARE]?: number };

/** The share of a whole call's work `options` give (WORK_SHARE). */
function workShare(options: AutoPlanningOptions): number {
  return (options as SharedOptions)[WORK_SHARE] ?? 1;
}

/** `options` for a call that may spend `share` of what the call they were given to may. */
function sharedBy(options: AutoPlanningOptions, share: number): SharedOptions {
  return { ...options, [WORK_SHARE]: share * workShare(options) };
}

/**
 * The share of a call's work for the plan of the pools a rescue chose (pinnedWithinLimits),
 * after the call's own search, which spent its work and found none within the limits.
 */
const PINNED_RESCUE_SHARE = 0.5;

/** Marks the options of planLifted's own calls (carried by a spread, as a symbol key is). */
const LIFTED = Symbol('lifted');
type LiftingOptions = AutoPlanningOptions & { readonly [LIFTED]?: true };

/** Pools planLifted lifts one at a time at most (after every limit at once), one call each. */
const MAX_LIFTED = 3;
/** Work of the pool choices by live bytes after a lifted limit (splitByProfiles). */
const LIFTED_SPLIT_WORK = 2_000_000;
/**
 * The share of each limit those choices leave free in live bytes, for the packing's own excess:
 * with none, a bench set with pins (seed 15) had its SRAM's live bytes moved to 112 bytes under
 * its limit, which no packing met; with 0.2-1% it planned.
 */
const LIFTED_SPLIT_MARGIN = 0.005;

/** Whether every pool of `plan` ends within its limit. */
function withinLimits(problem: IndexedProblem, plan: BufferPlan): boolean {
  const ends = poolSizesOfPlan(problem.buffers, plan);
  return problem.pools.every((q, p) => (ends.get(q.name) ?? 0) <= problem.poolLimits[p]);
}

/** `plan()`, or undefined where it reports the pools exhausted. */
function overflowAsUndefined<T>(plan: () => T): T | undefined {
  try {
    return plan();
  } catch (e) {
    if (e instanceof MemoryPlanningError) return undefined;
    throw e;
  }
}

/**
 * The plan of the pinned buffers, judged against the whole problem's bound: pinning is one
 * choice of pools among others, so its own bound proves nothing here.
 */
function planPinned(
  pinned: readonly BufferInfo[],
  memoryPressure: number,
  lowerBound: number,
  options: AutoPlanningOptions,
  minCallWork: number | undefined,
): { plan: BufferPlan; stats: AutoStats } {
  const { plan, stats } = planAutoCall(pinned, memoryPressure, options, minCallWork);
  const provenOptimal = stats.finalTotal <= lowerBound;
  return { plan, stats: { ...stats, lowerBound, provenLowerBound: lowerBound, provenOptimal } };
}

/**
 * Independent parts (poolGroups.ts) planned one by one; a time budget is the whole call's, so
 * each part gets what is left of it. Totals, bounds and work add up (the parts' pools are
 * apart); the plan is proven optimal when every part's is.
 */
function planPoolGroups(
  groups: readonly (readonly BufferInfo[])[],
  memoryPressure: number,
  options: AutoPlanningOptions,
  minCallWork: number | undefined,
): { plan: BufferPlan; stats: AutoStats } {
  const startedAt = performance.now();
  const plan = new Map<string, PoolAllocation>();
  const parts: AutoStats[] = [];
  // One call's work for all of them (each group a call of its own took one each: four pools of
  // 500 long-lived buffers 2.1 s), smallest first, each its part of what is left by buffers, so
  // what a group at its bound leaves goes to the ones after it.
  const share = workShare(options);
  let workLeft = share * CALL_WORK_CEILING;
  let buffersLeft = groups.reduce((n, g) => n + g.length, 0);
  for (const group of [...groups].sort((a, b) => a.length - b.length)) {
    const timeBudgetMs = options.timeBudgetMs === undefined ? undefined : Math.max(0, options.timeBudgetMs - (performance.now() - startedAt));
    const groupShare = Math.max(0, workLeft) * (group.length / buffersLeft) / CALL_WORK_CEILING;
    const groupOptions: SharedOptions = { ...options, timeBudgetMs, [WORK_SHARE]: groupShare };
    const r = planAutoCall(group, 0, groupOptions, minCallWork);
    for (const [name, at] of r.plan) plan.set(name, at);
    parts.push(r.stats);
    workLeft -= r.stats.coreWork;
    buffersLeft -= group.length;
  }
  const sum = (of: (s: AutoStats) => number): number => parts.reduce((total, s) => total + of(s), 0);
  const lowerBound = Math.max(memoryPressure, sum((s) => s.lowerBound));
  const finalTotal = sum((s) => s.finalTotal);
  const provenOptimal = finalTotal <= lowerBound || parts.every((s) => s.provenOptimal);
  const largest = parts.reduce((a, s) => (s.finalTotal > a.finalTotal ? s : a));
  const stats: AutoStats = {
    lowerBound,
    initialTotal: sum((s) => s.initialTotal),
    finalTotal,
    iterations: sum((s) => s.iterations),
    climbIterations: sum((s) => s.climbIterations),
    work: sum((s) => s.work),
    initialOrder: parts.map((s) => s.initialOrder).join(' + '),
    strategy: largest.strategy,
    provenOptimal,
    provenLowerBound: provenOptimal ? finalTotal : Math.max(lowerBound, sum((s) => s.provenLowerBound)),
    coreWork: sum((s) => s.coreWork),
    timeCapReached: parts.some((s) => s.timeCapReached),
  };
  return { plan: plan as BufferPlan, stats };
}

/**
 * Directed conflict entries above which `auto` does not build the adjacency of an interval set
 * (4 bytes each, twice): a 20k all-live set has 400M. Such sets are planned on skylines instead.
 */
const MAX_ADJACENCY_ENTRIES = 25_000_000;

/**
 * A compiled model's part of one class as intervals, which planDenseIntervals stacks on: its
 * workspace buffers' live ranges, or, for its constants' clique, one common time (every constant
 * sits on top of all placed before it). Undefined for a part of both classes, or no such part.
 */
function compactClassIntervals(buffers: readonly BufferInfo[]): IntervalConflicts | undefined {
  const part = compactPartOf(buffers);
  if (!part) return undefined;
  const { set, indices } = part;
  const clique = set.clique[indices[0]];
  for (const i of indices) if (set.clique[i] !== clique) return undefined;
  const n = indices.length;
  if (clique === 1) return new IntervalConflicts(new Float64Array(n), new Float64Array(n));
  return new IntervalConflicts(
    Float64Array.from(indices, (i) => set.first[i]),
    Float64Array.from(indices, (i) => set.last[i]),
  );
}

/**
 * A compiled model's part of one class (compactClassIntervals) with more conflicts than
 * MAX_ADJACENCY_ENTRIES. Parts below the limit keep the lists' path, and their plans
 * (compactConflicts.ts).
 */
function denseCompactIntervals(buffers: readonly BufferInfo[]): IntervalConflicts | undefined {
  const intervals = compactClassIntervals(buffers);
  return intervals && intervals.entryCount() > MAX_ADJACENCY_ENTRIES ? intervals : undefined;
}

/**
 * Cliques above this many buffers (every buffer live with every other: a compiled model's
 * constants, a JSON set of buffers all live at once) are stacked first (stackedClique).
 */
const STACKED_CLIQUE_FROM = SMALL_PROBLEM;

/**
 * A one-pool clique stacked in the TFLM size order (planDenseIntervals: on ranges that all share
 * a time, each buffer lands on top of all placed before it), when that stack meets the lower
 * bound within the pool's limit: then no plan is smaller, and the engine's adjacency of n^2
 * entries is never built. That adjacency and the greedy starts over it took 2.5 s of a 10 s
 * compile of a model with 5,000 distinct constants (just under MAX_ADJACENCY_ENTRIES), for the
 * same stack. Undefined otherwise (alignments whose padding the size order does not avoid): the
 * call goes on as before.
 */
function stackedClique(problem: IndexedProblem, buffers: readonly BufferInfo[], memoryPressure: number): { plan: BufferPlan; stats: AutoStats } | undefined {
  if (problem.count <= STACKED_CLIQUE_FROM || problem.pools.length !== 1) return undefined;
  // Live ranges (an interval group, or a compiled model's part of one class) that all contain
  // one time: pairwise overlapping, so every buffer conflicts with every other.
  const intervals = problem.intervals ?? compactClassIntervals(buffers);
  if (!intervals || !shareATime(intervals)) return undefined;
  const stacked = planDenseIntervals(problem, intervals, autoLowerBound(buffers, memoryPressure));
  return stacked.stats.provenOptimal && stacked.stats.finalTotal <= problem.poolLimits[0] ? stacked : undefined;
}

/** Whether every live range of `intervals` contains one time. */
function shareATime(intervals: IntervalConflicts): boolean {
  let latestFirst = -Infinity;
  let earliestLast = Infinity;
  for (let b = 0; b < intervals.count; b++) {
    latestFirst = Math.max(latestFirst, intervals.first[b]);
    earliestLast = Math.min(earliestLast, intervals.last[b]);
  }
  return latestFirst <= earliestLast;
}

/** The best of the TFLM size order and the urgency order, each stacked on skylines. */
function planDenseIntervals(problem: IndexedProblem, intervals: IntervalConflicts, lowerBound: number) {
  let best: { plan: IndexedPlan; total: number; name: string } | undefined;
  for (const [name, order] of [
    ['tflm size/skyline', tflmOrder(problem)],
    ['urgency/skyline', urgencyOrder(problem)!],
  ] as const) {
    const plan = skylinePlacement(problem, intervals, order);
    const ends = new Float64Array(problem.pools.length);
    for (let b = 0; b < problem.count; b++) ends[plan.pool[b]] = Math.max(ends[plan.pool[b]], plan.offset[b] + problem.sizes[b]);
    const total = ends.reduce((a, e) => a + e, 0);
    if (!best || total < best.total) best = { plan, total, name };
    if (total <= lowerBound) break;
  }
  const stats: AutoStats = {
    lowerBound,
    initialTotal: best!.total,
    finalTotal: best!.total,
    iterations: 0,
    climbIterations: 0,
    work: 0,
    initialOrder: best!.name,
    strategy: 'greedy',
    provenOptimal: best!.total <= lowerBound,
    provenLowerBound: lowerBound,
    coreWork: 0,
    // No clock: two skyline placements.
    timeCapReached: false,
  };
  return { plan: toBufferPlan(problem, best!.plan), stats };
}

export const autoPlanner: PlanningAlgorithm = (buffers, memoryPressure, options) => {
  const { plan, stats } = planAuto(buffers, memoryPressure, options);
  recordOptimality(plan, stats.provenOptimal, stats.provenLowerBound, stats.timeCapReached);
  return plan;
};

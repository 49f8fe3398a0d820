/**
 * The exact core's part of an `auto` call on one pool (auto.ts, step 3), under the call's
 * counted budget (CallBudget):
 *  1. the core decides the lower bound itself: a fit is the optimum, proven; an exhausted
 *     search raises the proven bound by one;
 *  2. spatial greedy dives (ExactCore.greedyDive) over its preorders: on dense sets they beat
 *     every other start by several points, at a dive each (there each preorder four times,
 *     with tolerances);
 *  3. a descent on the capacity between the proven bound and the best total (bisection; dense
 *     sets: quarter steps): a fit is a smaller plan, an exhausted search a proof that nothing
 *     below that capacity fits, a spent probe budget (unknown) moves the search up. Dense sets
 *     of more than SMALL_PROBLEM buffers with a dive's plan descend by re-solving its top
 *     instead (descendByRegions).
 * Not gated by the clock unless one is in play (given, or the safety cap above UNCAPPED_UP_TO
 * buffers, safetyClock.ts): the core's own budget bounds it, and the plan must not depend on speed.
 */
import { performance } from 'node:perf_hooks';
import { CallBudget, SMALL_PROBLEM } from './callBudget';
import { ExactCore } from './exactCore';
import { roundUp } from './coreRun';

/**
 * A probe of the descent: a few runs, enough for a first fit above the bound (and, on small
 * problems, for an exhaustive search: a proof).
 */
const PROBE_DIVES = 4;
const PROBE_MIN_WORK = 200_000;
/**
 * Problems up to SMALL_PROBLEM buffers (callBudget.ts): probes of at least this much work, for
 * the doubling runs of small partitions (exactCore.ts) to reach lengths that find a packing
 * above the bound (on MiniMalloc's benchmark sets, capacities a few percent above the bound need
 * runs of millions of units: mean overhead 9.1% -> 8.0% with 5M, with the other small-problem
 * settings).
 */
const SMALL_PROBE_MIN_WORK = 5_000_000;
/** Where a probe goes: this share of the gap between the proven bound and the best plan, from the top. */
const PROBE_STEP = 0.5;
/**
 * Dense sets (small ones, or when no dive beat the start; else see descendByRegions): probes
 * near the bound come back unknown (their bound is out of reach), so each probe aims a quarter
 * of the gap below the best plan, with twice the work. Measured on 46 held-out dense sets: 7
 * plans smaller, 3 larger (by 0.1 point at most), mean overhead 1.51% -> 1.47%.
 */
const DENSE_PROBE_STEP = 0.25;
const DENSE_PROBE_DIVES = 8;
/**
 * Dense sets: the dives' tolerances (ExactCore.greedyDive), as shares of the mean buffer size
 * (on the bench's sets 1/16 is about 500 bytes, 1/4 about 2 KB); each preorder dives once with
 * each, in this order: the kinds win on different sets. Measured on 66 held-out dense sets
 * (lifetimes up to 140-400 operators), best of 12 dives: plain 1.74% above the bound, 1/64
 * alone 1.52%, 1/4 alone 1.02%; with 0, 1/4, 1/16 auto went from 1.52% to 0.93%, at or below
 * Vela 60 -> 63. Of all six preorders' dives with 0 to 1/2, the plain ones were the weakest
 * (2.23% best of six, 1/4 1.30%) and the cut of the budget falls on the last preorders, so
 * tolerant kinds first, no plain one: on the 66 sets and 20 untouched ones (lifetimes up to
 * 160 and 250), same CPU time, at or below Vela 83 -> 85 of 86, at the bound 17 -> 18, mean
 * overhead 1.05% -> 1.00% (19 plans smaller, by up to 1.6 points,
 * 14 larger, by up to 0.75 point).
 */
const DENSE_DIVE_TOLERANCES = [1 / 4, 1 / 2, 1 / 8, 1 / 16];
/** Greedy dives: the fixed preorders, then varied ones (measured: little gain past this). */
const MAX_DIVES = 48;

/**
 * Sparse sets: after the search, tolerant dives (ExactCore.greedyDive) on the first preorders
 * with these tolerances (shares of the mean buffer size); the smallest is kept only when below
 * the search's plan, so no plan gets larger. Run before the search instead, they changed its
 * starting point and lost as much as they won. After it, measured on 60 held-out sets (uniform
 * and lifetimes up to 80 operators), the first preorder: none larger, mean overhead 0.148% ->
 * 0.093%, the worst set (2.83%, Vela 1.39%) 0.45%, at or below Vela 59 -> 60. The first four
 * preorders (since the dives stop once they cannot beat the plan, and the level scans no longer
 * deoptimize, about 40 ms more in a cold process on the sets left above the bound): on uniform
 * 2,000-buffer sets, seeds 1-40, mean overhead 0.171% -> 0.030%, the two above Vela's plan
 * (2.18% against 0.34%, 3.50% against 2.40%) at 0.33% and 0.00%; seeds 41-100, 0.295% ->
 * 0.212%, 4 plans smaller by 0.6-2.0 points; six preorders gained nothing more. A third
 * tolerance, 1/2 (after the two others, so their plans stay the cut-off it must beat): on 312
 * held-out 2,000-buffer sets (uniform seeds 1-100, heavy-tailed 1-12, the bench's mixed family
 * 1-200) 6 plans smaller, none larger; two of them now at the bound, proven, through the
 * re-solve that follows (uniform seed 67 1.79% -> 0, mixed seed 83, DAG-like lifetimes, 2.29%
 * -> 0, Vela 1.80%), mixed seed 158 1.20% -> 0.23%. Four more dives, each abandoned once it
 * cannot beat the plan, on the sets still above the bound only. With 1/8 as well (eight
 * more dives), 5 of the first 212 smaller instead of 4, the mean the same, and mixed seed 83
 * at 1.14% instead of the bound. A fourth, 3/4, on the same 312 sets: 3 more plans smaller,
 * none larger (uniform seed 89 0.018% -> the bound, seed 63 2.02% -> 0.62%, mixed seed 1
 * 1.32% -> 0.65%); 1 (the mean size) found nothing more, 0.35 lost one plan as it won two.
 * Each tolerance costs four dives, 20-25 ms on a 2,000-buffer set still above the bound.
 */
export const SPARSE_FINAL_TOLERANCES = [1 / 4, 1 / 16, 1 / 2, 3 / 4];
export const SPARSE_FINAL_PREORDERS = 4;
/**
 * The sixteen dives cost 27-32M units on the 2,000-buffer sets above the bound (70 ms), past the
 * call's budget. A dive's cost grows with the buffers live together: on a fuzzed set of 1,456
 * buffers all live at once each took 11M (174M, 0.3 s), hence a limit. The 532 held-out sets
 * keep their plans.
 */
const FINAL_DIVES_WORK = 48_000_000;

export interface CoreStepsOutcome {
  /** The core fitted everything at the lower bound: `offsets` is the optimum, proven. */
  readonly atBound: boolean;
  /** The best offsets the core found, when smaller than the total it was given. */
  readonly offsets?: Float64Array;
  /** Their total (or the given total, when the core found nothing smaller). */
  readonly total: number;
  /** The lower bound, raised past every capacity the core proved infeasible. */
  readonly provenLowerBound: number;
}

/**
 * Capacities rounded to the core's granularity: totals are multiples of it, so a capacity
 * proven too small is too small up to the next one.
 */
function capacitySteps(core: ExactCore): { stepDown: (c: number) => number; stepUp: (c: number) => number } {
  const granularity = core.granularity();
  return { stepDown: (c) => Math.floor(c / granularity) * granularity, stepUp: (c) => roundUp(c, granularity) };
}

/**
 * Whether the core's runs above the bound are the longer ones (exactCore.ts, RUN_DIVES): not on
 * small problems, whose runs were tuned on MiniMalloc's sets.
 */
function longerRunsAboveBound(core: ExactCore): boolean {
  return core.bufferCount() > SMALL_PROBLEM;
}

/**
 * Offsets that put every buffer within `capacity`, else undefined: the core's greedy dives (the
 * fixed preorders, then varied ones; each given up once it cannot end within the capacity) for
 * about `diveWork` units, then its decision with `decideWork`. The decision alone misses
 * packings a dive finds at once, as the call's own steps do at the bound: on rectangles of 120
 * buffers cut from a 1 MiB pool, the call without a limit reached its bound by a dive after its
 * decision had spent 74M units in vain, while with the pool limited to that bound a decision of
 * 20M-120M units found nothing (auto.ts, packedWithinLimit).
 */
export function fitWithin(core: ExactCore, capacity: number, diveWork: number, decideWork: number): Float64Array | undefined {
  const diveLimit = core.work + diveWork;
  for (let i = 0; i < MAX_DIVES && core.work < diveLimit; i++) {
    // Sizes and offsets are whole bytes: a dive that ends below capacity + 1 fits.
    const dive = core.greedyDive(i, 0, capacity + 1);
    if (dive.total <= capacity) return dive.offsets;
  }
  const r = core.decide(capacity, decideWork);
  return r.kind === 'fits' ? r.offsets : undefined;
}

/** Runs the core's steps from a plan of total `best` (the greedy phase's). */
export function runCoreSteps(
  core: ExactCore,
  budget: CallBudget,
  lowerBound: number,
  best: number,
  dense: boolean,
  deadline: number,
): CoreStepsOutcome {
  let provenLowerBound = lowerBound;
  const { stepDown, stepUp } = capacitySteps(core);
  if (best > lowerBound) {
    const first = core.decide(lowerBound, budget.forBound());
    if (first.kind === 'fits') return { atBound: true, offsets: first.offsets, total: first.total, provenLowerBound };
    if (first.kind === 'infeasible') provenLowerBound = stepUp(lowerBound + 1);
  }
  if (best <= provenLowerBound) return { atBound: false, total: best, provenLowerBound };
  let found: Float64Array | undefined;
  const diveLimit = core.work + budget.forDives();
  const meanSize = core.meanSize();
  const kinds = DENSE_DIVE_TOLERANCES.length;
  for (let i = 0; i < MAX_DIVES && core.work < diveLimit && best > provenLowerBound && performance.now() < deadline; i++) {
    // Dense sets: each preorder dives once per tolerance.
    const dive = dense ? core.greedyDive(Math.floor(i / kinds), meanSize * DENSE_DIVE_TOLERANCES[i % kinds], best) : core.greedyDive(i, 0, best);
    if (dive.total < best) {
      found = dive.offsets;
      best = dive.total;
    }
  }
  // Small problems keep the probes: their runs there are the long decomposing ones that fit
  // MiniMalloc's dense set J 5.5% above the bound, where re-solves of the top ended 7.0% above
  // (its capacity there, 1 MiB, is 6.0% above).
  if (dense && found && core.bufferCount() > SMALL_PROBLEM) {
    const limit = core.work + budget.forDescent() * REGION_DESCENT_SHARE;
    const descended = descendByRegions(core, { offsets: found, total: best }, lowerBound, stepDown, limit, deadline);
    return { atBound: false, offsets: descended.offsets, total: descended.total, provenLowerBound };
  }
  const limit = core.work + budget.forDescent();
  let lo = stepUp(Math.max(provenLowerBound, lowerBound + 1));
  const step = dense ? DENSE_PROBE_STEP : PROBE_STEP;
  const minProbe = core.bufferCount() <= SMALL_PROBLEM ? SMALL_PROBE_MIN_WORK : PROBE_MIN_WORK;
  const probeWork = Math.max(minProbe, (dense ? DENSE_PROBE_DIVES : PROBE_DIVES) * core.diveWork());
  while (lo < best && core.work < limit && performance.now() < deadline) {
    // At or above lo (a multiple of the granularity), below best.
    const capacity = stepDown(best - 1 - Math.floor((best - 1 - lo) * step));
    const r = core.decide(capacity, Math.min(limit - core.work, probeWork), { slack: true, aboveBound: longerRunsAboveBound(core) });
    if (r.kind === 'fits') {
      found = r.offsets;
      best = r.total;
    } else {
      if (r.kind === 'infeasible') provenLowerBound = stepUp(capacity + 1);
      lo = stepUp(capacity + 1);
    }
  }
  return { atBound: false, offsets: found, total: best, provenLowerBound };
}

/**
 * Dense sets: the descent re-solves the top of the best plan (ExactCore.resolveTop) at
 * capacities a share of the gap to the bound below it, each within DENSE_REGION_WORK; a fit is
 * the next plan, a miss moves on to the next, smaller share. The probes of the whole problem it
 * replaces came back unknown on 38 of 40 held-out dense sets; the buffers above a plan's holes
 * are few enough for the core to place again. Measured on 80 held-out dense sets (long and
 * medium lifetimes, seeds 1-40), with half the probes' budget (REGION_DESCENT_SHARE): mean
 * overhead 0.88% -> 0.83% (seeds 1-20) and 0.98% -> 0.94% (21-40), 24 plans smaller, 5 larger.
 * With the probes' whole budget it gained nearly twice that (0.80% and 0.90%), but its
 * re-solves cost two to three times a probe's time per unit in a fresh process (new small
 * cores, their code not yet compiled): 100-160 ms more on medium-lifetime sets.
 *
 * Those measurements charged each try for every conflict row of the problem at each round of
 * choosing its region (topRegion.ts, floorsOf): on a dense set 2.9M of the try's 3M units, so
 * the re-solve's own core mostly ran out after 0.1M. Charged what it reads, a try searches for
 * its 3M units, and a last share of 0.01 takes what a descent has left after the others (a
 * try is no longer cheap, so the three shares end it sooner). On 392 held-out sets (uniform
 * seeds 1-100, heavy-tailed 1-12, mixed 1-200, long and medium lifetimes 1-40), both changes
 * together: 39 plans smaller, 11 larger, 337 the same; mean overhead long 0.759% -> 0.702%
 * (seed 13 0.94% -> 0.25%), medium 0.663% -> 0.655%, mixed 0.189% -> 0.174%. The fix alone:
 * 34 smaller, 11 larger. On the 106 sets that end above the bound or changed, with the 0.01
 * share: tries of 1.5M units 18 smaller, 34 larger; of 5M about as 3M, medium sets worse; a
 * try's work split over its hole shares 17 smaller, 30 larger.
 */
const DENSE_REGION_SHARES = [0.15, 0.05, 0.02, 0.01];
const REGION_DESCENT_SHARE = 0.5;
/**
 * A try's work. 3M until the runs above the bound became 3 dives long (exactCore.ts,
 * RUN_DIVES): a try then held a run and a half. 4.5M, on the 532 held-out sets of that
 * measurement: 34 plans smaller, 27 larger, mean overhead 0.219% -> 0.212%, lower in each
 * dense family on both samples (medium 0.605% -> 0.584% and 0.277% -> 0.265%, long 0.688% ->
 * 0.678% and 0.469% -> 0.464%, mixed 0.159% -> 0.154% and 0.245% -> 0.228%), medium 11 at
 * the bound, mixed 170 0.542% -> 0.459%, below Vela's 0.529%. Cold CPU within 25 ms (mixed
 * 170 +22 ms, medium 2 and 4 -25 ms). 6M: 44 smaller, 38 larger, about the same means.
 * Problems up to SMALL_PROBLEM buffers keep 3M, as they keep the shorter runs (a 500-buffer
 * bench set of medium lifetimes went 1.094% -> 1.107% with 4.5M).
 */
const DENSE_REGION_WORK = 4_500_000;
const SMALL_REGION_WORK = 3_000_000;

export function descendByRegions(
  core: ExactCore,
  start: { offsets: Float64Array; total: number },
  lowerBound: number,
  stepDown: (c: number) => number,
  limit: number,
  deadline: number,
): { offsets: Float64Array; total: number } {
  let plan = start;
  for (const share of DENSE_REGION_SHARES) {
    while (core.work < limit && performance.now() < deadline) {
      const capacity = stepDown(plan.total - 1 - Math.floor((plan.total - 1 - lowerBound) * share));
      if (capacity <= lowerBound) break;
      const longer = longerRunsAboveBound(core);
      const fit = core.resolveTop(plan.offsets, capacity, Math.min(longer ? DENSE_REGION_WORK : SMALL_REGION_WORK, limit - core.work), TOP_HOLE_SHARES, { aboveBound: longer });
      if (!fit) break;
      plan = fit;
    }
  }
  return plan;
}

/**
 * The tolerant dives of a sparse set, run after its search (see SPARSE_FINAL_TOLERANCES): the
 * smallest of them when below `best`, else undefined. No dive starts once they have spent
 * `workLimit`.
 */
export function finalTolerantDives(
  core: ExactCore,
  best: number,
  deadline: number,
  workLimit = FINAL_DIVES_WORK,
  ceiling = Infinity,
): { offsets: Float64Array; total: number } | undefined {
  const meanSize = core.meanSize();
  const stopAt = core.work + workLimit;
  // Under the call's ceiling (CALL_WORK_CEILING), a dive starts only when one fits.
  const lastStart = ceiling - core.diveWork();
  let found: { offsets: Float64Array; total: number } | undefined;
  for (let p = 0; p < SPARSE_FINAL_PREORDERS && performance.now() < deadline; p++) {
    for (const tolerance of SPARSE_FINAL_TOLERANCES) {
      if (core.work >= stopAt || core.work > lastStart) return found;
      const dive = core.greedyDive(p, meanSize * tolerance, found?.total ?? best);
      if (dive.total < (found?.total ?? best)) found = dive;
    }
  }
  return found;
}

/**
 * The last step of a set still above the bound: the top of its plan re-solved by the core at
 * the bound (ExactCore.resolveTop, topRegion.ts), the buffers above the plan's holes placed
 * again over the others. Each hole share lets the sections keep fewer holes than the one before
 * (so mostly frees more); a share whose re-solve is proven impossible costs little and the next
 * one is tried, within TOP_RESOLVE_WORK in all (past the call's budget, CallBudget).
 *
 * The bound's own search places all 2,000 buffers from offset 0 and, on the uniform sets it
 * misses, fails in its first dives; the plan at the end of the call is a fraction of a percent
 * above the bound, with its holes near the top, and re-placing the 50-600 buffers above them
 * over the rest often fits. Measured on held-out 2,000-buffer sets (plans of 2026-11-29 before
 * -> after, the cap lowered from 85M to 80M units with it): uniform seeds 41-100 at the bound 47
 * -> 52 (mean overhead 0.213% -> 0.151%; two plans larger by 0.01 point, from the lower cap),
 * seeds 1-40 and heavy-tailed 1-12 49 -> 50 (0.030% -> 0.023%), long and medium lifetimes seeds
 * 1-40 14 -> 18 of 80. Of the 16 uniform sets the bound search missed, 6 are at the bound now,
 * among them seed 93 (2.07% above it, Vela's plan 1.07%). MiniMalloc (its C++ solver built from
 * its public source) asked for those 16 at the bound ran out of 10 s on every one. The fits seen
 * took 0.02M-11.3M units; the re-solve does best from the final dives' plans (with two preorders
 * of them instead of four, 5 fewer sets reached the bound), and shares below 1 added one fit.
 */
const TOP_HOLE_SHARES = [1, 0.75, 0.5];
const TOP_RESOLVE_WORK = 12_000_000;

/**
 * Dense sets (isDense) of more than SMALL_PROBLEM buffers try the re-solve at the bound only
 * within this share of it: further above, it frees nearly every buffer and fails, and the
 * mirrored finish (finishMirrored) does more with the work. On the 380 dense and mixed held-out
 * 2,000-buffer sets, the re-solve at the end met the bound on four, each within 0.1% of it
 * (one of them, long s53, was lost without it). A small problem's re-solve is cheap and meets
 * the bound from further (a 500-buffer set of medium lifetimes from 0.22% above): always tried.
 */
const DENSE_RESOLVE_MAX_GAP = 0.001;
/**
 * Sparse sets of more than SMALL_PROBLEM buffers: the re-solve at the bound only within this
 * share of it, and within SPARSE_TOP_RESOLVE_WORK. On the 532 held-out 2,000-buffer sets it ran
 * on 41 sparse ones and fitted 15, from plans 0.06-1.51% above the bound, in 0.23-5.45M units
 * (13 of them under 3.5M); the 26 misses each ran out of the 12M units it had, and none of the
 * 11 from 1.56% above the bound or further fitted. Those 12M units were about 50 ms of a cold
 * plan on the slowest held-out sets (mixed 78 and 124, 2.3% and 2.5% above the bound there).
 * A miss only spends work (the steps after it have budgets of their own), so with both limits
 * every plan of the 532 is the same.
 */
const SPARSE_RESOLVE_MAX_GAP = 0.02;
const SPARSE_TOP_RESOLVE_WORK = 6_000_000;

/**
 * The re-solved plan, at `bound`, or undefined (also for a large dense set past
 * DENSE_RESOLVE_MAX_GAP, or a large sparse one past SPARSE_RESOLVE_MAX_GAP).
 */
export function resolveTopAtBound(
  core: ExactCore,
  plan: { offsets: Float64Array; total: number },
  bound: number,
  dense: boolean,
  ceiling = Infinity,
): { offsets: Float64Array; total: number } | undefined {
  const left = ceiling - core.work;
  if (core.bufferCount() <= SMALL_PROBLEM) return left > 0 ? core.resolveTop(plan.offsets, bound, Math.min(TOP_RESOLVE_WORK, left), TOP_HOLE_SHARES) : undefined;
  if (plan.total - bound > (dense ? DENSE_RESOLVE_MAX_GAP : SPARSE_RESOLVE_MAX_GAP) * bound || left <= 0) return undefined;
  return core.resolveTop(plan.offsets, bound, Math.min(dense ? TOP_RESOLVE_WORK : SPARSE_TOP_RESOLVE_WORK, left), TOP_HOLE_SHARES);
}

/**
 * The re-solve at the bound once more, after the mirrored finish (finishMirrored), on a plan the
 * finish lowered to within LATE_RESOLVE_MAX_GAP of the bound: the plan's top, within
 * LATE_RESOLVE_WORK (past the call's budget, as the finish). The re-solve at the bound before
 * the finish saw the plan further above (dense sets skip it past DENSE_RESOLVE_MAX_GAP), where it
 * frees nearly every buffer; the finish leaves a few holes near the top. A fit is the optimum,
 * proven.
 *
 * Dense sets only (auto.ts): a sparse set had the re-solve at the bound before the finish
 * whatever its gap. On the 532 held-out sets it runs on 29 dense ones, and 5 more plans reach
 * the bound: long s55 and s58, medium s43, mixed 171 and 226 (all dense); the other plans are
 * the same. The fits took 1-5M units. With 12M (the re-solve at the bound's own budget) as many
 * fitted, other ones (mixed 145 instead of medium 43). On sparse sets too, it fitted none more,
 * and its misses took 6-8M units more on two of the slowest held-out plans (mixed 1 and 238,
 * 0.01-0.02% above the bound: about 0.05 s of a cold plan). Until the twenty-fourth session a
 * miss went on to the mirror's top, within 4M units more; all five fits were of the plan's own
 * top, so that 4M, spent on about 24 dense sets for nothing, went.
 */
const LATE_RESOLVE_MAX_GAP = 0.001;
const LATE_RESOLVE_WORK = 4_000_000;

export function lateResolveAtBound(
  core: ExactCore,
  plan: { offsets: Float64Array; total: number },
  bound: number,
  ceiling = Infinity,
): { offsets: Float64Array; total: number } | undefined {
  // Whole or not at all under the call's ceiling: a cut re-solve spends its set-up for little.
  if (plan.total - bound > LATE_RESOLVE_MAX_GAP * bound || core.work + LATE_RESOLVE_WORK > ceiling) return undefined;
  return core.resolveTop(plan.offsets, bound, LATE_RESOLVE_WORK, TOP_HOLE_SHARES);
}

/**
 * The same re-solve, short, on the plan of the core's steps when that plan is within
 * EARLY_RESOLVE_MAX_GAP of the bound (auto.ts tries it before the search and ends the call on a
 * fit). Of the 84 of 312 held-out sets (uniform 1-100, heavy-tailed 1-12, mixed 1-200) whose
 * steps end above the bound, 9 fit there within 4M units (0.8-3.7M), 8 of them from 0.4% above
 * the bound or less, where the holes to fill are few; the ninth from 3.1%. A miss mostly runs
 * out of the 4M, about 45 ms of a cold plan: with the gap limit about 20 of those sets pay it,
 * not 75.
 */
const EARLY_RESOLVE_WORK = 4_000_000;
const EARLY_RESOLVE_MAX_GAP = 0.005;

export function earlyResolveAtBound(core: ExactCore, offsets: Float64Array, total: number, bound: number): { offsets: Float64Array; total: number } | undefined {
  if (total - bound > EARLY_RESOLVE_MAX_GAP * bound) return undefined;
  return core.resolveTop(offsets, bound, EARLY_RESOLVE_WORK, TOP_HOLE_SHARES);
}

/**
 * After a miss of the re-solve at the bound: the plan pushed down, then its top re-solved at
 * capacities below it (descendByRegions, the dense sets' descent), within FINAL_DESCENT_WORK
 * (past the call's budget, like the re-solve). Pushing the result down again gained 0.001
 * point on one of the 55 sets below, for a push-down's time (about 10 ms): not done.
 *
 * The descent by regions was the dense sets' only, before the search; sparse sets went from
 * their final dives to the re-solve at the bound, and a miss there left the dives' plan with
 * its holes. Measured on the 55 of 312 held-out 2,000-buffer sets (uniform seeds 1-100,
 * heavy-tailed 1-12, mixed 1-200) that ended above the bound: 35 plans smaller, none larger
 * (it comes after every other step, so it only lowers a plan), mean overhead 1.14% -> 0.79%;
 * mixed seed 12 (DAG-like lifetimes) 2.10% -> 0.62%, below Vela's 1.75%; mixed 74 1.74% ->
 * 0.002%; uniform 96 1.63% -> 0.75%. On the 80 dense sets (long and medium lifetimes, seeds
 * 1-40) 20 plans smaller, none larger, 0.760% -> 0.728%. With 3M units the 55 sets' mean was
 * 0.85%, with tries of 1.5M instead of 3M 0.88%; other shares ([0.3, 0.15, 0.05, 0.02],
 * [0.5, 0.2, 0.05]) within 0.02 point. Paid for by 6M units fewer for the sparse search, 3 of
 * the 257 sets at the bound lost it, so it is not paid for. Cost, on the sets still above the
 * bound only: 6M units, 30-110 ms of a cold `uma-ts plan` on one core (medians of five:
 * uniform 15 0.94 -> 1.05 s, mixed 1 1.04 -> 1.13 s, mixed 12 1.08 -> 1.11 s). Most of it is
 * V8 compiling the decomposing runs of the small cores: the first region under 500 buffers
 * (SMALL_PARTITION, exactCore.ts) takes 50 ms for 1.6M units, the next ones 5-25 ms.
 */
const FINAL_DESCENT_WORK = 6_000_000;
/**
 * Dense sets (isDense, callBudget.ts) take twice that: their cold plans are 0.15-0.2 s under
 * the second where the sparse ones that get here are at it. Measured on the 80 dense held-out
 * sets: 16 plans smaller than with 6M, none larger, mean overhead 0.728% -> 0.711% (15M:
 * 0.710%); medium s3 0.30% -> 0.13% and s4 1.63% -> 1.31%, the two where MiniMalloc, given
 * 30 s, had packed below `auto` (0.28% and 1.63%); on the dense sets among the 55 mixed ones
 * above, 13 smaller, none larger. Cold, on one core (medians of five): long s14 0.83 -> 0.85 s,
 * medium s11 0.82 -> 0.85 s, mixed 19 0.81 -> 0.86 s.
 */
const DENSE_FINAL_DESCENT_WORK = 12_000_000;

export function finishAboveBound(
  core: ExactCore,
  offsets: Float64Array,
  bound: number,
  dense: boolean,
  deadline: number,
  work = dense ? DENSE_FINAL_DESCENT_WORK : FINAL_DESCENT_WORK,
  ceiling = Infinity,
): { offsets: Float64Array; total: number } {
  const pushed = core.pushDown(offsets);
  if (pushed.total <= bound) return pushed;
  return descendByRegions(core, pushed, bound, capacitySteps(core).stepDown, Math.min(core.work + work, ceiling), deadline);
}

/**
 * After finishAboveBound, the plan upside down (mirror.ts) and finished again, in turns, while
 * that lowers it: each round pushes the mirrored plan down (in the plan's own orientation, up)
 * and re-solves its top, which there is the bottom of the plan before. A plan above the bound
 * often has its holes low in the stack at its busiest moment (long s14: five of 48-128 bytes at
 * the one operator where the live bytes reach the bound, the lowest 1 KiB up), out of the reach
 * of every re-solve of the top. Rounds of half finishAboveBound's work, that work in all
 * (twice that on dense sets, DENSE_MIRROR_WORK; MIRROR_ROUNDS at most). Measured with that work
 * on every set, on the 140 of 532 held-out 2,000-buffer sets that end
 * above the bound (uniform, heavy-tailed, long and medium lifetimes, mixed): 136 plans
 * smaller, none larger, 26 at the bound (proven), mean overhead long 0.674% -> 0.552%, medium
 * 0.924% -> 0.659%, mixed 0.966% -> 0.602%; above Vela 3.10's plan 9 -> 5 of the 532.
 * Without the push-down (re-solves alone) nothing was gained; push-downs alone gained about
 * half as much. Twice the work: 3 above Vela, but 0.15-0.2 s more of a cold plan where this
 * costs 0.05-0.1 s. Buffers of several alignments mirror their order (mirror.ts, mirroredOrder),
 * which the round's push-down makes a plan; where one alignment does not divide the largest,
 * nothing.
 */
const MIRROR_ROUNDS = 8;
/** Each round's work: half of finishAboveBound's. */
const MIRROR_ROUND_SHARE = 0.5;
/**
 * Dense sets get twice finishAboveBound's work in all, the work the re-solve at the bound no
 * longer spends on them (DENSE_RESOLVE_MAX_GAP). On the 380 dense and mixed held-out sets: 52
 * plans smaller, none larger, at the bound long 15 -> 18 and medium 34 -> 37 of 60, mean
 * overhead long 0.496% -> 0.473%, medium 0.340% -> 0.316%; above Vela 3.10 4 -> 2 (long s14 and
 * s55 now below it); the same work on average, cold plans of dense sets above the bound
 * 0.02-0.08 s slower (one core).
 *
 * Three times since the push-down no longer sorts (pushDown.ts): a round on a long-lifetimes set
 * is a push-down of about 4.7M units and a descent of 6M, and on 51 of the 86 dense sets above the
 * bound the rounds were still lowering the plan when the work ran out (long s52 0.433% -> 0.168%
 * -> 0.165% in its last, cut-short round). On the 532 held-out sets: 17 plans smaller (11 long, 1
 * medium, 5 mixed), none larger, the other 515 byte-identical; at the bound long 18 -> 19 (s30);
 * mean overhead long 0.473% -> 0.467%, mixed 0.104% -> 0.103%; long s52 0.165% -> 0.004%. Four
 * times: 7 more of those smaller, by less (long s9 1.08% -> 0.98%, s48 0.145% -> 0.004%), none to
 * the bound. The time it adds to a cold dense plan is about what the push-down gave back (see the
 * twenty-second session in docs/memory-planner.md).
 */
const DENSE_MIRROR_WORK = 3 * DENSE_FINAL_DESCENT_WORK;

export function finishMirrored(
  core: ExactCore,
  plan: { offsets: Float64Array; total: number },
  bound: number,
  dense: boolean,
  deadline: number,
  scale = 1,
  ceiling = Infinity,
): { offsets: Float64Array; total: number; stillLowering?: boolean } {
  const roundWork = (dense ? DENSE_FINAL_DESCENT_WORK : FINAL_DESCENT_WORK) * MIRROR_ROUND_SHARE * scale;
  const work = (dense ? DENSE_MIRROR_WORK : FINAL_DESCENT_WORK) * scale;
  const stopAt = core.work + work;
  let best = plan;
  // Not where a push-down alone costs more than the whole step (`plan` is finishAboveBound's,
  // which pushed down last): on 10,000 long-lived buffers the rounds took 0.36 s more of a 0.7 s
  // plan, with a 1 s clock there then (safetyClock.ts) that cut in.
  if (core.lastPushDownWork >= work) return plan;
  let rounds = 0;
  // Under the call's ceiling, a round starts only when its push-down (as the last one cost) fits.
  for (; rounds < MIRROR_ROUNDS && best.total > bound && core.work < stopAt && core.work + core.lastPushDownWork < ceiling && performance.now() < deadline; rounds++) {
    const mirrored = core.mirror(best.offsets);
    if (!mirrored) return best;
    const finished = finishAboveBound(core, mirrored, bound, dense, deadline, Math.min(stopAt - core.work, roundWork), ceiling);
    if (finished.total >= best.total) return best;
    best = finished;
  }
  // The rounds ended on a round that lowered the plan: out of work, or of rounds (finishSecondStart).
  return rounds > 0 ? { ...best, stillLowering: true } : best;
}

/**
 * The finish from a second start, on a large call still above the bound after every other step
 * (auto.ts): the urgency order (Vela's start) placed first fit, pushed down and its top
 * re-solved below it (finishAboveBound); on sparse sets then mirrored in turns (finishMirrored),
 * within SECOND_START_SCALE of the first finish's work. The finish lowers a plan locally; where
 * the call's plan came from the core's dives and every step of the finish failed on it (uniform
 * seed 71: the first dive's plan, 1.20% above the bound, kept to the end), the same finish from
 * another plan, far above the bound, often ends lower (there 0.29%, below Vela 3.10's 0.73%).
 * Dense sets: no mirrored rounds (36M units there), the descent with the first finish's 12M
 * (long s52 reaches its bound that way, the plan 96 bytes above it before; with 6M it did not),
 * and only where the first finish's mirrored rounds stopped on a round that found nothing
 * (stillLowering unset): where they were still lowering the plan when their work ran out, more
 * of the same was the better bet, and among them are the slowest dense plans (mixed 68, long 20:
 * 60-90 ms more of a cold plan, for nothing); of 16 such sets among the 532 held-out ones it
 * lowered one (long 47, 0.72% -> 0.58% above the bound).
 */
const SECOND_START_SCALE = 0.25;

export function finishSecondStart(
  core: ExactCore,
  order: Int32Array,
  bound: number,
  dense: boolean,
  deadline: number,
  ceiling = Infinity,
): { offsets: Float64Array; total: number } | undefined {
  const descentWork = dense ? DENSE_FINAL_DESCENT_WORK : FINAL_DESCENT_WORK * SECOND_START_SCALE;
  const work = dense ? descentWork : 2 * descentWork;
  // As finishMirrored: not where a push-down alone (the last one of this problem, the first
  // finish's) costs more than the whole step, nor past a clock (the push-down of a 10,000-buffer
  // set takes 0.2-0.3 s).
  // Nor where it would end past the call's ceiling (CALL_WORK_CEILING: its push-down as the
  // last one cost, and its work): cut short, it spends the time and ends above the call's plan.
  if (core.lastPushDownWork >= work || core.work + core.lastPushDownWork + work > ceiling || performance.now() >= deadline) return undefined;
  // Offsets that rank the buffers in `order`: the push-down that starts finishAboveBound drops
  // them in that order, each to the lowest offset clear of those dropped before (first fit).
  const ranks = new Float64Array(order.length);
  order.forEach((b, k) => (ranks[b] = k));
  const finished = finishAboveBound(core, ranks, bound, dense, deadline, descentWork, ceiling);
  return dense ? finished : finishMirrored(core, finished, bound, false, deadline, SECOND_START_SCALE, ceiling);
}

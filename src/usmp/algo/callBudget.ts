/**
 * The budget of an `auto` call that has the exact core, in core work units, shared by its steps
 * in order: the bound, the greedy dives, the descent, the local search. One engine placement
 * unit costs about ENGINE_UNIT_COST core units of time (measured on the bench sets), so the
 * greedy phase's engine work comes off first and the search's share is converted back. Sized in
 * dives (a dive places every buffer once: about n^2/2 units plus the conflicts), at least
 * CALL_MIN_WORK, and capped so that a call on 2,000 buffers stays well under a second on one core.
 */
import { ExactCore } from './exactCore';
import { IndexedProblem } from './indexed';
import { PlacementEngine } from './placement';

const CALL_DIVES = 50;
/**
 * The cap on sparse sets. Their calls that do not meet the bound spend all of it, and those are
 * the slowest 2,000-buffer plans (about 0.9 s cold on one core with 95M): 85M gave the same totals
 * on 52 of 52 held-out uniform and heavy-tailed sets (seeds 1-40 and 1-12) and on 59 of 60
 * more (seeds 41-100; the other 1.73% -> 1.78%), for about a tenth less time on the
 * sets above the bound; the bound's share still covers the latest hits seen (48M units).
 * 80M since the top's re-solve (coreSteps.ts) takes up to 12M more after the call's steps:
 * with it, 80M and 85M left the same 102 of 112 of those sets at the bound (78M lost one,
 * whose bound search needs 48M), and a cold plan of a set above the bound takes 0.03-0.08 s
 * more than with 85M and no re-solve (uniform seeds 15 and 71, one core).
 */
const CALL_MAX_WORK = 80_000_000;
/**
 * Dense sets: their dives and probes cost more time per unit of work (and their dives, most of
 * the budget there, more than their probes: 78M with 80% of it for dives takes the CPU time that
 * 85M with 40% took).
 */
const DENSE_CALL_MAX_WORK = 78_000_000;
/**
 * Small problems still get most of a second's work: dives are cheap there, so 50 of them left a
 * 300-buffer set 30 ms and a plan points above the bound that more runs reach (measured on 96
 * sets of 150-1,000 buffers: mean overhead 0.57% -> 0.41%, at the bound 58 -> 64, at most 0.4 s).
 */
const CALL_MIN_WORK = 60_000_000;
/**
 * Problems up to this many buffers (the exact core's small partitions, exactCore.ts) get twice
 * the floor, above the cap: their runs double each round, and on MiniMalloc's benchmark sets
 * the last rounds are what meets the bound (sets A and F need single runs of 9M-10M units, that
 * is 60M-70M of the doubling schedule). Where the bound is not met a call takes about 0.2 s
 * more: 0.62-0.75 s in a cold `uma-ts plan` on one core (MiniMalloc's largest sets, 500 random
 * buffers), against 0.43-0.53 s.
 */
export const SMALL_PROBLEM = 500;
const SMALL_CALL_MIN_WORK = 120_000_000;
/**
 * Small problems whose live bytes do not stay near their peak (below PACKED_FILL on average,
 * as random sets are: 0.5-0.73) get less: of MiniMalloc's sets only B (0.98) needs more than
 * this (its bound takes a run of 68M units), and random 200-500-buffer sets that miss the
 * bound or meet it late spent 1.04-1.36 s in a cold `uma-ts plan` on one core with 120M, about
 * a quarter more than now (0.84-1.05 s, medians of five on a slow day; still at the edge of the
 * second there). Measured on 130 held-out random sets of
 * 200-500 buffers: at the bound 114 -> 116, one plan larger (0.33% -> 0.37%), mean overhead
 * 0.049% -> 0.041% (200-400 buffers) and 0.174% -> 0.156% (500); with 80M two of the 200-400
 * buffer sets larger and none smaller. MiniMalloc's eleven sets keep their plans.
 */
const SMALL_SPREAD_CALL_MIN_WORK = 90_000_000;
/**
 * A pool's re-plan inside a multi-pool call (auto.ts, pool by pool) is a part of that call, which
 * has already spent most of its second on the search: it keeps the dives-sized budget, within
 * POOL_CALL_MAX_WORK. (The bench's pins sets give their pools 7-19M; a fuzzed pool of 1,100
 * buffers all live at once got a whole call's 80M, 0.4 s of a 3 s plan.)
 */
export const POOL_CALL_MIN_WORK = 5_000_000;
const POOL_CALL_MAX_WORK = 20_000_000;
const ENGINE_UNIT_COST = 4;
/**
 * The ceiling of a whole call's core work (ExactCore.work, `coreWork` in the stats): the steps
 * under the budget above (the bound, the dives, the descent, the search) and the ones after it,
 * which have budgets of their own (coreSteps.ts: the final tolerant dives, the re-solves of the
 * top, the finish and its mirrored rounds, the late re-solve, the second start). Those add up
 * past the budget by what the push-downs cost, which no budget covers (each finish and each
 * mirrored round starts with one, and on lifetimes up to 400 operators of 800 one costs about
 * 9M units against 4.7M on the bench's long-lifetimes sets) and by the re-solves' set-up: a
 * held-out campaign (twenty-sixth session) found calls of 150-169M units on the shape
 * with long lifetimes and on bursty schedules, 1.03-1.05 s of a cold `uma-ts plan` on one core,
 * where the 532 held-out sets' calls end at 150.2M (long 51). Under the ceiling each late step
 * gets at most what is left of it, and the late re-solve and the second start run whole or not
 * at all (their push-down as the last one cost, plus their work), since cut short they spend the
 * time and end above the call's plan. 150M keeps every plan of the 532 held-out sets: the
 * second starts of long 11 (64 bytes lower) and long 52 (to the bound) need the call to reach
 * about 147M, and with 140M both end larger. Measured on the 112 held-out sets of the
 * campaign whose calls took more than 110M units: the 11 above 150M now 133-148M, 3 plans larger (iss250 19 0.0004% -> 0.0037%, burst 14 0.0011% -> 0.024%,
 * n5000 1 0.0009% -> 0.0115% above the bound; their second starts had lowered them), 109 the
 * same offsets, none above TFLite Micro's plan. Cold, on one core (medians of five, alternating
 * with the build before): iss400 15 1.05 -> 0.96 s, burst 14 1.05 -> 0.99 s, long 51 0.97 ->
 * 0.90 s; iss250 11 (148.7M, under the ceiling) 1.05 -> 1.03 s, as its units cost more time.
 */
export const CALL_WORK_CEILING = 150_000_000;
/**
 * Shares of what is left at each step. Sparse sets: on random interval sets most bounds are
 * reached within a few dives and a few need dozens, so the bound gets the most; dense sets
 * (long lifetimes): the bound is out of reach on most, though reachable within about 20M units
 * on some with lifetimes up to 200 operators, so it gets a smaller share (see below); the
 * dives pay most (with their tolerances, coreSteps.ts: measured on 66 held-out dense sets, 80%
 * of the rest gave a mean overhead of 0.93% against 1.10% with 40%, the descent's probes mostly
 * spending their work to come back unknown), and there is no local search (see auto.ts).
 * Since the descents' re-solves search for their work (topRegion.ts), a quarter of the budget
 * for the dense bound (about 19M units) and the rest to the dives and descent: on 131 held-out
 * dense sets (long and medium lifetimes 1-40, the 51 dense mixed ones of seeds 1-200) 12 plans
 * smaller, 5 larger, at the bound 44 -> 46, none lost (mixed 66 and medium 40 reach it later,
 * at 75M and 70M units instead of 18M and 24M); mean overhead mixed 0.477% -> 0.431%, long
 * 0.702% -> 0.695%; on 60 dense sets of other seeds (41-70) 6 smaller, 3 larger, long 0.543%
 * -> 0.520%, medium 0.188% -> 0.177%. The call's total is the same.
 */
const BOUND_SHARE = 0.62;
const DIVES_SHARE = 0.15;
const DESCENT_SHARE = 0.5;
const DENSE_BOUND_SHARE = 0.25;
const DENSE_DIVES_SHARE = 0.8;
const DENSE_DESCENT_SHARE = 1;
/**
 * Mean conflicts per buffer above which a set counts as dense. Random sets with lifetimes up to
 * 80 operators have about 100, up to 160 about 170-190, up to 400 about 450. From about 170 on,
 * the local search gets a few dozen steps in what the bound leaves (each placement walks hundreds
 * of conflicts), and the dives and descent do better with that budget (measured on 106 held-out
 * sets: sets above Vela or TFLM 8 -> 6, mean overhead on lifetimes up to 160 2.03% -> 1.44%).
 */
export const DENSE_DEGREE = 130;
/**
 * Sets whose live bytes stay near their peak all along (mean over the time sections at least
 * this share of the peak) are packed, not dense, however many conflicts they have: their bound
 * is tight everywhere, and when it is reachable it takes the bound's share of the budget to
 * reach it. Measured on sets cut from a 1 MiB rectangle into 800-1,000 buffers (130-200
 * conflicts per buffer, a flat profile): as dense sets, 6 of 14 ended 19-23% above the bound;
 * as sparse ones all 14 reach it. Random sets are at 0.5-0.72 of their peak (their plans are
 * the same), MiniMalloc's benchmark sets at 0.69-0.99: the one dense among them (J: 141
 * conflicts per buffer, 0.87, its bound out of reach) stays dense, where it plans better.
 */
const PACKED_FILL = 0.9;

/** Dense: many conflicts per buffer, and a live-bytes profile that is not flat (see PACKED_FILL). */
export function isDense(problem: IndexedProblem, engine: PlacementEngine, core: ExactCore): boolean {
  return engine.adj.length > DENSE_DEGREE * problem.count && core.profileFill() < PACKED_FILL;
}

export class CallBudget {
  /** The call's work units, in core units. */
  readonly total: number;
  private readonly coreStart: number;
  private readonly dense: boolean;

  constructor(
    private readonly core: ExactCore,
    private readonly engine: PlacementEngine,
    problem: IndexedProblem,
    minWork?: number,
    clocked = false,
    share = 1,
  ) {
    // Under a clock (a time budget given) the small problems' larger floor could spend the
    // whole time on the bound: they keep the floor of the others.
    // A floor given: the call is part of another (see POOL_CALL_MIN_WORK).
    const part = minWork !== undefined;
    minWork ??= problem.count > SMALL_PROBLEM || clocked ? CALL_MIN_WORK : core.profileFill() >= PACKED_FILL ? SMALL_CALL_MIN_WORK : SMALL_SPREAD_CALL_MIN_WORK;
    this.dense = isDense(problem, engine, core);
    // The floor wins over the cap: a small problem's floor is above the cap.
    const cap = part ? POOL_CALL_MAX_WORK : this.dense ? DENSE_CALL_MAX_WORK : CALL_MAX_WORK;
    // A share of a call (one of several independent groups, auto.ts): that share of the budget.
    this.total = Math.floor(share * Math.max(minWork, Math.min(cap, CALL_DIVES * core.diveWork())));
    this.coreStart = core.work;
  }

  private left(): number {
    return Math.max(0, this.total - (this.core.work - this.coreStart) - ENGINE_UNIT_COST * this.engine.work);
  }
  forBound(): number {
    return this.left() * (this.dense ? DENSE_BOUND_SHARE : BOUND_SHARE);
  }
  forDives(): number {
    return this.left() * (this.dense ? DENSE_DIVES_SHARE : DIVES_SHARE);
  }
  forDescent(): number {
    return this.left() * (this.dense ? DENSE_DESCENT_SHARE : DESCENT_SHARE);
  }
  /** In engine work units. */
  forSearch(): number {
    return this.left() / ENGINE_UNIT_COST;
  }
}

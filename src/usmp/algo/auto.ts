/**
 * `auto`, the default planner. Not TVM's: it aims at the lower bound (memory pressure).
 *
 *  1. Lower bound = max(given memory pressure, our own bound: peak live bytes when every buffer
 *     has a live range, else a greedy clique weight).
 *  2. A few placement orders (size, weighted degree, urgency, chronological) x gap policies (first-fit,
 *     best-fit); keep the smallest total (sum of pool ends). On one-pool problems with live
 *     ranges the size order breaks ties as TFLite Micro does, so size/first-fit is exactly
 *     TFLM's greedy plan; every later step only keeps plans that are no worse, so `auto` is never
 *     larger than TFLM.
 *  3. Where it applies (one unbounded pool, live ranges): the Vela-style bottleneck climb
 *     (bottleneckClimb.ts) from the urgency order, for Vela's 500 iterations and on while it
 *     still improves; it makes Vela's own choices, so its plan is at most Vela's.
 *  4. While above the bound and within the work budget: bottleneck-guided local search
 *     (localSearch.ts) from the best plan so far, re-placing only from the first changed
 *     position and keeping moves that are no worse; a search stalled on a plateau restarts from
 *     the best plan with a small kick. The best plan of all steps is returned.
 *
 * Conflicts count in either direction (a plan must keep every listed pair apart), pools are
 * tried in preference order with their size hints, and offsets honour both the buffer's and
 * the pool's alignment. Reproducible: the search is bounded by a work budget (neighbours scanned,
 * scaled to the problem size), so the plan depends on the input and seed only; the wall-clock
 * `timeBudgetMs` is a safety cap for huge inputs.
 */
import { performance } from 'node:perf_hooks';
import { lowerBoundOfBuffers } from '../conflicts';
import { BufferInfo, PlanningAlgorithm, PlanningOptions } from '../types';
import { IndexedProblem, indexProblem, poolsExhaustedError, toBufferPlan } from './indexed';
import { initialOrders, urgencyOrder } from './orderings';
import { BottleneckClimb, bottleneckClimbApplies, VELA_SEED } from './bottleneckClimb';
import { LocalSearch } from './localSearch';
import { PlacementEngine } from './placement';
import { seededRandom } from './seededRandom';

/** A safety cap only: the work budget below ends the search well before it on normal sizes. */
export const DEFAULT_TIME_BUDGET_MS = 1000;
/**
 * Default search budget in full-placement equivalents (one full placement costs n plus the
 * adjacency size in work units), with a floor so that small problems still get a real search.
 * Sized so that a whole call on 2000 random intervals (Vela's 500 climb iterations included)
 * takes about 0.6 s on a busy 2-core machine, leaving margin under the time cap.
 */
const SEARCH_FULL_PLACEMENTS = 100;
const MIN_SEARCH_WORK = 5_000_000;
const DEFAULT_SEED = 0x5eed;
/** Local-search steps without progress before a restart. */
const STALL_STEPS = 250;

export interface AutoPlanningOptions extends PlanningOptions {
  /** Upper bound on local-search moves. */
  readonly maxIterations?: number;
  /**
   * Search budget in work units (neighbours scanned by placements). The plan depends only on the
   * input, the seed and this budget, unless the wall-clock `timeBudgetMs` cap cuts in first.
   */
  readonly workBudget?: number;
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
  readonly strategy: 'greedy' | 'bottleneck climb' | 'local search';
  /** Work units the search spent (see PlacementEngine.work). */
  readonly work: number;
  readonly initialOrder: string;
}

/** A plan the search can return to: its order, gap policies and total. */
interface Snapshot {
  readonly total: number;
  readonly order: Int32Array;
  readonly bestFit: Uint8Array;
}

/** One line of the local search: the best plan it found, and whether it has had a turn. */
interface Line {
  best: Snapshot;
  visited: boolean;
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
function pickStart(problem: IndexedProblem, engine: PlacementEngine, lowerBound: number): { start: Start; total: number; placed: boolean } {
  let best: Start | undefined;
  let bestTotal = Infinity;
  let firstFailure = -1;
  let placed = false;
  tries: for (const o of initialOrders(problem, engine)) {
    for (const bestFit of o.firstFitOnly ? [false] : [false, true]) {
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
  if (!best) throw poolsExhaustedError(problem.buffers[Math.max(0, firstFailure)]);
  return { start: best, total: bestTotal, placed };
}

/** Buffers moved by a restart kick: enough to leave the plateau, few enough to keep its quality. */
const KICK_MOVES = 2;

/** Perturbs the engine's order: a few buffers above the bound move to random earlier positions. */
function kick(engine: PlacementEngine, lowerBound: number, random: () => number): void {
  const protruding: number[] = [];
  for (let b = 0; b < engine.n; b++) if (engine.offset[b] + engine.sizes[b] > lowerBound) protruding.push(b);
  for (let m = 0; m < KICK_MOVES; m++) {
    if (protruding.length > 0) {
      const b = protruding[Math.floor(random() * protruding.length)];
      const from = engine.pos[b];
      engine.move(from, Math.floor(random() * (from + 1)));
    } else {
      engine.swap(Math.floor(random() * engine.n), Math.floor(random() * engine.n));
    }
  }
}

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

/** Runs the planner on an indexed problem and leaves the best placement in the engine. */
export function autoSearch(
  problem: IndexedProblem,
  lowerBound: number,
  options: AutoPlanningOptions = {},
  startedAt = performance.now(),
): { engine: PlacementEngine; stats: AutoStats } {
  const engine = new PlacementEngine(problem);
  engine.excessTarget = lowerBound;
  const { start, total: initialTotal, placed } = pickStart(problem, engine, lowerBound);
  // The budget covers the whole call, set-up and starting orders included.
  const deadline = startedAt + (options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
  // Sorted rows only speed up a search (offsets are the same either way), so a greedy-only call
  // does not pay for sorting them.
  engine.sortRows = performance.now() < deadline;
  let best = initialTotal;
  if (!placed || engine.sortRows) {
    // Placing with sorted rows gives the same offsets, but other predecessors for the search.
    engine.setOrder(start.order);
    engine.bestFit.fill(start.bestFit ? 1 : 0);
    best = engine.placeFrom(0, Infinity);
  }
  engine.commit(0);

  // Local search stalls on plateaus; a stalled run restarts from the starting order with a
  // fresh random stream, and the best plan of all runs is kept (order + policies reproduce it).
  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  const maxIterations = options.maxIterations ?? Infinity;
  const searchWork = options.workBudget ?? Math.max(MIN_SEARCH_WORK, SEARCH_FULL_PLACEMENTS * (problem.count + engine.adj.length));
  // Strategy 1, the Vela-style climb, on its own from the urgency order; its plan is the one to
  // beat (first-fit everywhere, so its order alone reproduces it).
  let climbed: BottleneckClimb | undefined;
  if (best > lowerBound && performance.now() < deadline && bottleneckClimbApplies(problem)) {
    climbed = climb(problem, engine, lowerBound, engine.work + searchWork, deadline, options.seed ?? VELA_SEED);
    if (climbed.bestSize <= best) {
      engine.setOrder(climbed.order);
      engine.bestFit.fill(0);
      best = engine.placeFrom(0, Infinity);
      engine.commit(0);
    }
  }
  const climbTotal = climbed?.bestSize ?? Infinity;
  const workLimit = engine.work + searchWork;
  const searchStartTotal = best;
  // Strategy 2, the local search, with the rest of the budget. When the climb's plan was
  // adopted, the search runs two lines that take turns at each stall: one from the climb's plan
  // and one from the best greedy start. A climbed plan can sit in a basin the search does not
  // leave (heavy-tailed sizes), where the greedy start still leads down to the bound.
  const snapshot = (total: number): Snapshot => ({ total, order: Int32Array.from(engine.order), bestFit: Uint8Array.from(engine.bestFit) });
  const lines: Line[] = [{ best: snapshot(best), visited: true }];
  if (searchStartTotal < initialTotal) {
    lines.push({ best: { total: initialTotal, order: start.order, bestFit: new Uint8Array(engine.n).fill(start.bestFit ? 1 : 0) }, visited: false });
  }
  let line = 0;
  let kept = lines[0].best;
  let search = new LocalSearch(engine, random);
  let iterations = 0;
  while (Math.min(kept.total, climbTotal) > lowerBound && iterations < maxIterations && engine.work < workLimit && performance.now() < deadline) {
    iterations++;
    best = search.step(best);
    if (best < lines[line].best.total) lines[line].best = snapshot(best);
    if (best < kept.total) kept = lines[line].best;
    if (search.stepsWithoutProgress >= STALL_STEPS && best > lowerBound) {
      // Iterated local search: the next line restarts from its best plan, kicked off its
      // plateau by moving a few of the buffers that stick out above the bound to earlier random
      // positions (a line's first turn starts from its plan as it is).
      line = (line + 1) % lines.length;
      const from = lines[line];
      engine.setOrder(from.best.order);
      engine.bestFit.set(from.best.bestFit);
      best = engine.placeFrom(0, Infinity);
      if (from.visited) {
        kick(engine, lowerBound, random);
        best = engine.placeFrom(0, Infinity);
      }
      from.visited = true;
      engine.commit(0);
      search = new LocalSearch(engine, random);
    }
  }
  // The search starts from the climb's plan when that was adopted, so credit whoever last
  // improved the total.
  let winner: AutoStats['strategy'] =
    kept.total < searchStartTotal ? 'local search' : searchStartTotal < initialTotal ? 'bottleneck climb' : 'greedy';
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
  }
  const climbIterations = climbed?.iterations ?? 0;
  return {
    engine,
    stats: { lowerBound, initialTotal, finalTotal: best, iterations, climbIterations, work: engine.work, initialOrder: start.name, strategy: winner },
  };
}

export function autoLowerBound(buffers: readonly BufferInfo[], memoryPressure: number): number {
  return Math.max(memoryPressure, lowerBoundOfBuffers(buffers));
}

/** `auto` with its statistics, for the benchmark and the CLI. */
export function planAuto(buffers: readonly BufferInfo[], memoryPressure: number, options: AutoPlanningOptions = {}) {
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
    };
    return { plan: new Map(), stats };
  }
  const startedAt = performance.now();
  const problem = indexProblem(buffers);
  const { engine, stats } = autoSearch(problem, autoLowerBound(buffers, memoryPressure), options, startedAt);
  return { plan: toBufferPlan(problem, engine), stats };
}

export const autoPlanner: PlanningAlgorithm = (buffers, memoryPressure, options) =>
  planAuto(buffers, memoryPressure, options).plan;

/**
 * `auto`, the default planner. Not TVM's: it aims at the lower bound (memory pressure).
 *
 *  1. Lower bound = max(given memory pressure, our own bound: peak live bytes when every buffer
 *     has a live range, else a greedy clique weight).
 *  2. A few placement orders (size, weighted degree, urgency, start time) x gap policies
 *     (first-fit, best-fit); keep the smallest total (sum of pool ends).
 *  3. While above the bound and within the time budget: bottleneck-guided local search. Pick a
 *     buffer ending at the top of the largest pool and change how it or the earlier neighbours
 *     under it are placed (move it earlier, move it before one of them, swap two of them, flip
 *     one's gap policy); re-place only from the first changed position, abandon as soon as the
 *     total exceeds the best, keep moves that are no worse (plateaus let the search drift).
 *
 * Conflicts count in either direction (a plan must keep every listed pair apart), pools are
 * tried in preference order with their size hints, and offsets honour both the buffer's and
 * the pool's alignment. Deterministic for a given seed when the bound is reached or when
 * `maxIterations` limits the search instead of the clock.
 */
import { performance } from 'node:perf_hooks';
import { lowerBoundOfBuffers } from '../conflicts';
import { BufferInfo, PlanningAlgorithm, PlanningOptions } from '../types';
import { IndexedProblem, indexProblem, poolsExhaustedError, toBufferPlan } from './indexed';
import { initialOrders } from './orderings';
import { PlacementEngine } from './placement';
import { seededRandom } from './seededRandom';

export const DEFAULT_TIME_BUDGET_MS = 1000;
const DEFAULT_SEED = 0x5eed;

export interface AutoPlanningOptions extends PlanningOptions {
  /** Upper bound on local-search moves (for reproducible runs independent of machine speed). */
  readonly maxIterations?: number;
}

export interface AutoStats {
  readonly lowerBound: number;
  readonly initialTotal: number;
  readonly finalTotal: number;
  readonly iterations: number;
  readonly initialOrder: string;
}

interface Start {
  readonly order: Int32Array;
  readonly bestFit: boolean;
  readonly name: string;
}

function pickStart(problem: IndexedProblem, engine: PlacementEngine): { start: Start; total: number } {
  let best: Start | undefined;
  let bestTotal = Infinity;
  let firstFailure = -1;
  for (const o of initialOrders(problem, engine)) {
    for (const bestFit of [false, true]) {
      engine.setOrder(o.order);
      engine.bestFit.fill(bestFit ? 1 : 0);
      const total = engine.placeFrom(0, bestTotal);
      if (engine.failedBuffer >= 0 && firstFailure < 0) firstFailure = engine.failedBuffer;
      if (total < bestTotal) {
        bestTotal = total;
        best = { order: o.order, bestFit, name: `${o.name}/${bestFit ? 'best-fit' : 'first-fit'}` };
      }
    }
  }
  if (!best) throw poolsExhaustedError(problem.buffers[Math.max(0, firstFailure)]);
  return { start: best, total: bestTotal };
}

/** Runs the planner on an indexed problem and leaves the best placement in the engine. */
export function autoSearch(
  problem: IndexedProblem,
  lowerBound: number,
  options: AutoPlanningOptions = {},
): { engine: PlacementEngine; stats: AutoStats } {
  const engine = new PlacementEngine(problem);
  const { start, total: initialTotal } = pickStart(problem, engine);
  engine.setOrder(start.order);
  engine.bestFit.fill(start.bestFit ? 1 : 0);
  let best = engine.placeFrom(0, Infinity);
  engine.commit(0);

  const random = seededRandom(options.seed ?? DEFAULT_SEED);
  const deadline = performance.now() + (options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS);
  const maxIterations = options.maxIterations ?? Infinity;
  const { n, nPools, pool, offset, sizes, pos, adj, adjStart } = engine;
  const tops: number[] = [];
  const under: number[] = [];
  let iterations = 0;
  while (best > lowerBound && iterations < maxIterations && performance.now() < deadline) {
    iterations++;
    let p = 0;
    for (let q = 1; q < nPools; q++) if (engine.poolEnd(q) > engine.poolEnd(p)) p = q;
    const end = engine.poolEnd(p);
    tops.length = 0;
    for (let b = 0; b < n; b++) if (pool[b] === p && offset[b] + sizes[b] === end) tops.push(b);
    if (tops.length === 0) break;
    const t = tops[Math.floor(random() * tops.length)];
    const tPos = pos[t];
    under.length = 0;
    for (let ai = adjStart[t]; ai < adjStart[t + 1]; ai++) {
      const j = adj[ai];
      if (pool[j] === p && pos[j] < tPos) under.push(j);
    }

    const r = random();
    let undo: () => void;
    let from: number;
    if (tPos > 0 && (under.length === 0 || r < 0.3)) {
      const to = Math.floor(random() * tPos);
      engine.move(tPos, to);
      undo = () => engine.move(to, tPos);
      from = to;
    } else if (under.length > 0 && r < 0.6) {
      const to = pos[under[Math.floor(random() * under.length)]];
      engine.move(tPos, to);
      undo = () => engine.move(to, tPos);
      from = to;
    } else if (under.length > 1 && r < 0.85) {
      const i = pos[under[Math.floor(random() * under.length)]];
      let j = pos[under[Math.floor(random() * under.length)]];
      if (i === j) j = tPos;
      engine.swap(i, j);
      undo = () => engine.swap(i, j);
      from = Math.min(i, j);
    } else {
      const x = under.length > 0 && random() < 0.5 ? under[Math.floor(random() * under.length)] : t;
      engine.bestFit[x] ^= 1;
      undo = () => void (engine.bestFit[x] ^= 1);
      from = pos[x];
    }

    const total = engine.placeFrom(from, best);
    if (total <= best) {
      engine.commit(from);
      best = total;
    } else {
      engine.rollback(from);
      undo();
    }
  }
  return {
    engine,
    stats: { lowerBound, initialTotal, finalTotal: best, iterations, initialOrder: start.name },
  };
}

export function autoLowerBound(buffers: readonly BufferInfo[], memoryPressure: number): number {
  return Math.max(memoryPressure, lowerBoundOfBuffers(buffers));
}

/** `auto` with its statistics, for the benchmark and the CLI. */
export function planAuto(buffers: readonly BufferInfo[], memoryPressure: number, options: AutoPlanningOptions = {}) {
  if (buffers.length === 0) {
    const stats: AutoStats = { lowerBound: 0, initialTotal: 0, finalTotal: 0, iterations: 0, initialOrder: 'none' };
    return { plan: new Map(), stats };
  }
  const problem = indexProblem(buffers);
  const { engine, stats } = autoSearch(problem, autoLowerBound(buffers, memoryPressure), options);
  return { plan: toBufferPlan(problem, engine), stats };
}

export const autoPlanner: PlanningAlgorithm = (buffers, memoryPressure, options) =>
  planAuto(buffers, memoryPressure, options).plan;

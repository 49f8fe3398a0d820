/**
 * The local search of `auto` as an iterated local search: LocalSearch steps (localSearch.ts)
 * until a plateau, then a restart from a line's best plan with a small kick. Several lines
 * (starting plans) take turns at each stall: a plan adopted from another strategy can sit in a
 * basin the search does not leave (heavy-tailed sizes), where the best greedy start still leads
 * down to the bound.
 */
import { performance } from 'node:perf_hooks';
import { LocalSearch } from './localSearch';
import { PlacementEngine } from './placement';

/** A plan the search can return to: its order, gap policies and total. */
export interface Snapshot {
  readonly total: number;
  readonly order: Int32Array;
  readonly bestFit: Uint8Array;
}

/** Local-search steps without progress before a restart. */
const STALL_STEPS = 250;

/** Buffers moved by a restart kick: enough to leave the plateau, few enough to keep its quality. */
const KICK_MOVES = 2;

/** Kicks tried before a restart gives up and starts from its plan unkicked. */
const KICK_TRIES = 4;

/**
 * Perturbs the engine's order (a few buffers above their pool's excess target move to random
 * earlier positions) and places it in full; returns the total. With pins and size limits a
 * kicked order may not be completable (a free buffer moved ahead takes the space a pinned one
 * needs): such a kick is undone and another tried, and after KICK_TRIES the order is left as it
 * was. The engine always ends holding a complete placement: the search re-places incrementally
 * from it, so a partial one would let it accept orders whose full placement fails.
 */
export function kick(engine: PlacementEngine, random: () => number): number {
  const moves: [number, number][] = [];
  for (let t = 0; t < KICK_TRIES; t++) {
    moves.length = 0;
    const protruding: number[] = [];
    for (let b = 0; b < engine.n; b++) if (engine.protrudes(b)) protruding.push(b);
    for (let m = 0; m < KICK_MOVES; m++) {
      if (protruding.length > 0) {
        const b = protruding[Math.floor(random() * protruding.length)];
        const from = engine.pos[b];
        const to = Math.floor(random() * (from + 1));
        engine.move(from, to);
        moves.push([from, to]);
      } else {
        const i = Math.floor(random() * engine.n);
        const j = Math.floor(random() * engine.n);
        engine.swap(i, j);
        moves.push([i, j]);
      }
    }
    const total = engine.placeFrom(0, Infinity);
    if (total < Infinity) return total;
    for (let m = moves.length - 1; m >= 0; m--) {
      const [from, to] = moves[m];
      if (protruding.length > 0) engine.move(to, from);
      else engine.swap(from, to);
    }
  }
  return engine.placeFrom(0, Infinity);
}

export interface SearchLimits {
  /** Stop once the best plan is at or below this (the proven lower bound). */
  readonly target: number;
  /** A plan another strategy holds: the search also stops once that one is at the target. */
  readonly otherTotal: number;
  readonly maxIterations: number;
  /** Stop once the engine's work reaches this. */
  readonly workLimit: number;
  /** Wall-clock safety cap (performance.now() value). */
  readonly deadline: number;
}

export interface SearchOutcome {
  /** The engine's plan when the search started (total `current` then). */
  readonly start: Snapshot;
  /** The best plan of all lines. */
  readonly kept: Snapshot;
  /** The total of the plan the engine holds now. */
  readonly current: number;
  readonly iterations: number;
}

/**
 * Searches from the plan the engine holds (total `current`, fully placed and committed), and
 * from `other` when given (a second line, its first turn at the first stall).
 */
export function iteratedSearch(
  engine: PlacementEngine,
  random: () => number,
  current: number,
  other: Snapshot | undefined,
  limits: SearchLimits,
): SearchOutcome {
  const snapshot = (total: number): Snapshot => ({ total, order: Int32Array.from(engine.order), bestFit: Uint8Array.from(engine.bestFit) });
  const lines: { best: Snapshot; visited: boolean }[] = [{ best: snapshot(current), visited: true }];
  const start = lines[0].best;
  if (other) lines.push({ best: other, visited: false });
  let line = 0;
  let kept = start;
  let search = new LocalSearch(engine, random);
  let iterations = 0;
  while (
    Math.min(kept.total, limits.otherTotal) > limits.target &&
    iterations < limits.maxIterations &&
    engine.work < limits.workLimit &&
    performance.now() < limits.deadline
  ) {
    iterations++;
    const workBefore = engine.work;
    current = search.step(current);
    // A step that placed nothing (no applicable move, e.g. with pins) still costs a scan: without
    // this the budget would never run out and, with no clock, the search would not end.
    if (engine.work === workBefore) engine.work += engine.n;
    if (current < lines[line].best.total) lines[line].best = snapshot(current);
    if (current < kept.total) kept = lines[line].best;
    if (search.stepsWithoutProgress >= STALL_STEPS && current > limits.target) {
      // The next line restarts from its best plan, kicked off its plateau by moving a few of the
      // buffers that stick out above the bound to earlier random positions (a line's first turn
      // starts from its plan as it is).
      line = (line + 1) % lines.length;
      const from = lines[line];
      engine.setOrder(from.best.order);
      engine.bestFit.set(from.best.bestFit);
      current = engine.placeFrom(0, Infinity);
      if (from.visited) current = kick(engine, random);
      from.visited = true;
      engine.commit(0);
      search = new LocalSearch(engine, random);
    }
  }
  return { start, kept, current, iterations };
}

/**
 * Arm Vela's HillClimbAllocator as Vela 3.4 to 3.10 run it (ethos-u-vela,
 * ethosu/vela/hillclimb_allocation.py), reimplemented for comparison, random draws included
 * (CPython MT19937 seeded with 1): order live ranges by urgency (peak live bytes during their
 * life), duration, start, size; allocate each at the lowest address clear of its time
 * neighbours; then swap two of the live ranges that shaped the bottleneck (its neighbours and
 * their predecessor chains) and keep the order when the result is no worse. After 50
 * iterations without a smaller size, each try also swaps two more turns drawn from a wider set
 * (the neighbours of the non-neighbours involved).
 *
 * The search runs while the best size is above the memory limit (at most 99,999 iterations)
 * or while the last smaller size is fewer than 500 iterations old, so it goes on as long as it
 * keeps improving. Vela passes its memory area's size as the limit; the default here is no
 * limit (a memory large enough for any plan), which leaves the 500-iteration rule alone.
 * Vela 3.0-3.3 stopped after 500 iterations in all, without the wider swaps (`release: '3.3'`).
 */
import { RefInterval, RefPlan } from './interval';
import { PyRandom } from './pyRandom';

/** Vela's default `--hillclimb-max-iterations`. */
export const MAX_ITERATIONS = 99999;
/** Vela 3.0-3.3's fixed number of iterations. */
const LEGACY_ITERATIONS = 500;
/** Iterations without a smaller size after which each try swaps two more turns. */
const MAX_ITERATIONS_STUCK = 50;
/** The search goes on while its last smaller size is fewer iterations old than this. */
export const MIN_ITERATIONS_IMPROVE = 500;
const NOT_ALLOCATED = -1;
const NO_PREDECESSOR = -1;

interface LiveRange {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly size: number;
  readonly alignment: number;
  address: number;
  endAddress: number;
  predecessor: number;
  turn: number;
  urgency: number;
  neighbours: LiveRange[];
}

function roundUp(v: number, a: number): number {
  return Math.ceil(v / a) * a;
}

export interface VelaOptions {
  /** '3.10' (default): Vela 3.4 and later; '3.3': 500 iterations, single swaps. */
  readonly release?: '3.10' | '3.3';
  /** Vela's `--hillclimb-max-iterations` (default 99,999). */
  readonly maxIterations?: number;
  /** The size of the memory area Vela allocates in (default: no limit). */
  readonly memoryLimit?: number;
}

export class VelaHillClimb {
  private readonly lrs: LiveRange[];
  private readonly minRequiredSize: number;
  private bestSize = Number.MAX_SAFE_INTEGER;
  private allocated: number[] = [];
  private readonly random = new PyRandom(1);
  private readonly maxIterations: number;
  private readonly memoryLimit: number;
  private readonly legacy: boolean;
  /** Iterations the search ran (0 when the first allocation was optimal). */
  iterations = 0;

  constructor(intervals: readonly RefInterval[], options: VelaOptions = {}) {
    this.legacy = options.release === '3.3';
    this.maxIterations = options.maxIterations ?? (this.legacy ? LEGACY_ITERATIONS : MAX_ITERATIONS);
    this.memoryLimit = options.memoryLimit ?? Infinity;
    this.lrs = intervals.map((iv, id) => ({
      id,
      start: iv.first,
      end: iv.last,
      size: iv.size,
      alignment: iv.alignment,
      address: 0,
      endAddress: 0,
      predecessor: 0,
      turn: 0,
      urgency: 0,
      neighbours: [],
    }));
    const slots = 1 + Math.max(...this.lrs.map((lr) => lr.end));
    const atTime: LiveRange[][] = Array.from({ length: slots }, () => []);
    for (const lr of this.lrs) for (let t = lr.start; t <= lr.end; t++) atTime[t].push(lr);
    const sizeAt = atTime.map((list) => list.reduce((s, lr) => s + lr.size, 0));
    this.minRequiredSize = Math.max(...sizeAt);
    for (const lr of this.lrs) {
      const seen = new Set<LiveRange>();
      for (let t = lr.start; t <= lr.end; t++) {
        lr.urgency = Math.max(sizeAt[t], lr.urgency);
        for (const lr2 of atTime[t]) {
          if (!seen.has(lr2) && lr !== lr2) {
            seen.add(lr2);
            lr.neighbours.push(lr2);
          }
        }
      }
    }
  }

  private allocateLr(lr: LiveRange): void {
    let address = 0;
    let predecessor = NO_PREDECESSOR;
    let fits = false;
    while (!fits) {
      fits = true;
      for (const lr2 of lr.neighbours) {
        if (lr2.address === NOT_ALLOCATED || lr2.endAddress <= address) continue;
        if (lr2.address < address + lr.size && address < lr2.endAddress) {
          fits = false;
          address = roundUp(lr2.endAddress, lr.alignment);
          predecessor = lr2.id;
        }
      }
    }
    lr.address = address;
    lr.endAddress = address + lr.size;
    lr.predecessor = predecessor;
  }

  private allocateIndices(indices: number[]): number {
    for (const lr of this.lrs) lr.address = NOT_ALLOCATED;
    let size = 0;
    for (let turn = 0; turn < indices.length; turn++) {
      const lr = this.lrs[indices[turn]];
      this.allocateLr(lr);
      lr.turn = turn;
      size = Math.max(size, lr.endAddress);
      if (size > this.bestSize) break;
    }
    return size;
  }

  private addPredecessorTurns(turnSet: Set<number>, turnList: number[], lr: LiveRange): void {
    if (!turnSet.has(lr.turn)) {
      turnSet.add(lr.turn);
      turnList.push(lr.turn);
    }
    let id = lr.id;
    while (this.lrs[id].predecessor !== NO_PREDECESSOR) {
      id = this.lrs[id].predecessor;
      const turn = this.lrs[id].turn;
      if (!turnSet.has(turn)) {
        turnSet.add(turn);
        turnList.push(turn);
      }
    }
  }

  private attemptBottleneckFix(indices: number[], iterationsStuck: number): void {
    let maxLr = this.lrs[0];
    for (const lr of this.lrs.slice(1)) if (lr.endAddress > maxLr.endAddress) maxLr = lr;
    const turnSet = new Set<number>();
    const turnList: number[] = [];
    this.addPredecessorTurns(turnSet, turnList, maxLr);
    for (const lr2 of maxLr.neighbours) this.addPredecessorTurns(turnSet, turnList, lr2);
    const nonNeighbourTurns = turnList.filter((turn) => {
      const lr = this.lrs[indices[turn]];
      return !(maxLr.start <= lr.end && lr.start <= maxLr.end);
    });
    let ix1: number;
    if (this.random.randint(0, 100) < 30 && nonNeighbourTurns.length > 0) {
      ix1 = nonNeighbourTurns[this.random.randint(0, nonNeighbourTurns.length - 1)];
    } else {
      ix1 = turnList[this.random.randint(0, turnList.length - 1)];
    }
    // Python would raise on randint(0, -1); a lone bottleneck cannot be improved by a swap.
    if (turnList.length < 2) return;
    let ix2 = turnList[this.random.randint(0, turnList.length - 2)];
    if (ix1 === ix2) ix2 = turnList[turnList.length - 1];
    [indices[ix1], indices[ix2]] = [indices[ix2], indices[ix1]];
    if (!this.legacy && iterationsStuck > MAX_ITERATIONS_STUCK) {
      // As Vela: the wider set reads the live ranges at the non-neighbour turns after the swap.
      for (const turn of nonNeighbourTurns) {
        for (const lr of this.lrs[indices[turn]].neighbours) {
          if (!turnSet.has(lr.turn)) {
            turnSet.add(lr.turn);
            turnList.push(lr.turn);
          }
        }
      }
      const ix3 = turnList[this.random.randint(0, turnList.length - 1)];
      const ix4 = turnList[this.random.randint(0, turnList.length - 1)];
      [indices[ix3], indices[ix4]] = [indices[ix4], indices[ix3]];
    }
  }

  private search(initial: number[]): void {
    let indices = initial;
    let bestIndices = indices.slice();
    let lastImprovement = 0;
    let it = 0;
    const goOn = this.legacy
      ? () => it < this.maxIterations
      : () => (this.bestSize > this.memoryLimit && it < this.maxIterations) || it - lastImprovement < MIN_ITERATIONS_IMPROVE;
    while (goOn()) {
      this.attemptBottleneckFix(indices, it - lastImprovement);
      const size = this.allocateIndices(indices);
      this.iterations = ++it;
      if (size <= this.bestSize) {
        if (size < this.bestSize) lastImprovement = it - 1;
        this.bestSize = size;
        bestIndices = indices.slice();
        this.allocated = this.lrs.map((lr) => lr.address);
        if (this.bestSize <= this.minRequiredSize) return;
      } else {
        indices = bestIndices.slice();
      }
    }
  }

  allocate(): number[] {
    const sorted = this.lrs.slice().sort((a, b) => {
      if (a.urgency !== b.urgency) return b.urgency - a.urgency;
      const da = a.end - a.start;
      const db = b.end - b.start;
      if (da !== db) return db - da;
      if (a.start !== b.start) return a.start - b.start;
      if (a.size !== b.size) return b.size - a.size;
      return a.id - b.id;
    });
    const indices = sorted.map((lr) => lr.id);
    this.bestSize = this.allocateIndices(indices);
    this.allocated = this.lrs.map((lr) => lr.address);
    if (this.bestSize > this.minRequiredSize) this.search(indices);
    return this.allocated;
  }
}

export function velaHillClimbPlan(intervals: readonly RefInterval[], options: VelaOptions = {}): RefPlan {
  if (intervals.length === 0) return { offsets: [], arenaBytes: 0 };
  const offsets = new VelaHillClimb(intervals, options).allocate();
  let arena = 0;
  intervals.forEach((iv, i) => (arena = Math.max(arena, offsets[i] + iv.size)));
  return { offsets, arenaBytes: arena };
}

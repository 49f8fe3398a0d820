/**
 * Arm Vela's HillClimbAllocator (ethos-u-vela, ethosu/vela/hillclimb_allocation.py),
 * reimplemented for comparison, random draws included (CPython MT19937 seeded with 1):
 * order live ranges by urgency (peak live bytes during their life), duration, start, size;
 * allocate each at the lowest address clear of its time neighbours; then up to 500 times swap
 * two of the live ranges that shaped the bottleneck (its neighbours and their predecessor
 * chains) and keep the order when the result is no worse.
 */
import { RefInterval, RefPlan } from './interval';
import { PyRandom } from './pyRandom';

const MAX_ITERATIONS = 500;
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

export class VelaHillClimb {
  private readonly lrs: LiveRange[];
  private readonly minRequiredSize: number;
  private bestSize = Number.MAX_SAFE_INTEGER;
  private allocated: number[] = [];
  private readonly random = new PyRandom(1);

  constructor(intervals: readonly RefInterval[]) {
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

  private attemptBottleneckFix(indices: number[]): void {
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
  }

  private search(initial: number[]): void {
    let indices = initial;
    let bestIndices = indices.slice();
    for (let it = 0; it < MAX_ITERATIONS; it++) {
      this.attemptBottleneckFix(indices);
      const size = this.allocateIndices(indices);
      if (size <= this.bestSize) {
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

export function velaHillClimbPlan(intervals: readonly RefInterval[]): RefPlan {
  if (intervals.length === 0) return { offsets: [], arenaBytes: 0 };
  const offsets = new VelaHillClimb(intervals).allocate();
  let arena = 0;
  intervals.forEach((iv, i) => (arena = Math.max(arena, offsets[i] + iv.size)));
  return { offsets, arenaBytes: arena };
}

/**
 * Vela-style bottleneck hill climb, the second strategy of `auto` (after Arm Vela's
 * HillClimbAllocator). Start from the urgency order; place every buffer, in order, at the lowest
 * address clear of its already placed conflicts; then repeatedly take the buffer ending highest,
 * gather the turns of it, its neighbours and the chains of buffers each of them sits on, swap two
 * of those turns (30% of the time the first one is not a time neighbour of the top buffer: those
 * are what leave the gaps), re-place the whole order, and keep it when the size is no worse,
 * else go back to the best order.
 *
 * With `widen` it is Vela 3.4+'s climb: after 50 iterations without a smaller size, each try
 * also swaps two turns drawn from a wider set (the neighbours of the buffers at the
 * non-neighbour turns). Without it, Vela 3.0-3.3's (what `auto` runs).
 *
 * It reproduces Vela's choices exactly: neighbours are visited in Vela's order (first shared
 * operator, then index), the predecessor is the buffer of the last jump of Vela's fits loop, the
 * bookkeeping of a rejected attempt stays visible to the next one as in Vela, and the random
 * draws come from CPython's MT19937. With Vela's seed (1), its first 500 iterations therefore end
 * on Vela's plan, and every further iteration can only improve on it.
 *
 * Limited to one pool without a size limit and live ranges on every buffer (Vela's model); `auto`
 * runs only its own search on anything else.
 */
import { alignmentInPool, IndexedProblem, roundUp } from './indexed';
import { Mt19937 } from './mt19937';
import { swapInPermutation } from './permutation';

const NO_PREDECESSOR = -1;
/** Vela's chance, in percent of randint(0, 100), of starting the swap from a non-neighbour. */
const NON_NEIGHBOUR_PERCENT = 30;
/** Vela's seed; with it the first iterations retrace Vela's allocator. */
export const VELA_SEED = 1;
/** Vela 3.4+: iterations without a smaller size after which each try swaps two more turns. */
const STUCK_ITERATIONS = 50;

export function bottleneckClimbApplies(problem: IndexedProblem): boolean {
  return (
    problem.pools.length === 1 &&
    problem.poolLimits[0] === Infinity &&
    problem.buffers.every((b) => b.liveRange !== undefined)
  );
}

export interface ClimbLimits {
  /** Stop once the size is at or below this (the lower bound). */
  readonly target: number;
  /** Stop once `work` reaches this. */
  readonly workLimit: number;
  /** Stop after this many iterations in total, unless improveWindow says go on. */
  readonly maxIterations: number;
  /** maxIterations applies only while the size is above this (Vela's memory limit; default: always). */
  readonly memoryLimit?: number;
  /**
   * Go on, whatever maxIterations and memoryLimit say, while the last smaller size is fewer than
   * this many iterations old (Vela 3.4+'s 500; default 0).
   */
  readonly improveWindow?: number;
  /** Stop after this many iterations in a row without a strictly smaller size. */
  readonly stallIterations: number;
  /** Wall-clock safety cap (performance.now() value). */
  readonly deadline: number;
  readonly now: () => number;
}

export class BottleneckClimb {
  readonly n: number;
  private readonly size: Float64Array;
  private readonly align: Float64Array;
  private readonly first: Float64Array;
  private readonly last: Float64Array;
  /** Conflicts of each buffer as CSR rows, in Vela's neighbour order. */
  private readonly nbStart: Int32Array;
  private readonly nb: Int32Array;
  /** The same rows, sorted by the addresses of a recent placement. */
  private readonly byAddress: Int32Array;
  // Scratch for the placed neighbours of the buffer being placed, in address order.
  private readonly nbAddress: Float64Array;
  private readonly nbEnd: Float64Array;
  private readonly nbId: Int32Array;

  /**
   * Vela's per-buffer state as its next iteration sees it: what the last placement that reached
   * the buffer gave it (a rejected attempt stops early, so later buffers keep older values).
   */
  private readonly address: Float64Array;
  private readonly endAddress: Float64Array;
  private readonly predecessor: Int32Array;
  private readonly turn: Int32Array;
  /** The best order's full placement, and prefixMax[k] = highest end among its first k turns. */
  private readonly bestAddress: Float64Array;
  private readonly bestEnd: Float64Array;
  private readonly bestPredecessor: Int32Array;
  private readonly prefixMax: Float64Array;
  /** deviating[b] = 1: b's state differs from the best placement's (listed in deviatingList). */
  private readonly deviating: Uint8Array;
  private readonly deviatingList: Int32Array;
  private deviatingCount = 0;
  /** dirty[b] === dirtyEpoch: b must be re-placed in the current attempt. */
  private readonly dirty: Uint32Array;
  private dirtyEpoch = 1;

  /** The best order between steps (a step tries a swap in place and undoes it if rejected). */
  readonly order: Int32Array;
  /** pos[b]: b's turn in `order`; during a placement, b is placed iff pos[b] < the current turn. */
  private readonly pos: Int32Array;
  bestSize: number;
  /** Neighbours scanned, in the units of PlacementEngine.work. */
  work = 0;
  iterations = 0;
  /** Iterations since the size last went strictly down. */
  sinceImprovement = 0;
  /** Vela's last_improvement_iteration: the 0-based iteration that last lowered the size (0 before any). */
  private lastImprovement = 0;
  private readonly widen: boolean;

  private readonly random: Mt19937;
  private readonly turnStamp: Uint32Array;
  private stampEpoch = 0;
  private readonly turnList: Int32Array;
  private turnCount = 0;
  private readonly remoteTurns: Int32Array;

  /**
   * `adjStart`/`adj`: symmetric conflicts as CSR (copied, so the caller may reorder its own);
   * `initialOrder`: the urgency order.
   */
  constructor(problem: IndexedProblem, adjStart: Int32Array, adj: Int32Array, initialOrder: Int32Array, seed = VELA_SEED, widen = false) {
    const n = problem.count;
    this.n = n;
    this.widen = widen;
    this.size = problem.sizes;
    this.align = Float64Array.from({ length: n }, (_, b) => alignmentInPool(problem, b, 0));
    this.first = Float64Array.from(problem.buffers, (b) => b.liveRange![0]);
    this.last = Float64Array.from(problem.buffers, (b) => b.liveRange![1]);
    this.nbStart = adjStart.slice();
    this.nb = velaNeighbourOrder(adjStart, adj, this.first);
    this.byAddress = this.nb.slice();
    let maxDegree = 0;
    for (let b = 0; b < n; b++) maxDegree = Math.max(maxDegree, this.nbStart[b + 1] - this.nbStart[b]);
    this.nbAddress = new Float64Array(maxDegree);
    this.nbEnd = new Float64Array(maxDegree);
    this.nbId = new Int32Array(maxDegree);
    this.address = new Float64Array(n);
    this.endAddress = new Float64Array(n);
    this.predecessor = new Int32Array(n).fill(NO_PREDECESSOR);
    this.turn = new Int32Array(n);
    this.bestAddress = new Float64Array(n);
    this.bestEnd = new Float64Array(n);
    this.bestPredecessor = new Int32Array(n);
    this.prefixMax = new Float64Array(n + 1);
    this.deviating = new Uint8Array(n);
    this.deviatingList = new Int32Array(n);
    this.dirty = new Uint32Array(n).fill(1);
    this.order = initialOrder.slice();
    this.pos = new Int32Array(n);
    initialOrder.forEach((b, k) => (this.pos[b] = k));
    this.random = new Mt19937(seed);
    this.turnStamp = new Uint32Array(n);
    this.turnList = new Int32Array(n);
    this.remoteTurns = new Int32Array(n);
    this.bestSize = Infinity;
    this.bestSize = this.placeFrom(0);
    this.keepFrom(0);
    this.bestAddress.set(this.address);
    this.bestEnd.set(this.endAddress);
    this.bestPredecessor.set(this.predecessor);
  }

  /** Each buffer's address in the best placement (a copy). */
  bestOffsets(): Float64Array {
    return this.bestAddress.slice();
  }

  /** Climbs until one of the limits is reached; the best order and size stay in bestOrder/bestSize. */
  run(limits: ClimbLimits): void {
    const memoryLimit = limits.memoryLimit ?? -Infinity;
    const improveWindow = limits.improveWindow ?? 0;
    while (
      this.bestSize > limits.target &&
      this.work < limits.workLimit &&
      ((this.iterations < limits.maxIterations && this.bestSize > memoryLimit) ||
        this.iterations - this.lastImprovement < improveWindow) &&
      this.sinceImprovement < limits.stallIterations &&
      limits.now() < limits.deadline
    ) {
      this.step();
    }
  }

  /** One Vela iteration: swap two turns that shaped the top, re-place, keep or go back. */
  step(): void {
    this.iterations++;
    const swap = this.swapAtBottleneck();
    let from = this.n;
    if (swap) {
      from = Math.min(swap.i, swap.j);
      this.dirtyEpoch++;
      this.markWithNeighbours(this.order[swap.i]);
      this.markWithNeighbours(this.order[swap.j]);
      if (swap.k >= 0) {
        from = Math.min(from, swap.k, swap.l);
        this.markWithNeighbours(this.order[swap.k]);
        this.markWithNeighbours(this.order[swap.l]);
      }
    }
    const size = this.placeFrom(from);
    if (size <= this.bestSize) {
      if (size < this.bestSize) this.lastImprovement = this.iterations - 1;
      this.sinceImprovement = size < this.bestSize ? 0 : this.sinceImprovement + 1;
      this.bestSize = size;
      this.keepFrom(from);
    } else {
      this.sinceImprovement++;
      if (swap) {
        if (swap.k >= 0) this.swap(swap.k, swap.l);
        this.swap(swap.i, swap.j);
      }
    }
  }

  /**
   * Vela re-places the whole order from scratch, stopping once the best size is exceeded. The
   * same result, cheaper: turns before `from` and buffers whose placed neighbours are the same as
   * in the best placement get the best placement's values back; only buffers marked dirty (the
   * swapped ones, their neighbours, and neighbours of any buffer that moved) are re-placed.
   */
  private placeFrom(from: number): number {
    const { order, pos, dirty, dirtyEpoch, deviating, endAddress } = this;
    let kept = 0;
    for (let k = 0; k < this.deviatingCount; k++) {
      const b = this.deviatingList[k];
      if (deviating[b] === 0) continue;
      if (pos[b] < from) this.restore(b);
      else this.deviatingList[kept++] = b;
    }
    this.deviatingCount = kept;
    let size = this.prefixMax[from];
    for (let t = from; t < this.n; t++) {
      const b = order[t];
      this.work++;
      if (dirty[b] === dirtyEpoch) {
        this.placeOne(b, t);
        this.turn[b] = t;
        if (deviating[b] === 0) {
          deviating[b] = 1;
          this.deviatingList[this.deviatingCount++] = b;
        }
        if (this.address[b] !== this.bestAddress[b]) {
          for (let ai = this.nbStart[b]; ai < this.nbStart[b + 1]; ai++) dirty[this.nb[ai]] = dirtyEpoch;
        }
      } else if (deviating[b] === 1) {
        this.restore(b);
      }
      if (endAddress[b] > size) size = endAddress[b];
      if (size > this.bestSize) break;
    }
    return size;
  }

  /** Gives b the best placement's values (its turn there is its turn now: it was not swapped). */
  private restore(b: number): void {
    this.address[b] = this.bestAddress[b];
    this.endAddress[b] = this.bestEnd[b];
    this.predecessor[b] = this.bestPredecessor[b];
    this.turn[b] = this.pos[b];
    this.deviating[b] = 0;
  }

  private markWithNeighbours(b: number): void {
    this.dirty[b] = this.dirtyEpoch;
    for (let ai = this.nbStart[b]; ai < this.nbStart[b + 1]; ai++) this.dirty[this.nb[ai]] = this.dirtyEpoch;
  }

  /** The full placement just made becomes the best one (turns before `from` already are). */
  private keepFrom(from: number): void {
    const { order, endAddress, prefixMax, deviating } = this;
    for (let k = 0; k < this.deviatingCount; k++) {
      const b = this.deviatingList[k];
      if (deviating[b] === 0) continue;
      this.bestAddress[b] = this.address[b];
      this.bestEnd[b] = endAddress[b];
      this.bestPredecessor[b] = this.predecessor[b];
      deviating[b] = 0;
    }
    this.deviatingCount = 0;
    for (let t = from; t < this.n; t++) prefixMax[t + 1] = Math.max(prefixMax[t], endAddress[order[t]]);
  }

  private swap(i: number, j: number): void {
    swapInPermutation(this.order, this.pos, i, j);
  }

  /**
   * The lowest fit: one pass over the neighbours in address order, jumping over any placed
   * neighbour overlapping the candidate. Vela's predecessor is the neighbour of the last jump of its fits loop, so it ends
   * exactly at the fit: when only one placed neighbour does, that is it; otherwise Vela's loop,
   * in Vela's neighbour order, settles which (velaPredecessor).
   */
  private placeOne(b: number, t: number): void {
    const { address, endAddress } = this;
    const s = this.size[b];
    let at = this.fitInAddressOrder(b, t, s);
    if (at < 0) {
      // The row drifted out of address order: sort it by the current addresses (its placed
      // entries then come in order) and take the now exact pass. Rows are sorted lazily, only
      // when used out of order, rather than all of them every few iterations.
      this.sortRowByAddress(b);
      at = this.fitInAddressOrder(b, t, s);
    }
    address[b] = at;
    endAddress[b] = at + s;
    this.predecessor[b] = at > 0 && this.endingAtFit > 1 ? this.velaPredecessor(b, t) : this.fitFrom;
  }

  /** Neighbour of the last jump, and placed neighbours ending at the fit, of fitInAddressOrder. */
  private fitFrom = NO_PREDECESSOR;
  private endingAtFit = 0;

  /**
   * One pass over b's row, jumping over every placed neighbour that overlaps the candidate; exact
   * when the placed neighbours come in address order (a neighbour skipped before a jump ended
   * below the old candidate or started above it, and so does every later one), and so is the
   * count of those ending at the fit, which all come after the jump to it. Returns -1 when the
   * pass met an address out of order.
   */
  private fitInAddressOrder(b: number, t: number, s: number): number {
    const { address, endAddress, byAddress, pos } = this;
    const al = this.align[b];
    const lo = this.nbStart[b];
    const hi = this.nbStart[b + 1];
    let at = 0;
    let from = NO_PREDECESSOR;
    let endingAtFit = 0;
    let prevAddress = -Infinity;
    this.work += 1 + hi - lo;
    for (let ai = lo; ai < hi; ai++) {
      const j = byAddress[ai];
      if (pos[j] >= t) continue;
      const a = address[j];
      if (a < prevAddress) return -1;
      prevAddress = a;
      const e = al === 1 ? endAddress[j] : roundUp(endAddress[j], al);
      if (e > at) {
        if (a < at + s) {
          at = e;
          from = j;
          endingAtFit = 1;
        }
      } else if (e === at) {
        endingAtFit++;
      }
    }
    this.fitFrom = from;
    this.endingAtFit = endingAtFit;
    return at;
  }

  /** Insertion sort of b's byAddress row by current addresses (rows are nearly sorted). */
  private sortRowByAddress(b: number): void {
    const { byAddress, address } = this;
    const lo = this.nbStart[b];
    for (let ai = lo + 1; ai < this.nbStart[b + 1]; ai++) {
      const j = byAddress[ai];
      const a = address[j];
      let k = ai;
      while (k > lo && address[byAddress[k - 1]] > a) {
        byAddress[k] = byAddress[k - 1];
        k--;
      }
      byAddress[k] = j;
    }
  }

  /** Replays Vela's fits loop for b (already placed) to find the neighbour of its last jump. */
  private velaPredecessor(b: number, t: number): number {
    const { nb, address, endAddress, pos } = this;
    const s = this.size[b];
    const al = this.align[b];
    const lo = this.nbStart[b];
    const hi = this.nbStart[b + 1];
    let at = 0;
    let from = NO_PREDECESSOR;
    let moved = true;
    while (moved) {
      moved = false;
      this.work += hi - lo;
      for (let ai = lo; ai < hi; ai++) {
        const j = nb[ai];
        if (pos[j] >= t || endAddress[j] <= at) continue;
        if (address[j] < at + s) {
          at = al === 1 ? endAddress[j] : roundUp(endAddress[j], al);
          from = j;
          moved = true;
        }
      }
    }
    return from;
  }

  private addTurn(t: number): void {
    if (this.turnStamp[t] === this.stampEpoch) return;
    this.turnStamp[t] = this.stampEpoch;
    this.turnList[this.turnCount++] = t;
  }

  /** The turn of b and of every buffer down its predecessor chain. */
  private addChain(b: number): void {
    this.addTurn(this.turn[b]);
    for (let x = this.predecessor[b]; x !== NO_PREDECESSOR; x = this.predecessor[x]) this.addTurn(this.turn[x]);
  }

  /**
   * Vela's bottleneck fix: swaps two turns in place and returns them (none for a lone turn), and
   * when widening and stuck, two more (k, l; -1 when not).
   */
  private swapAtBottleneck(): { i: number; j: number; k: number; l: number } | undefined {
    const { endAddress, order, first, last, turnList, remoteTurns, random } = this;
    let top = 0;
    for (let b = 1; b < this.n; b++) if (endAddress[b] > endAddress[top]) top = b;
    this.stampEpoch++;
    this.turnCount = 0;
    this.addChain(top);
    for (let ai = this.nbStart[top]; ai < this.nbStart[top + 1]; ai++) this.addChain(this.nb[ai]);
    const count = this.turnCount;
    let remote = 0;
    for (let k = 0; k < count; k++) {
      const b = order[turnList[k]];
      if (!(first[top] <= last[b] && first[b] <= last[top])) remoteTurns[remote++] = turnList[k];
    }
    // Draw order and count as in Vela, including the draw made before a lone turn gives up.
    const i =
      random.randint(0, 100) < NON_NEIGHBOUR_PERCENT && remote > 0
        ? remoteTurns[random.randint(0, remote - 1)]
        : turnList[random.randint(0, count - 1)];
    if (count < 2) return undefined;
    let j = turnList[random.randint(0, count - 2)];
    if (i === j) j = turnList[count - 1];
    this.swap(i, j);
    if (!this.widen || this.iterations - 1 - this.lastImprovement <= STUCK_ITERATIONS) return { i, j, k: -1, l: -1 };
    // Vela reads the buffers at the non-neighbour turns after the swap, and their neighbours'
    // turns as its last placements left them.
    for (let r = 0; r < remote; r++) {
      const b = order[remoteTurns[r]];
      for (let ai = this.nbStart[b]; ai < this.nbStart[b + 1]; ai++) this.addTurn(this.turn[this.nb[ai]]);
    }
    const wide = this.turnCount;
    const k = turnList[random.randint(0, wide - 1)];
    const l = turnList[random.randint(0, wide - 1)];
    this.swap(k, l);
    return { i, j, k, l };
  }
}

/**
 * Vela lists a neighbour j of b at the first operator both are alive at, max(first[b],
 * first[j]), then by index. So a row is its neighbours starting no later than b (all keyed
 * first[b]) by index, then those starting later by (first, index). Both parts are filled by
 * walking all buffers once in the part's order (rows are symmetric, and their own order does
 * not matter), without a comparator sort per row.
 */
function velaNeighbourOrder(adjStart: Int32Array, adj: Int32Array, first: Float64Array): Int32Array {
  const n = first.length;
  const nb = new Int32Array(adj.length);
  const fillEarly = adjStart.slice(0, n);
  const fillLate = adjStart.slice(0, n);
  for (let b = 0; b < n; b++) {
    for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) if (first[adj[ai]] <= first[b]) fillLate[b]++;
  }
  for (let j = 0; j < n; j++) {
    for (let ai = adjStart[j]; ai < adjStart[j + 1]; ai++) {
      const b = adj[ai];
      if (first[j] <= first[b]) nb[fillEarly[b]++] = j;
    }
  }
  const byStart = Int32Array.from({ length: n }, (_, i) => i).sort((x, y) => first[x] - first[y] || x - y);
  for (let k = 0; k < n; k++) {
    const j = byStart[k];
    for (let ai = adjStart[j]; ai < adjStart[j + 1]; ai++) {
      const b = adj[ai];
      if (first[j] > first[b]) nb[fillLate[b]++] = j;
    }
  }
  return nb;
}

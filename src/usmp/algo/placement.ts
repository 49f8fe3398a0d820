/**
 * The placement engine behind `auto`: places buffers in a given order, each at the lowest
 * (first-fit) or tightest (best-fit) gap among the already placed buffers it conflicts with, in
 * the first candidate pool whose size hint allows it. Everything is index based; per position it
 * keeps the running pool ends so that a search can re-place only a suffix of the order, and it
 * keeps a committed copy so that a rejected move is undone in time proportional to what changed.
 */
import { IndexedProblem, roundUp } from './indexed';

/** Conflicts listed in either direction, without repeats or self loops, as CSR arrays. */
function symmetricAdjacency(problem: IndexedProblem): { start: Int32Array; adj: Int32Array } {
  const n = problem.count;
  const lists: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  problem.conflicts.forEach((conf, i) => {
    for (const j of conf) {
      if (j === i) continue;
      lists[i].add(j);
      lists[j].add(i);
    }
  });
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + lists[i].size;
  const adj = new Int32Array(start[n]);
  lists.forEach((s, i) => adj.set([...s].sort((a, b) => a - b), start[i]));
  return { start, adj };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export class PlacementEngine {
  readonly n: number;
  readonly nPools: number;
  readonly sizes: Float64Array;
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
  /** Per buffer, slice [candStart[b], candStart[b+1]) of candPool/candAlign. */
  private readonly candStart: Int32Array;
  private readonly candPool: Int32Array;
  /** Alignment of a buffer in a pool: lcm of the buffer's and the pool's alignment. */
  private readonly candAlign: Float64Array;
  private readonly limits: Float64Array;

  readonly order: Int32Array;
  readonly pos: Int32Array;
  readonly pool: Int32Array;
  readonly offset: Float64Array;
  /** Per buffer: 1 = best-fit gap choice, 0 = first-fit. */
  readonly bestFit: Uint8Array;
  /** prefixEnds[k * nPools + p]: end of pool p after placing positions [0, k). */
  readonly prefixEnds: Float64Array;
  readonly prefixTotal: Float64Array;

  private readonly savedPool: Int32Array;
  private readonly savedOffset: Float64Array;
  private readonly savedPrefixEnds: Float64Array;
  private readonly savedPrefixTotal: Float64Array;

  private readonly keys: Float64Array;
  private readonly packedKeys: boolean;
  /** Positions [0, reached) hold a valid placement after the last placeFrom. */
  reached = 0;
  /** Buffer that fitted no pool in the last placeFrom, or -1. */
  failedBuffer = -1;

  constructor(problem: IndexedProblem) {
    const n = problem.count;
    this.n = n;
    this.nPools = problem.pools.length;
    this.sizes = problem.sizes;
    const { start, adj } = symmetricAdjacency(problem);
    this.adjStart = start;
    this.adj = adj;
    this.candStart = new Int32Array(n + 1);
    for (let b = 0; b < n; b++) this.candStart[b + 1] = this.candStart[b] + problem.candidates[b].length;
    this.candPool = new Int32Array(this.candStart[n]);
    this.candAlign = new Float64Array(this.candStart[n]);
    let maxAlign = 1;
    for (let b = 0; b < n; b++) {
      problem.candidates[b].forEach((p, k) => {
        const a = problem.alignments[b];
        const pa = Math.max(1, problem.pools[p].alignment || 1);
        const lcm = (a / gcd(a, pa)) * pa;
        this.candPool[this.candStart[b] + k] = p;
        this.candAlign[this.candStart[b] + k] = lcm;
        maxAlign = Math.max(maxAlign, lcm);
      });
    }
    this.limits = problem.poolLimits;
    this.order = Int32Array.from({ length: n }, (_, i) => i);
    this.pos = Int32Array.from({ length: n }, (_, i) => i);
    this.pool = new Int32Array(n).fill(-1);
    this.offset = new Float64Array(n);
    this.bestFit = new Uint8Array(n);
    this.prefixEnds = new Float64Array((n + 1) * this.nPools);
    this.prefixTotal = new Float64Array(n + 1);
    this.savedPool = new Int32Array(n);
    this.savedOffset = new Float64Array(n);
    this.savedPrefixEnds = new Float64Array((n + 1) * this.nPools);
    this.savedPrefixTotal = new Float64Array(n + 1);
    let maxDegree = 0;
    for (let b = 0; b < n; b++) maxDegree = Math.max(maxDegree, start[b + 1] - start[b]);
    this.keys = new Float64Array(maxDegree);
    // Offsets never exceed the sum of all sizes plus alignment slack; pack (offset, index) in one
    // double when that stays exact, so a native numeric sort orders neighbours by offset.
    let sumSizes = 0;
    for (let b = 0; b < n; b++) sumSizes += problem.sizes[b] + maxAlign;
    this.packedKeys = (sumSizes + 1) * (n + 1) < Number.MAX_SAFE_INTEGER;
  }

  setOrder(order: ArrayLike<number>): void {
    for (let k = 0; k < this.n; k++) {
      this.order[k] = order[k];
      this.pos[order[k]] = k;
    }
  }

  /** Sum of pool ends of the full placement (valid when reached === n). */
  get total(): number {
    return this.prefixTotal[this.n];
  }

  poolEnd(p: number): number {
    return this.prefixEnds[this.n * this.nPools + p];
  }

  /**
   * Re-places positions [start, n). Stops as soon as the running total exceeds `abortAbove`
   * (returns Infinity) or a buffer fits no pool (returns Infinity, sets failedBuffer).
   */
  placeFrom(start: number, abortAbove: number): number {
    const P = this.nPools;
    this.failedBuffer = -1;
    for (let k = start; k < this.n; k++) {
      const b = this.order[k];
      const base = k * P;
      if (!this.placeOne(b, k)) {
        this.reached = k;
        this.failedBuffer = b;
        return Infinity;
      }
      const p = this.pool[b];
      const end = this.offset[b] + this.sizes[b];
      let total = this.prefixTotal[k];
      for (let q = 0; q < P; q++) this.prefixEnds[base + P + q] = this.prefixEnds[base + q];
      const before = this.prefixEnds[base + p];
      if (end > before) {
        this.prefixEnds[base + P + p] = end;
        total += end - before;
      }
      this.prefixTotal[k + 1] = total;
      if (total > abortAbove) {
        this.reached = k + 1;
        return Infinity;
      }
    }
    this.reached = this.n;
    return this.prefixTotal[this.n];
  }

  private placeOne(b: number, k: number): boolean {
    const size = this.sizes[b];
    const n = this.n;
    for (let ci = this.candStart[b]; ci < this.candStart[b + 1]; ci++) {
      const p = this.candPool[ci];
      const align = this.candAlign[ci];
      const neighbours = this.collectPlaced(b, k, p);
      let cand = 0;
      let gapAt = -1;
      let gapLen = Infinity;
      const bestFit = this.bestFit[b] === 1;
      for (let i = 0; i < neighbours; i++) {
        let j: number;
        let o: number;
        if (this.packedKeys) {
          const key = this.keys[i];
          j = key % (n + 1);
          o = (key - j) / (n + 1);
        } else {
          j = this.keys[i];
          o = this.offset[j];
        }
        if (cand + size <= o) {
          if (!bestFit) {
            gapAt = cand;
            break;
          }
          if (o - cand < gapLen) {
            gapLen = o - cand;
            gapAt = cand;
          }
        }
        const e = roundUp(o + this.sizes[j], align);
        if (e > cand) cand = e;
      }
      const at = gapAt >= 0 ? gapAt : cand;
      if (at + size <= this.limits[p]) {
        this.pool[b] = p;
        this.offset[b] = at;
        return true;
      }
    }
    return false;
  }

  /** Fills keys with the neighbours of b placed before position k in pool p, by offset. */
  private collectPlaced(b: number, k: number, p: number): number {
    const { adj, pos, pool, offset, keys } = this;
    const stride = this.n + 1;
    let m = 0;
    for (let ai = this.adjStart[b]; ai < this.adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (pos[j] < k && pool[j] === p) keys[m++] = this.packedKeys ? offset[j] * stride + j : j;
    }
    if (this.packedKeys) keys.subarray(0, m).sort();
    else keys.subarray(0, m).sort((x, y) => offset[x] - offset[y]);
    return m;
  }

  /** Makes the current placement from position `start` on the one rollback returns to. */
  commit(start: number): void {
    for (let k = start; k < this.n; k++) {
      const b = this.order[k];
      this.savedPool[b] = this.pool[b];
      this.savedOffset[b] = this.offset[b];
    }
    this.savedPrefixEnds.set(this.prefixEnds.subarray(start * this.nPools), start * this.nPools);
    this.savedPrefixTotal.set(this.prefixTotal.subarray(start), start);
  }

  /** Undoes the placements made since the last commit, before the order itself is restored. */
  rollback(start: number): void {
    for (let k = start; k < this.reached; k++) {
      const b = this.order[k];
      this.pool[b] = this.savedPool[b];
      this.offset[b] = this.savedOffset[b];
    }
    const to = Math.min(this.n, this.reached + 1);
    this.prefixEnds.set(this.savedPrefixEnds.subarray(start * this.nPools, (to + 1) * this.nPools), start * this.nPools);
    this.prefixTotal.set(this.savedPrefixTotal.subarray(start, to + 1), start);
  }

  /** Moves the buffer at position `from` to position `to`, shifting those in between. */
  move(from: number, to: number): void {
    const { order, pos } = this;
    const b = order[from];
    if (from > to) {
      for (let k = from; k > to; k--) {
        order[k] = order[k - 1];
        pos[order[k]] = k;
      }
    } else {
      for (let k = from; k < to; k++) {
        order[k] = order[k + 1];
        pos[order[k]] = k;
      }
    }
    order[to] = b;
    pos[b] = to;
  }

  swap(i: number, j: number): void {
    const { order, pos } = this;
    const bi = order[i];
    const bj = order[j];
    order[i] = bj;
    order[j] = bi;
    pos[bj] = i;
    pos[bi] = j;
  }
}

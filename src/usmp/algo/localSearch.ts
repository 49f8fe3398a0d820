/**
 * Bottleneck-guided local search over placement orders (the second phase of `auto`).
 *
 * Each step looks at a buffer ending at the top of the largest pool (the bottleneck) and at
 * what put it there: its neighbours in that pool and the chains of buffers each of them sits on
 * (predecessors). It then reorders or re-policies one or two of those buffers, re-places from the
 * first changed position on, and keeps the change when the total is no worse. Buffers on the
 * chains that are not time neighbours of the bottleneck are what leaves the gaps, so they are
 * picked more often (the idea behind Vela's hill climb allocator, here with incremental
 * re-placement, early abandon and extra move kinds).
 */
import { PlacementEngine } from './placement';

/** How often the search works on any protruding buffer rather than the topmost one. */
const PROTRUDING_SHARE = 0.5;

interface Move {
  readonly from: number;
  undo(): void;
}

export class LocalSearch {
  private readonly stamp: Uint32Array;
  private readonly neighbourStamp: Uint32Array;
  private epoch = 0;
  private readonly affecting: number[] = [];
  private readonly remote: number[] = [];
  private readonly tops: number[] = [];

  constructor(
    private readonly engine: PlacementEngine,
    private readonly random: () => number,
  ) {
    this.bestExcess = engine.excess;
    this.stamp = new Uint32Array(engine.n);
    this.neighbourStamp = new Uint32Array(engine.n);
  }

  private bestExcess = Infinity;
  /** Steps since the total or, at equal total, the excess last went strictly down. */
  stepsWithoutProgress = 0;

  /**
   * One step from the engine's committed placement, whose total is `best`; returns the new best
   * total (unchanged when the move was undone). Ties on the total are broken by the excess above
   * the engine's excess targets.
   */
  step(best: number): number {
    const move = this.propose();
    if (!move) return best;
    const e = this.engine;
    const total = e.placeFrom(move.from, best, true, this.bestExcess);
    this.stepsWithoutProgress++;
    if (total < best || (total === best && e.excess <= this.bestExcess)) {
      if (total < best || e.excess < this.bestExcess) this.stepsWithoutProgress = 0;
      this.bestExcess = e.excess;
      e.commit(move.from);
      return total;
    }
    e.rollback(move.from);
    move.undo();
    return best;
  }

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  /**
   * A buffer to work on: with probability `protrudingShare` any buffer sticking out above the
   * excess target (the tie-breaker counts them all), otherwise one ending at the very top of
   * the largest pool.
   */
  private bottleneck(): { t: number; p: number } | undefined {
    const e = this.engine;
    const tops = this.tops;
    tops.length = 0;
    if (this.random() < PROTRUDING_SHARE) {
      for (let b = 0; b < e.n; b++) if (e.protrudes(b)) tops.push(b);
      if (tops.length > 0) {
        const t = this.pick(tops);
        return { t, p: e.pool[t] };
      }
    }
    let p = 0;
    for (let q = 1; q < e.nPools; q++) if (e.poolEnd(q) > e.poolEnd(p)) p = q;
    const end = e.poolEnd(p);
    for (let b = 0; b < e.n; b++) if (e.pool[b] === p && e.offset[b] + e.sizes[b] === end) tops.push(b);
    return tops.length === 0 ? undefined : { t: this.pick(tops), p };
  }

  /** The bottleneck, its same-pool neighbours and everything they sit on, without repeats. */
  private collectAffecting(t: number, p: number): void {
    const e = this.engine;
    const epoch = ++this.epoch;
    const affecting = this.affecting;
    const remote = this.remote;
    affecting.length = 0;
    remote.length = 0;
    this.neighbourStamp[t] = epoch;
    for (let ai = e.adjStart[t]; ai < e.adjStart[t + 1]; ai++) this.neighbourStamp[e.adj[ai]] = epoch;
    const addChain = (x: number): void => {
      while (x >= 0 && this.stamp[x] !== epoch) {
        this.stamp[x] = epoch;
        affecting.push(x);
        if (this.neighbourStamp[x] !== epoch) remote.push(x);
        x = e.predecessor[x];
      }
    };
    addChain(t);
    for (let ai = e.adjStart[t]; ai < e.adjStart[t + 1]; ai++) {
      const j = e.adj[ai];
      if (e.pool[j] === p) addChain(j);
    }
  }

  private propose(): Move | undefined {
    const e = this.engine;
    const found = this.bottleneck();
    if (!found) return undefined;
    const { t, p } = found;
    this.collectAffecting(t, p);
    const affecting = this.affecting;
    const r = this.random();
    e.beginChange();
    if (affecting.length >= 2 && r < 0.7) {
      const i = e.pos[this.remote.length > 0 && this.random() < 0.3 ? this.pick(this.remote) : this.pick(affecting)];
      let j = e.pos[this.pick(affecting)];
      if (i === j) j = e.pos[affecting[affecting.length - 1]];
      if (i === j) return undefined;
      e.markMoved(e.order[i]);
      e.markMoved(e.order[j]);
      e.swap(i, j);
      return { from: Math.min(i, j), undo: () => e.swap(i, j) };
    }
    const tPos = e.pos[t];
    if (tPos > 0 && r < 0.9) {
      const to = Math.floor(this.random() * tPos);
      e.markMoved(t);
      e.move(tPos, to);
      return { from: to, undo: () => e.move(to, tPos) };
    }
    const x = this.pick(affecting);
    e.bestFit[x] ^= 1;
    e.markDirty(x);
    return { from: e.pos[x], undo: () => void (e.bestFit[x] ^= 1) };
  }
}

/**
 * Conflict lists (buffer names) as indices: each buffer's listed partners in listed order
 * (unknown names as -1), and sorted for binary search of "does j list i". Thousands of buffers
 * with hundreds of conflicts each are common, and a set of pairs or of names per buffer costs
 * several times more. Read by the verifier (one-way listings) and by the clique lower bound
 * (pairs listed both ways).
 */
import { BufferInfo } from './types';

export class ListedConflicts {
  /** Buffer i's partners are listed[start[i] .. start[i + 1]). */
  readonly start: Int32Array;
  readonly listed: Int32Array;
  private readonly sorted: Int32Array;

  constructor(buffers: readonly BufferInfo[]) {
    const n = buffers.length;
    const index = new Map(buffers.map((b, i) => [b.name, i] as const));
    this.start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.start[i + 1] = this.start[i] + buffers[i].conflicts.length;
    this.listed = new Int32Array(this.start[n]);
    buffers.forEach((b, i) => b.conflicts.forEach((other, k) => (this.listed[this.start[i] + k] = index.get(other) ?? -1)));
    this.sorted = this.listed.slice();
    for (let i = 0; i < n; i++) this.sorted.subarray(this.start[i], this.start[i + 1]).sort();
  }

  /** Whether buffer j lists buffer i. */
  lists(j: number, i: number): boolean {
    const { start, sorted } = this;
    let lo = start[j];
    let hi = start[j + 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo < start[j + 1] && sorted[lo] === i;
  }
}

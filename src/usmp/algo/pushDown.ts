/**
 * A one-pool plan pushed down: buffers taken in offset order (ties by index), each moved to the
 * lowest offset, aligned, clear of the conflicts already moved. No buffer moves up: every
 * conflict below it in the plan ended at or below its offset there and has only moved down since,
 * and the conflicts above it come later, so its old offset is still free when its turn comes.
 * So the total never grows, and a valid plan stays valid.
 *
 * A tolerant dive (ExactCore.greedyDive) lets a buffer of the busiest section go first, up to
 * its tolerance above the lowest offset; the slot it skipped stays empty when the buffers that
 * could have filled it land on others instead. Nothing directly under a buffer is left open
 * (dropping each buffer onto its highest conflict below moved none on the bench's dense sets):
 * the gaps are lower, and first fit in offset order fills them from above. Used as the last
 * step of a one-pool auto call (auto.ts).
 */
import { roundUp } from './coreRun';
import { stableOrderByValue } from './permutation';
import { buffersByOffset } from './topRegion';

export interface PushDownInput {
  readonly sizes: Float64Array;
  readonly alignments: Float64Array;
  /** Conflicts as CSR: buffer b conflicts with adj[adjStart[b] .. adjStart[b + 1]). */
  readonly adjStart: Int32Array;
  readonly adj: Int32Array;
}

export interface PushedDown {
  readonly offsets: Float64Array;
  readonly total: number;
  /** Conflict entries read and sorted: the caller charges it to its budget. */
  readonly work: number;
}

export function pushDown(input: PushDownInput, offsets: Float64Array): PushedDown {
  const n = input.sizes.length;
  const { order, work: orderWork } = buffersByOffset(offsets);
  const rank = new Int32Array(n);
  for (let k = 0; k < n; k++) rank[order[k]] = k;
  const result = new Float64Array(n);
  const dropped = dropInOrder(input, order, rank, 0, -1, result, Infinity, new DropScratch(n));
  return { offsets: result, total: dropped.total, work: orderWork + input.adj.length + dropped.sortWork };
}

/**
 * Scratch for a buffer's dropped conflicts, their offsets, and their order by offset
 * (stableOrderByValue: numeric keys, no comparator; comparator sorts of every list took about
 * twice as long, 80-100 ms of a cold plan on a dense 2,000-buffer set).
 */
export class DropScratch {
  readonly moved: Int32Array;
  readonly movedOffset: Float64Array;
  readonly keys: Float64Array;
  readonly byOffset: Int32Array;
  constructor(n: number) {
    this.moved = new Int32Array(n);
    this.movedOffset = new Float64Array(n);
    this.keys = new Float64Array(n);
    this.byOffset = new Int32Array(n);
  }
}

/**
 * Drops the buffers order[from..] in turn, all but `skip`, each to the lowest offset, aligned,
 * clear of its conflicts of lower rank other than `skip` (at their offsets in `result`, where the
 * buffers below `from` must already be). Returns the highest end of the dropped buffers, and the
 * conflict entries sorted (m log m per buffer with m such conflicts); the total is Infinity, and
 * `result` incomplete, once a buffer ends at or above `abortAt`.
 */
export function dropInOrder(
  input: PushDownInput,
  order: Int32Array,
  rank: Int32Array,
  from: number,
  skip: number,
  result: Float64Array,
  abortAt: number,
  scratch: DropScratch,
): { total: number; sortWork: number } {
  let total = 0;
  let sortWork = 0;
  for (let k = from; k < order.length; k++) {
    const b = order[k];
    if (b === skip) continue;
    sortWork += dropOne(input, b, k, rank, skip, result, scratch);
    const end = result[b] + input.sizes[b];
    if (end >= abortAt) return { total: Infinity, sortWork };
    total = Math.max(total, end);
  }
  return { total, sortWork };
}

/**
 * Into result[b]: its lowest offset, aligned, clear of its conflicts j of rank below `below`
 * other than `skip`, at their offsets in `result`. Returns the sort's work.
 */
export function dropOne(input: PushDownInput, b: number, below: number, rank: Int32Array, skip: number, result: Float64Array, scratch: DropScratch): number {
  const { sizes, alignments, adjStart, adj } = input;
  const { moved, movedOffset, keys, byOffset } = scratch;
  let m = 0;
  for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
    const j = adj[ai];
    if (rank[j] < below && j !== skip && sizes[j] > 0) {
      movedOffset[m] = result[j];
      moved[m++] = j;
    }
  }
  const sorted = stableOrderByValue(movedOffset, m, keys, byOffset);
  const size = sizes[b];
  const align = alignments[b];
  let at = 0;
  if (size > 0) {
    for (let i = 0; i < m; i++) {
      const j = moved[sorted[i]];
      if (result[j] >= at + size) break;
      const end = result[j] + sizes[j];
      if (end > at) at = roundUp(end, align);
    }
  }
  result[b] = at;
  return m * Math.ceil(Math.log2(m + 1));
}

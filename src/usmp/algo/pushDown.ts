/**
 * A one-pool plan pushed down: buffers taken in offset order (ties by index), each moved to the
 * lowest offset, aligned, clear of the conflicts already moved. No buffer moves up: every
 * conflict below it in the plan ended at or below its offset there and has only moved down since,
 * and the conflicts above it come later, so its old offset is still free when its turn comes.
 * So the total never grows, and a valid plan stays valid.
 *
 * The core's tolerant dives (ExactCore.greedyDive) leave holes of up to their tolerance under
 * the buffers they let go first; the buffers above such a hole keep it even after the one that
 * made it is gone. Pushed down, the dense sets' dives end lower (see coreSteps.ts).
 */
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
  const { sizes, alignments, adjStart, adj } = input;
  const n = sizes.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((x, y) => offsets[x] - offsets[y] || x - y);
  const moved = new Uint8Array(n);
  const result = new Float64Array(n);
  const below: number[] = [];
  let total = 0;
  let work = n * Math.ceil(Math.log2(n + 1));
  for (const b of order) {
    below.length = 0;
    for (let ai = adjStart[b]; ai < adjStart[b + 1]; ai++) {
      const j = adj[ai];
      if (moved[j] && sizes[j] > 0) below.push(j);
    }
    below.sort((x, y) => result[x] - result[y]);
    work += adjStart[b + 1] - adjStart[b] + below.length * Math.ceil(Math.log2(below.length + 1));
    const align = alignments[b];
    const size = sizes[b];
    let at = 0;
    if (size > 0) {
      for (const j of below) {
        if (result[j] >= at + size) break;
        const end = result[j] + sizes[j];
        if (end > at) at = Math.ceil(end / align) * align;
      }
    }
    result[b] = at;
    moved[b] = 1;
    total = Math.max(total, at + size);
  }
  return { offsets: result, total, work };
}

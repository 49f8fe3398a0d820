/**
 * A one-pool plan turned upside down: each buffer's range [o, o + s) goes to [T - o - s', T - o -
 * s' + s), with s' its size rounded up to the alignment and T the total rounded up to it. Two
 * buffers apart in the plan are apart in the mirror (their padded ranges are: each offset is a
 * multiple of the alignment), every offset stays aligned, and the new total is at most T (the old
 * total, when that was a multiple of the alignment).
 *
 * Why: the top's re-solve (topRegion.ts) frees only the buffers above a plan's holes, so a hole
 * low in the stack at a busy moment is out of its reach; in the mirror that hole is near the top.
 * Only for a problem whose buffers share one alignment: with several, a buffer's padding could
 * reach into the next one's range.
 */
import { roundUp } from './coreRun';

export interface MirrorInput {
  readonly sizes: Float64Array;
  /** Per buffer: its alignment in the pool. */
  readonly alignments: Float64Array;
}

/** The mirrored offsets, or undefined when the buffers' alignments differ. */
export function mirroredOffsets(input: MirrorInput, offsets: Float64Array): Float64Array | undefined {
  const { sizes, alignments } = input;
  const n = sizes.length;
  if (n === 0) return new Float64Array(0);
  const alignment = alignments[0];
  for (let b = 1; b < n; b++) if (alignments[b] !== alignment) return undefined;
  let total = 0;
  for (let b = 0; b < n; b++) total = Math.max(total, offsets[b] + sizes[b]);
  const top = roundUp(total, alignment);
  const mirrored = new Float64Array(offsets.length);
  for (let b = 0; b < offsets.length; b++) mirrored[b] = top - offsets[b] - roundUp(sizes[b], alignment);
  return mirrored;
}

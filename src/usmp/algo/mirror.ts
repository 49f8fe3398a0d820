/**
 * A one-pool plan turned upside down: each buffer's range [o, o + s) goes to [T - o - s', T - o -
 * s' + s), with s' its size rounded up to the alignment and T the total rounded up to it. Two
 * buffers apart in the plan are apart in the mirror (their padded ranges are: each offset is a
 * multiple of the alignment), every offset stays aligned, and the new total is at most T (the old
 * total, when that was a multiple of the alignment).
 *
 * Why: the top's re-solve (topRegion.ts) frees only the buffers above a plan's holes, so a hole
 * low in the stack at a busy moment is out of its reach; in the mirror that hole is near the top.
 * Exact only for a problem whose buffers share one alignment: with several, a buffer's padding
 * could reach into the next one's range. Those get the plan's order upside down (mirroredOrder),
 * which a push-down makes a plan again.
 */
import { roundUp } from './coreRun';

export interface MirrorInput {
  readonly sizes: Float64Array;
  /** Per buffer: its alignment in the pool. */
  readonly alignments: Float64Array;
}

/**
 * The mirrored offsets, or undefined when the buffers' alignments differ. (mirroredOrder's
 * offsets: with one alignment they are a plan.)
 */
export function mirroredOffsets(input: MirrorInput, offsets: Float64Array): Float64Array | undefined {
  const { alignments } = input;
  for (let b = 1; b < alignments.length; b++) if (alignments[b] !== alignments[0]) return undefined;
  return mirroredOrder(input, offsets);
}

/**
 * Offsets T - o - s' (s' the size rounded up to the buffer's own alignment, T the total rounded
 * up to the largest alignment, L), each aligned: with one alignment the mirror above, a plan;
 * with several, each dividing L, not a plan: where a buffer's own padding reaches past the
 * offset of a conflict above it (a smaller alignment on top of a larger), the two overlap by
 * less than the larger alignment.
 * Buffers apart with their padding keep apart, swapped; so the offsets are the plan's order
 * upside down, and its push-down (pushDown.ts, which reads the order alone) a plan of it.
 * Undefined when one alignment does not divide the largest.
 *
 * Measured on 30 sets of 2,000 buffers whose alignments (1, 4, 16, 64) are drawn per buffer (the
 * issue's shape, lifetimes up to 40, 120 and 250 operators), where there had been no mirror:
 * finished upside down in turns (coreSteps.ts, finishMirrored), 26 plans smaller, none larger,
 * mean overhead 0.675% -> 0.576% above the bound, 0.05-0.1 s more per plan (the rounds' work).
 */
export function mirroredOrder(input: MirrorInput, offsets: Float64Array): Float64Array | undefined {
  const { sizes, alignments } = input;
  let largest = 1;
  for (let b = 0; b < sizes.length; b++) largest = Math.max(largest, alignments[b]);
  for (let b = 0; b < sizes.length; b++) if (largest % alignments[b] !== 0) return undefined;
  let total = 0;
  for (let b = 0; b < sizes.length; b++) total = Math.max(total, offsets[b] + sizes[b]);
  const top = roundUp(total, largest);
  const mirrored = new Float64Array(offsets.length);
  for (let b = 0; b < offsets.length; b++) mirrored[b] = top - offsets[b] - roundUp(sizes[b], alignments[b]);
  return mirrored;
}

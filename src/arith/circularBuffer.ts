/**
 * TFLite Micro's CIRCULAR_BUFFER custom operator (kernels/circular_buffer.cc), one invocation:
 * the output buffer drops its oldest slot and takes the input as its newest, on every
 * invocation, and the period counter says whether the operator is "ready" (it has run
 * `cycles_max` times since it last was). uma-ts keeps both in one int32 state: the counter
 * (`cycles_until_run`), then the buffer's int8 values (the output tensor TFLite Micro keeps as a
 * variable tensor). Run by the interpreter; the CPU strategy writes the same steps as loops.
 */

/** State elements before the buffer's values: the period counter. */
export const CIRCULAR_BUFFER_COUNTER = 1;

/**
 * One invocation on `state` (updated in place): slots `1..slots-1` of `depth` values move one
 * slot down, the first `depth` input values become the last slot (TFLite Micro's memmove and
 * memcpy over the first `slots * depth` output values; any further values stay as they are),
 * then the counter steps. True when the operator is ready (TFLite Micro's `is_ready`).
 */
export function circularBufferStep(state: Int32Array, input: ArrayLike<number>, slots: number, depth: number, cyclesMax: number): boolean {
  const base = CIRCULAR_BUFFER_COUNTER;
  state.copyWithin(base, base + depth, base + slots * depth);
  for (let j = 0; j < depth; j++) state[base + (slots - 1) * depth + j] = input[j];
  const counter = state[0] - 1;
  const ready = counter <= 0;
  state[0] = ready ? cyclesMax : counter;
  return ready;
}

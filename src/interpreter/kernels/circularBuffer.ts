/**
 * CIRCULAR_BUFFER as TFLite Micro's kernel: the state (period counter, buffer values) stepped
 * and written back to the session; the packed int8 output is the buffer, then the ready flag.
 */
import { CIRCULAR_BUFFER_COUNTER, circularBufferStep } from '../../arith/circularBuffer';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { typedInput } from './signal/common';

export function circularBuffer(ctx: KernelContext): TypedArray {
  const input = typedInput<Int8Array>(ctx, 0, 'int8', 'input');
  const state = Int32Array.from(typedInput<Int32Array>(ctx, 1, 'int32', 'state'));
  const [slots, depth, cyclesMax] = ['num_slots', 'depth', 'cycles_max'].map((k) => ctx.number(k));
  const values = state.length - CIRCULAR_BUFFER_COUNTER;
  if (slots < 1 || depth < 0 || slots * depth > values || input.length < depth || cyclesMax < 1) throw ctx.fail('input, state or options of the wrong size');
  const ready = circularBufferStep(state, input, slots, depth, cyclesMax);
  const out = new Int8Array(values + 1);
  out.set(state.subarray(CIRCULAR_BUFFER_COUNTER));
  out[values] = ready ? 1 : 0;
  ctx.updateVariable(1, state);
  return out;
}

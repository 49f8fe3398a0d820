/** SignalStacker as TFLite Micro: the packed int16 output (stacked frame, output_valid); the queue state written back. */
import { stacker } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalStacker(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const state = Int32Array.from(typedInput<Int32Array>(ctx, 1, 'int32', 'state'));
  const [channels, left, right, step] = ['num_channels', 'stacker_left_context', 'stacker_right_context', 'stacker_step'].map((k) => ctx.number(k));
  const size = channels * (left + right + 1);
  if (state.length !== 2 + size || input.length !== channels) throw ctx.fail('input or state of the wrong size');
  const out = new Int16Array(size + 1);
  out[size] = stacker(input, state, channels, left, right, step, out.subarray(0, size)) ? 1 : 0;
  ctx.updateVariable(1, state);
  return out;
}

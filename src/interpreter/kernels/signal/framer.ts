/** SignalFramer as TFLite Micro: the packed int16 output (frames, output_valid); the per-row queues written back. */
import { framer, framerCapacity } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFramer(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const state = Int32Array.from(typedInput<Int32Array>(ctx, 1, 'int32', 'state'));
  const size = ctx.number('frame_size');
  const step = ctx.number('frame_step');
  const shape = ctx.input(0, 'input').type.shape;
  const rows = input.length / shape[shape.length - 1];
  if (state.length !== rows * (framerCapacity(size, step) + 1)) throw ctx.fail('state of the wrong size');
  const n = (input.length / step) * size;
  const out = new Int16Array(n + 1);
  out[n] = framer(input, state, size, step, out.subarray(0, n)) ? 1 : 0;
  ctx.updateVariable(1, state);
  return out;
}

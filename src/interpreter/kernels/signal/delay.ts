/** SignalDelay as TFLite Micro: the state (each row's last delay_length samples) written back to the session. */
import { delay } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalDelay(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const state = Int16Array.from(typedInput<Int16Array>(ctx, 1, 'int16', 'state'));
  const shape = ctx.input(0, 'input').type.shape;
  const frame = shape[shape.length - 1];
  const length = ctx.number('delay_length');
  if (frame > 0 && state.length < (input.length / frame) * length) throw ctx.fail('state shorter than the rows times delay_length');
  const out = new Int16Array(input.length);
  delay(input, state, frame, length, out);
  ctx.updateVariable(1, state);
  return out;
}

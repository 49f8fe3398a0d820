/** SignalWindow as TFLite Micro (src/arith/signal.ts applyWindow). */
import { applyWindow } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalWindow(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const weights = typedInput<Int16Array>(ctx, 1, 'int16', 'weights');
  if (weights.length === 0 || input.length % weights.length !== 0) throw ctx.fail(`input of ${input.length} is not whole runs of ${weights.length} weights`);
  const out = new Int16Array(input.length);
  applyWindow(input, weights, ctx.number('shift'), out);
  return out;
}

/** SignalFilterBankLog as TFLite Micro (Log32, clamped to INT16_MAX). */
import { filterBankLog } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFilterBankLog(ctx: KernelContext): TypedArray {
  const input = typedInput<Uint32Array>(ctx, 0, 'uint32', 'input');
  const out = new Int16Array(input.length);
  filterBankLog(input, ctx.number('output_scale'), ctx.number('input_correction_bits'), out);
  return out;
}

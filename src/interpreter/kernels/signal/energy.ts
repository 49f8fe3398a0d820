/** SignalEnergy as TFLite Micro (bins outside [start, end) are 0). */
import { spectrumToEnergy } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalEnergy(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const out = new Uint32Array(tensorElements(ctx.outType));
  const start = ctx.number('start_index');
  const end = ctx.number('end_index');
  if (start < 0 || end < start || 2 * end > input.length || end > out.length) throw ctx.fail(`bins [${start}, ${end}) outside the input`);
  spectrumToEnergy(input, start, end, out);
  return out;
}

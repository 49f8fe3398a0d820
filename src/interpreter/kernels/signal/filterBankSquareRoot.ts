/** SignalFilterBankSquareRoot as TFLite Micro (a shift outside [0, 31], undefined in C, gives 0). */
import { filterBankSqrt } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFilterBankSquareRoot(ctx: KernelContext): TypedArray {
  const input = typedInput<BigUint64Array>(ctx, 0, 'uint64', 'input');
  const bits = typedInput<Int32Array>(ctx, 1, 'int32', 'scale_bits');
  const out = new Uint32Array(input.length);
  filterBankSqrt(input, bits[0], out);
  return out;
}

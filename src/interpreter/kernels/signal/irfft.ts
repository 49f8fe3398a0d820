/** SignalIrfft (int16) as TFLite Micro: kissfft's fixed-point kiss_fftri per row. */
import { irfftInt16, rfftLengthProblem, rfftTables } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalIrfft(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const fftLength = ctx.number('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) throw ctx.unsupported(problem);
  const out = new Int16Array(tensorElements(ctx.outType));
  irfftInt16(rfftTables(fftLength, true), input, out, new Int16Array(fftLength));
  return out;
}

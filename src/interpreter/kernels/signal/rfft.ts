/** SignalRfft (int16) as TFLite Micro: kissfft's fixed-point real FFT per zero-padded row. */
import { rfftInt16, rfftLengthProblem, rfftTables } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalRfft(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const fftLength = ctx.number('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) throw ctx.unsupported(problem);
  const shape = ctx.input(0, 'input').type.shape;
  const inputLength = shape[shape.length - 1];
  const out = new Int16Array(tensorElements(ctx.outType));
  rfftInt16(rfftTables(fftLength), input, inputLength, out, new Int16Array(2 * fftLength));
  return out;
}

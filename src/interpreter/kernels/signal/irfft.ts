/** SignalIrfft as TFLite Micro: kissfft's kiss_fftri per row (int16, int32 fixed point, or float32 divided by fft_length). */
import { irfftInt16, irfftWide, rfftLengthProblem, rfftTables, wideFftTwiddles } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';

export function signalIrfft(ctx: KernelContext): TypedArray {
  const x = ctx.input(0, 'input');
  const fftLength = ctx.number('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) throw ctx.unsupported(problem);
  const n = tensorElements(ctx.outType);
  switch (x.type.dtype) {
    case 'int16': {
      const out = new Int16Array(n);
      irfftInt16(rfftTables(fftLength, true), x.data as Int16Array, out, new Int16Array(fftLength));
      return out;
    }
    case 'int32':
    case 'float32': {
      const type = x.type.dtype;
      const out = type === 'int32' ? new Int32Array(n) : new Float32Array(n);
      irfftWide(type, fftLength, wideFftTwiddles(type, fftLength, true), rfftTables(fftLength).factors, x.data as Int32Array | Float32Array, out);
      return out;
    }
    default:
      throw ctx.unsupported(`input dtype ${x.type.dtype} (int16, int32 or float32)`);
  }
}

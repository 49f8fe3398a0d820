/** SignalRfft as TFLite Micro: kissfft's real FFT per zero-padded row (int16, int32 fixed point, or float32). */
import { rfftInt16, rfftLengthProblem, rfftTables, rfftWide, wideFftTwiddles } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';

export function signalRfft(ctx: KernelContext): TypedArray {
  const x = ctx.input(0, 'input');
  const fftLength = ctx.number('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) throw ctx.unsupported(problem);
  const shape = x.type.shape;
  const inputLength = shape[shape.length - 1];
  const n = tensorElements(ctx.outType);
  const tables = rfftTables(fftLength);
  switch (x.type.dtype) {
    case 'int16': {
      const out = new Int16Array(n);
      rfftInt16(tables, x.data as Int16Array, inputLength, out, new Int16Array(2 * fftLength));
      return out;
    }
    case 'int32':
    case 'float32': {
      const type = x.type.dtype;
      const out = type === 'int32' ? new Int32Array(n) : new Float32Array(n);
      rfftWide(type, fftLength, wideFftTwiddles(type, fftLength, false), tables.factors, x.data as Int32Array | Float32Array, inputLength, out);
      return out;
    }
    default:
      throw ctx.unsupported(`input dtype ${x.type.dtype} (int16, int32 or float32)`);
  }
}

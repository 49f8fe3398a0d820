/** SignalFftAutoScale's two outputs as TFLite Micro (src/arith/signal.ts fftAutoScale). */
import { fftAutoScale, fftAutoScaleBits } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFftAutoScale(ctx: KernelContext): TypedArray {
  const input = typedInput<Int16Array>(ctx, 0, 'int16', 'input');
  const out = new Int16Array(input.length);
  fftAutoScale(input, out);
  return out;
}

export function signalFftAutoScaleBits(ctx: KernelContext): TypedArray {
  return Int32Array.of(fftAutoScaleBits(typedInput<Int16Array>(ctx, 0, 'int16', 'input')));
}

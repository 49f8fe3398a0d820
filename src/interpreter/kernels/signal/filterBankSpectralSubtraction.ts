/**
 * SignalFilterBankSpectralSubtraction as TFLite Micro: the noise estimate (the `state`
 * argument) updated in place; when it is a variable of the session the new estimate is written
 * back for the next invocation. Output: the noise-reduced channels, then the estimate.
 */
import { spectralSubtraction } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFilterBankSpectralSubtraction(ctx: KernelContext): TypedArray {
  const input = typedInput<Uint32Array>(ctx, 0, 'uint32', 'input');
  const noise = Uint32Array.from(typedInput<Uint32Array>(ctx, 1, 'uint32', 'state'));
  const n = ctx.number('num_channels');
  if (input.length !== n || noise.length !== n) throw ctx.fail(`input and state must hold num_channels = ${n}`);
  const config = {
    numChannels: n,
    smoothing: ctx.number('smoothing'),
    oneMinusSmoothing: ctx.number('one_minus_smoothing'),
    alternateSmoothing: ctx.number('alternate_smoothing'),
    alternateOneMinusSmoothing: ctx.number('alternate_one_minus_smoothing'),
    minSignalRemaining: ctx.number('min_signal_remaining'),
    smoothingBits: ctx.number('smoothing_bits'),
    spectralSubtractionBits: ctx.number('spectral_subtraction_bits'),
    clamping: ctx.call.attrs.clamping === true,
  };
  const out = new Uint32Array(2 * n);
  spectralSubtraction(config, input, out.subarray(0, n), noise);
  out.set(noise, n);
  ctx.updateVariable(1, noise);
  return out;
}

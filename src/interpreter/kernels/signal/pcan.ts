/** SignalPCAN as TFLite Micro (ApplyPcanAutoGainControlFixed on a copy of the input). */
import { PCAN_GAIN_LUT_ENTRIES, pcan } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalPcan(ctx: KernelContext): TypedArray {
  const input = typedInput<Uint32Array>(ctx, 0, 'uint32', 'input');
  const noise = typedInput<Uint32Array>(ctx, 1, 'uint32', 'noise_estimate');
  const lut = typedInput<Int16Array>(ctx, 2, 'int16', 'gain_lut');
  if (lut.length < PCAN_GAIN_LUT_ENTRIES) throw ctx.fail(`gain_lut of ${lut.length} entries, ${PCAN_GAIN_LUT_ENTRIES} needed`);
  if (noise.length !== input.length) throw ctx.fail('noise_estimate must hold one value per channel');
  const out = new Uint32Array(input.length);
  pcan(input, noise, lut, ctx.number('snr_shift'), out);
  return out;
}

/**
 * FULLY_CONNECTED → dense. `asymmetric_quantize_inputs` is not read: a hybrid dense (float
 * input, int8 weights) always quantizes its rows asymmetrically, as LiteRT does (src/arith/hybrid.ts).
 */
import { UnsupportedOperatorError } from '../../../errors';
import { BuiltinOptionsType, FullyConnectedOptions } from '../schema';
import { quantizedActivation, Converter, options, presentInputs, requireWideRequantize, where } from './common';

export const dense: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.FullyConnectedOptions, FullyConnectedOptions);
  if (opts && opts.weightsFormat !== 0) {
    throw new UnsupportedOperatorError(
      `unsupported FULLY_CONNECTED weights_format ${opts.weightsFormat} (only DEFAULT) on ${where(site)}`,
      { file: site.source, op: site.tfliteName },
    );
  }
  const [input, weight, bias] = site.inputTypes;
  // 16x8 with an int64 bias accumulates and requantizes in 64 bits (fully_connected.cc).
  if (input?.dtype === 'int16' && weight && bias?.dtype === 'int64') requireWideRequantize(site, input, weight, (weight.quant?.scale.length ?? 0) <= 1);
  return {
    op: 'dense',
    attrs: { activation: quantizedActivation(site, opts?.fusedActivation ?? 0), keep_num_dims: opts?.keepNumDims ?? false },
    argPositions: presentInputs(site, 3),
  };
};

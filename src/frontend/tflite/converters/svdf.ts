/** SVDF → svdf (the state input is a variable tensor). */
import { BuiltinOptionsType, SVDFOptions } from '../schema';
import { activation, Converter, formatError, presentInputs, requiredOptions, unsupportedParameter } from './common';

// SVDF inputs: input, weights_feature, weights_time, bias (optional, -1), state. Without a
// bias the call has four args and `state` is the fourth.
export const svdf: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.SVDFOptions, SVDFOptions);
  if (site.inputTypes.length !== 5 || !site.inputTypes[4]) formatError(site, 'SVDF needs 5 inputs with a state tensor');
  if (opts.rank < 1) formatError(site, `SVDF rank must be >= 1, got ${opts.rank}`);
  // TFLite Micro's int8 SVDF (svdf.cc Eval) picks EvalInt16/EvalInt8SvdfReference by the
  // weights_time dtype and reads the state as that same type: a state of the other width
  // would be read as the wrong type (past its end, for an int8 state read as int16).
  const weightsTime = site.inputTypes[2];
  const state = site.inputTypes[4];
  if (site.inputTypes[0]?.dtype === 'int8' && weightsTime && state && weightsTime.dtype !== state.dtype) {
    unsupportedParameter(site, `int8 SVDF with state ${state.dtype} and weights_time ${weightsTime.dtype} (TFLite Micro reads the state as the weights_time type)`);
  }
  return {
    op: 'svdf',
    attrs: { rank: opts.rank, activation: activation(site, opts.fusedActivation) },
    argPositions: presentInputs(site, 5),
  };
};

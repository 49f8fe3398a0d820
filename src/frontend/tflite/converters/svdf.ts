/** SVDF → svdf (the state input is a variable tensor). */
import { BuiltinOptionsType, SVDFOptions } from '../schema';
import { activation, Converter, formatError, presentInputs, requiredOptions } from './common';

// SVDF inputs: input, weights_feature, weights_time, bias (optional, -1), state. Without a
// bias the call has four args and `state` is the fourth.
export const svdf: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.SVDFOptions, SVDFOptions);
  if (site.inputTypes.length !== 5 || !site.inputTypes[4]) formatError(site, 'SVDF needs 5 inputs with a state tensor');
  if (opts.rank < 1) formatError(site, `SVDF rank must be >= 1, got ${opts.rank}`);
  return {
    op: 'svdf',
    attrs: { rank: opts.rank, activation: activation(site, opts.fusedActivation) },
    argPositions: presentInputs(site, 5),
  };
};

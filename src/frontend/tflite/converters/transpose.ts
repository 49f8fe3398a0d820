/** TRANSPOSE → transpose (perm read from the constant second input). */
import { BuiltinOptionsType, TransposeOptions } from '../schema';
import { Converter, formatError, inputType, options, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';

export const transpose: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  options(site, BuiltinOptionsType.TransposeOptions, TransposeOptions);
  requireDtype(site, input, ['float32', 'int8', 'int16'], 'input');
  const r = input.shape.length;
  if (r > 6) unsupportedParameter(site, `rank ${r} input (TFLite Micro transposes up to 6-d)`);
  const perm = constantInts(site, 1, 'perm').map((p) => (p < 0 ? p + r : p));
  if (perm.length !== r || [...perm].sort((a, b) => a - b).some((p, i) => p !== i)) {
    formatError(site, `perm [${perm}] is not a permutation of ${r} axes`);
  }
  return { op: 'transpose', attrs: { perm }, argPositions: [0] };
};

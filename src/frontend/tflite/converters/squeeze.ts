/**
 * SQUEEZE and EXPAND_DIMS → reshape: both only relabel the shape, so the call is a view of its
 * input with the output's declared type (like RESHAPE, whose shape input is dropped).
 *
 * Unlike RESHAPE's, their parameters still fix the shape: TFLite Micro's Prepare checks the
 * declared output against them (SQUEEZE: every squeezed axis has size 1 and the kept ones
 * remain; EXPAND_DIMS: VerifyTensorDim, one axis value) and LiteRT resizes the output to
 * the shape they compute. A model declaring another shape was compiled with it, and every later
 * operator saw a shape neither runtime gives (fuzzed: a RESHAPE turned into EXPAND_DIMS by its
 * operator code, its 4-element shape tensor taken as the axis). Such a model is refused.
 */
import { TypeInferenceError } from '../../../errors';
import { sameShape } from '../../../ir/graph/types';
import { BuiltinOptionsType, SqueezeOptions } from '../schema';
import { constantInts } from './constants';
import { Converter, formatError, inputType, OperatorSite, options, where } from './common';

/** Refuses an output whose declared shape is not `expected`, the shape the operator computes. */
function requireDeclaredShape(site: OperatorSite, expected: readonly number[], how: string): void {
  const declared = site.outputType.shape;
  if (sameShape(declared, expected)) return;
  throw new TypeInferenceError(`${site.tfliteName} output declares shape [${declared}] but ${how} gives [${expected}] (${where(site)})`, {
    file: site.source,
    op: site.tfliteName,
  });
}

export const squeeze: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const rank = input.shape.length;
  const dims = options(site, BuiltinOptionsType.SqueezeOptions, SqueezeOptions)?.squeezeDims ?? [];
  // No squeeze_dims: every axis of size 1 goes (TFLite's default).
  const squeezed = input.shape.map((d) => dims.length === 0 && d === 1);
  for (const dim of dims) {
    const axis = dim < 0 ? dim + rank : dim;
    if (axis < 0 || axis >= rank) formatError(site, `squeeze_dims ${dim} is out of range for a rank-${rank} input`);
    if (input.shape[axis] !== 1) formatError(site, `squeeze_dims ${dim} names axis ${axis} of size ${input.shape[axis]}; only axes of size 1 can be squeezed`);
    squeezed[axis] = true;
  }
  requireDeclaredShape(site, input.shape.filter((_, i) => !squeezed[i]), `squeezing [${input.shape}] (squeeze_dims [${dims}])`);
  return { op: 'reshape', attrs: {}, argPositions: [0] };
};

export const expandDims: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  // An axis computed at run time is left as before: the declared shape is all there is to go by.
  if (site.inputTypes[1] && site.constantInput(1) !== null) {
    const values = constantInts(site, 1, 'axis');
    if (values.length !== 1) formatError(site, `axis holds ${values.length} values, expected 1`);
    const rank = input.shape.length;
    const axis = values[0] < 0 ? values[0] + rank + 1 : values[0];
    if (axis < 0 || axis > rank) formatError(site, `axis ${values[0]} is out of range for a rank-${rank} input`);
    requireDeclaredShape(site, [...input.shape.slice(0, axis), 1, ...input.shape.slice(axis)], `inserting axis ${values[0]} into [${input.shape}]`);
  }
  return { op: 'reshape', attrs: {}, argPositions: [0] };
};

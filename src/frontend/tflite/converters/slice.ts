/** SLICE → strided_slice with stride 1; a size of -1 takes the rest of the axis. */
import { BuiltinOptionsType, SliceOptions } from '../schema';
import { Converter, formatError, inputType, options, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';
import { COPY_DTYPES, sliceCall } from './dataMovement';

export const slice: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  options(site, BuiltinOptionsType.SliceOptions, SliceOptions);
  requireDtype(site, input, [...COPY_DTYPES, 'bool'], 'input');
  const rank = input.shape.length;
  if (rank > 5) unsupportedParameter(site, `rank ${rank} input (TFLite Micro slices up to 5-d)`);
  const begin = constantInts(site, 1, 'begin');
  const size = constantInts(site, 2, 'size');
  if (begin.length !== rank || size.length !== rank) formatError(site, `begin/size of ${begin.length}/${size.length} values for a rank-${rank} input`);
  const sizes = size.map((s, d) => (s === -1 ? input.shape[d] - begin[d] : s));
  input.shape.forEach((d, i) => {
    if (begin[i] < 0 || sizes[i] < 0 || begin[i] + sizes[i] > d) formatError(site, `axis ${i}: begin ${begin[i]} size ${size[i]} leaves the extent ${d}`);
  });
  return sliceCall(begin, begin.map(() => 1), sizes);
};

/**
 * SPLIT, SPLIT_V and UNPACK → one strided_slice per output (the graph IR has one output a
 * call); each call is named after its output tensor and keeps the original operator in
 * `tflite_operator` / `tflite_index` / `tflite_output`.
 */
import { BuiltinOptionsType, SplitOptions, SplitVOptions, UnpackOptions } from '../schema';
import { Converter, ConvertedOperator, formatError, inputType, options, OperatorSite, positiveAxis, requireDtype } from './common';
import { constantInts } from './constants';
import { COPY_DTYPES, sliceCall } from './dataMovement';

/** Consecutive pieces of `lengths` along `axis` of the input at TFLite position `position`. */
function pieces(site: OperatorSite, position: number, axis: number, lengths: readonly number[]): ConvertedOperator {
  const input = inputType(site, position, 'input');
  requireDtype(site, input, COPY_DTYPES, 'input');
  let start = 0;
  const perOutput = lengths.map((len) => {
    const begin = input.shape.map((_, d) => (d === axis ? start : 0));
    const sizes = input.shape.map((n, d) => (d === axis ? len : n));
    start += len;
    return sliceCall(begin, begin.map(() => 1), sizes, position);
  });
  if (start !== input.shape[axis]) formatError(site, `pieces [${lengths}] do not add up to axis ${axis} of size ${input.shape[axis]}`);
  return { op: 'strided_slice', attrs: {}, argPositions: [position], perOutput };
}

export const split: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.SplitOptions, SplitOptions);
  const input = inputType(site, 1, 'input');
  const [rawAxis] = constantInts(site, 0, 'axis');
  const axis = positiveAxis(site, rawAxis, input.shape.length);
  const n = site.outputTypes.length;
  if (opts && opts.numSplits !== 0 && opts.numSplits !== n) formatError(site, `num_splits ${opts.numSplits} but ${n} outputs`);
  if (input.shape[axis] % n !== 0) formatError(site, `axis ${axis} of size ${input.shape[axis]} does not split in ${n}`);
  return pieces(site, 1, axis, new Array<number>(n).fill(input.shape[axis] / n));
};

export const splitV: Converter = (site) => {
  options(site, BuiltinOptionsType.SplitVOptions, SplitVOptions);
  const input = inputType(site, 0, 'input');
  const [rawAxis] = constantInts(site, 2, 'axis');
  const axis = positiveAxis(site, rawAxis, input.shape.length);
  const sizes = constantInts(site, 1, 'size_splits');
  if (sizes.length !== site.outputTypes.length) formatError(site, `${sizes.length} size_splits but ${site.outputTypes.length} outputs`);
  const unknown = sizes.filter((s) => s === -1).length;
  if (unknown > 1 || sizes.some((s) => s < -1)) formatError(site, `size_splits [${sizes}]`);
  const known = sizes.filter((s) => s !== -1).reduce((a, b) => a + b, 0);
  const resolved = sizes.map((s) => (s === -1 ? input.shape[axis] - known : s));
  // The inferred piece must not be negative, and the pieces must cover the axis (fuzzed: [5, -1]
  // on an axis of 3 was refused later as a strided_slice the model does not have).
  if (resolved.some((s) => s < 0) || resolved.reduce((a, b) => a + b, 0) !== input.shape[axis]) {
    formatError(site, `size_splits [${sizes}] do not split axis ${axis} of length ${input.shape[axis]}`);
  }
  return pieces(site, 0, axis, resolved);
};

export const unpack: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.UnpackOptions, UnpackOptions);
  const input = inputType(site, 0, 'input');
  const axis = positiveAxis(site, opts?.axis ?? 0, input.shape.length);
  const n = site.outputTypes.length;
  if (input.shape[axis] !== n || (opts && opts.num !== 0 && opts.num !== n)) {
    formatError(site, `unpacks axis ${axis} of size ${input.shape[axis]} into ${n} outputs (num ${opts?.num ?? 0})`);
  }
  return pieces(site, 0, axis, new Array<number>(n).fill(1));
};

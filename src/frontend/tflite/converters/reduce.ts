/**
 * MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL, REDUCE_ANY → mean / sum / reduce_max /
 * reduce_min / reduce_all / reduce_any. The axis input must be constant; it becomes `axes`
 * resolved as TFLite Micro's ResolveAxis does.
 */
import { ReducerOptions, BuiltinOptionsType } from '../schema';
import { Converter, inputType, options, requireRescaleQuantization, unsupportedParameter, requireDtype } from './common';
import { constantInts, resolveAxes } from './constants';

const SUPPORTED: Readonly<Record<string, readonly string[]>> = {
  mean: ['float32', 'int8', 'int16'],
  sum: ['float32', 'int8', 'int16'],
  reduce_max: ['float32', 'int8', 'int16'],
  reduce_min: ['float32', 'int8', 'int16'],
  // TFLite's PrepareAllOrAny takes bool only.
  reduce_all: ['bool'],
  reduce_any: ['bool'],
};

type ReduceOp = 'mean' | 'sum' | 'reduce_max' | 'reduce_min' | 'reduce_all' | 'reduce_any';

export const reduce =
  (op: ReduceOp): Converter =>
  (site) => {
    const input = inputType(site, 0, 'input');
    requireDtype(site, input, SUPPORTED[op], 'input');
    if (site.outputType.dtype !== input.dtype) {
      unsupportedParameter(site, `output dtype ${site.outputType.dtype} for a ${input.dtype} input`);
    }
    if ((op === 'reduce_max' || op === 'reduce_min') && input.dtype !== 'float32') {
      // TFLite Micro's integer REDUCE_MAX/MIN copy values: input and output quantization must agree.
      const a = input.quant;
      const b = site.outputType.quant;
      if (!a || !b || Math.fround(a.scale[0]) !== Math.fround(b.scale[0]) || a.zeroPoint[0] !== b.zeroPoint[0]) {
        unsupportedParameter(site, 'input and output quantization that differ');
      }
    }
    if (op === 'mean' || op === 'sum') requireRescaleQuantization(site, 1);
    const axes = resolveAxes(site, constantInts(site, 1, 'axis'), input.shape.length, 'axis');
    const opts = options(site, BuiltinOptionsType.ReducerOptions, ReducerOptions);
    return { op, attrs: { axes, keep_dims: opts?.keepDims ?? false }, argPositions: [0] };
  };

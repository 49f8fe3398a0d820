/**
 * Type rules of the reductions (mean, sum, reduce_max, reduce_min, reduce_all, reduce_any) and
 * arg_max/arg_min.
 * `axes`/`axis` are resolved at import (non-negative, distinct), so the rules only check them.
 * A reduction's output may be declared with another layout of the same elements (TFLite
 * Micro only reads the output's element count), so the declared shape wins when the
 * counts agree.
 */
import { Attrs, DType, TensorType, tensorElements } from './types';
import { typeRuleFail as fail } from './typeRuleErrors';

/** The reduced axes of `attrs[name]`, checked against the input rank. */
export function reductionAxes(op: string, attrs: Attrs, name: string, rank: number, args: readonly TensorType[]): number[] {
  const v = attrs[name];
  const list = typeof v === 'number' ? [v] : v;
  if (!Array.isArray(list) || list.some((a) => typeof a !== 'number' || !Number.isInteger(a) || a < 0 || a >= rank)) {
    fail(op, `attribute ${name} must list axes in [0, ${rank}), got ${JSON.stringify(v)}`, args);
  }
  const axes = list as number[];
  if (new Set(axes).size !== axes.length) fail(op, `attribute ${name} repeats an axis: ${JSON.stringify(v)}`, args);
  return axes;
}

function withDeclaredLayout(shape: number[], dtype: DType, declared?: TensorType): TensorType {
  const count = shape.reduce((a, b) => a * b, 1);
  if (declared && declared.dtype === dtype && tensorElements(declared) === count) return { shape: [...declared.shape], dtype };
  return { shape, dtype };
}

const REDUCE_DTYPES: readonly DType[] = ['float32', 'int8', 'int16', 'int32'];
const LOGICAL_DTYPES: readonly DType[] = ['bool'];

function reduce(op: string, dtypes: readonly DType[] = REDUCE_DTYPES) {
  return (attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType => {
    const [input] = args;
    if (!dtypes.includes(input.dtype)) fail(op, `input dtype ${input.dtype} is not supported`, args);
    const axes = reductionAxes(op, attrs, 'axes', input.shape.length, args);
    // A mean of no elements divides by zero (fuzzed: the generated C trapped, the interpreter gave 0).
    if (op === 'mean' && axes.some((a) => input.shape[a] === 0)) fail(op, `reduces an axis of length 0 of shape [${input.shape}]`, args);
    const keep = attrs.keep_dims === true;
    const shape: number[] = [];
    input.shape.forEach((d, i) => {
      if (!axes.includes(i)) shape.push(d);
      else if (keep) shape.push(1);
    });
    return withDeclaredLayout(shape, input.dtype, declared);
  };
}

function argReduce(op: string) {
  return (attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType => {
    const [input] = args;
    const [axis] = reductionAxes(op, attrs, 'axis', input.shape.length, args);
    const dtype: DType = declared?.dtype === 'int64' ? 'int64' : 'int32';
    return withDeclaredLayout(input.shape.filter((_, i) => i !== axis), dtype, declared);
  };
}

export const REDUCE_RULES = {
  mean: reduce('mean'),
  sum: reduce('sum'),
  reduce_max: reduce('reduce_max'),
  reduce_min: reduce('reduce_min'),
  reduce_all: reduce('reduce_all', LOGICAL_DTYPES),
  reduce_any: reduce('reduce_any', LOGICAL_DTYPES),
  arg_max: argReduce('arg_max'),
  arg_min: argReduce('arg_min'),
};

/**
 * Type rules of the comparisons (bool output), the logical operators (bool in and out) and
 * select (bool condition, the value operands' dtype out); operands broadcast numpy-style.
 */
import { broadcastAll } from './broadcast';
import { Attrs, TensorType } from './types';
import { typeRuleFail as fail } from './typeRuleErrors';

function broadcastOf(op: string, args: readonly TensorType[]): number[] {
  const shape = broadcastAll(args.map((a) => a.shape));
  if (!shape) fail(op, 'shapes do not broadcast', args);
  return shape;
}

function comparison(op: string) {
  return (_attrs: Attrs, args: readonly TensorType[]): TensorType => {
    const [lhs, rhs] = args;
    if (lhs.dtype !== rhs.dtype) fail(op, 'operand dtypes differ', args);
    return { shape: broadcastOf(op, args), dtype: 'bool' };
  };
}

function logical(op: string) {
  return (_attrs: Attrs, args: readonly TensorType[]): TensorType => {
    if (args.some((a) => a.dtype !== 'bool')) fail(op, 'operands must be bool', args);
    return { shape: broadcastOf(op, args), dtype: 'bool' };
  };
}

function select(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [condition, x, y] = args;
  if (condition.dtype !== 'bool') fail('select', `condition must be bool, got ${condition.dtype}`, args);
  if (x.dtype !== y.dtype) fail('select', 'x and y dtypes differ', args);
  return { shape: broadcastOf('select', args), dtype: x.dtype };
}

export const LOGIC_RULES = {
  equal: comparison('equal'),
  not_equal: comparison('not_equal'),
  less: comparison('less'),
  less_equal: comparison('less_equal'),
  greater: comparison('greater'),
  greater_equal: comparison('greater_equal'),
  logical_and: logical('logical_and'),
  logical_or: logical('logical_or'),
  logical_not: logical('logical_not'),
  select,
};

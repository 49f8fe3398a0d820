/**
 * cast as the interpreter's `castElement`: float to int clamps to [-2^31, 2147483520] and
 * truncates through int32 (so TIR evaluator and C agree where C's cast is undefined), then
 * wraps to narrower types; bool is x != 0.
 */
import { FLOAT_INT32_MAX } from '../../arith/elementwise';
import { cast, floatImm } from '../../ir/tir/builder';
import { Expr, ScalarDType } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { elementwiseNest } from './elementwise';
import { clamp } from './tirHelpers';

const CASTABLE = ['float32', 'int8', 'uint8', 'int16', 'int32', 'uint32', 'bool'];

export const castStrategy: OperatorStrategy = (input) => {
  const from = input.argTypes[0].dtype;
  const to = input.call.type.dtype;
  if (!CASTABLE.includes(from) || !CASTABLE.includes(to)) loweringFail(input.call, `cast: unsupported cast ${from} -> ${to}`);
  const convert = (x: Expr): Expr => {
    if (to === 'bool' || to === 'float32' || from !== 'float32') return cast(to as ScalarDType, x);
    const truncated = cast('int32', clamp(x, floatImm(-2147483648), floatImm(FLOAT_INT32_MAX)));
    return to === 'int32' ? truncated : cast(to as ScalarDType, truncated);
  };
  return elementwiseNest(input, ([x]) => convert(x));
};

/**
 * SELECT_V2: one nest over the output, condition ? x : y with all three read through
 * broadcasting. Integer values are chosen on the bits, y ^ ((x ^ y) & -condition): C's ?: on
 * loaded values stays a branch on the data, which mispredicts on every other element of a
 * random mask (TFLite Micro's kernel runs at that speed); float32 Selects are bit-chosen by
 * the C emitter already.
 */
import { SELECT_DTYPES } from '../../arith/comparison';
import { call, cast, mul, select } from '../../ir/tir/builder';
import { Expr, ScalarDType } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { elementwiseNest } from './elementwise';
import { i32 } from './tirHelpers';

export const selectStrategy: OperatorStrategy = (input) => {
  const [condition, x, y] = input.argTypes;
  const out = input.call.type.dtype;
  if (condition.dtype !== 'bool' || !SELECT_DTYPES.includes(x.dtype) || y.dtype !== x.dtype || out !== x.dtype) {
    loweringFail(input.call, `select: unsupported operands ${condition.dtype}, ${x.dtype}, ${y.dtype} -> ${out}`);
  }
  if (out === 'float32') return elementwiseNest(input, ([c, a, b]) => select(c, a, b));
  return elementwiseNest(input, ([c, a, b]) => bitSelect(out as ScalarDType, c, a, b));
};

function bitSelect(dtype: ScalarDType, c: Expr, a: Expr, b: Expr): Expr {
  const xor = (p: Expr, q: Expr): Expr => call('tir.bitwise_xor', 'int32', [p, q]);
  const mask = mul(i32(c), -1);
  return cast(dtype, xor(i32(b), call('tir.bitwise_and', 'int32', [xor(i32(a), i32(b)), mask])));
}

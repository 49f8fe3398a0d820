/** Broadcasting mul, exactly as the interpreter's: int8/int16 (a - z1) * (b - z2) requantized by s1*s2/so. */
import { mulMultiplier } from '../../arith/elementwise';
import { add, intImm, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { elementwiseNest, narrow, requireDtypes, unquantizedBinaryNest } from './elementwise';
import { quantizedActivationRange, quantOf } from './quantParams';
import { i32, qMultiplyShift, wrapI32 } from './tirHelpers';

export const mulStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'mul');
  // int32 wraps as TFLite's int32 mul does in practice (a C signed overflow is undefined).
  const unquantized = unquantizedBinaryNest(input, dtype, dtype === 'int32' ? wrapI32(mul) : mul);
  if (unquantized !== undefined) return unquantized;
  const activation = activationAttr(call);
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  const m = mulMultiplier(q1.scale, q2.scale, qo.scale);
  const [lo, hi] = quantizedActivationRange(call, activation, call.type);
  return elementwiseNest(input, ([a, b]) => {
    const product = mul(add(i32(a), -q1.zeroPoint), add(i32(b), -q2.zeroPoint));
    return narrow(dtype, add(qMultiplyShift(product, intImm(m.multiplier), intImm(m.shift)), qo.zeroPoint), lo, hi);
  });
};

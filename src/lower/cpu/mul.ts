/** Broadcasting mul, exactly as the interpreter's: int8/int16 (a - z1) * (b - z2) requantized by s1*s2/so. */
import { mulMultiplier } from '../../arith/elementwise';
import { add, intImm, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { floatOutputStage } from './convCommon';
import { elementwiseNest, int32ActivationStage, narrow, requireDtypes } from './elementwise';
import { quantizedActivationRange, quantOf } from './quantParams';
import { i32, qMultiplyShift } from './tirHelpers';

export const mulStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'mul');
  const activation = activationAttr(call);
  if (dtype === 'float32') {
    const finish = floatOutputStage(activation);
    return elementwiseNest(input, ([a, b]) => finish(mul(a, b)));
  }
  if (dtype === 'int32') {
    const finish = int32ActivationStage(activation);
    return elementwiseNest(input, ([a, b]) => finish(mul(a, b)));
  }
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

/** Broadcasting squared difference, as the interpreter's (int8: left shift 7, rescale, square, requantize). */
import { squaredDifferenceParams } from '../../arith/elementwise';
import { add, intImm, mul, sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { elementwiseNest, narrow, requireDtypes } from './elementwise';
import { quantOf } from './quantParams';
import { i32, qMultiplyShift } from './tirHelpers';

export const squaredDifferenceStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8'], 'squared_difference');
  if (dtype !== 'int8') return elementwiseNest(input, ([a, b]) => mul(sub(a, b), sub(a, b)));
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  const p = squaredDifferenceParams(q1.scale, q2.scale, qo.scale);
  const scaled = (x: ReturnType<typeof i32>, zp: number, m: { multiplier: number; shift: number }) =>
    qMultiplyShift(mul(add(i32(x), -zp), 1 << p.leftShift), intImm(m.multiplier), intImm(m.shift));
  return elementwiseNest(input, ([a, b]) => {
    const d = sub(scaled(a, q1.zeroPoint, p.input1), scaled(b, q2.zeroPoint, p.input2));
    const raw = add(qMultiplyShift(mul(d, d), intImm(p.output.multiplier), intImm(p.output.shift)), qo.zeroPoint);
    return narrow('int8', raw, -128, 127);
  });
};

/** Broadcasting squared difference, as the interpreter's (int8/int16: left shift 7/0, rescale, square, requantize). */
import { squaredDifferenceParams } from '../../arith/elementwise';
import { add, intImm, mul, sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { elementwiseNest, narrow, requireDtypes } from './elementwise';
import { quantOf } from './quantParams';
import { i32, qMultiplyShift, wrapI32 } from './tirHelpers';

export const squaredDifferenceStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'squared_difference');
  if (dtype === 'float32') return elementwiseNest(input, ([a, b]) => mul(sub(a, b), sub(a, b)));
  // int32 (a - b)^2 wraps as the interpreter's (TFLite's int32 arithmetic in practice); a C
  // signed overflow would be undefined.
  if (dtype === 'int32') return elementwiseNest(input, ([a, b]) => wrapI32(mul)(wrapI32(sub)(a, b), wrapI32(sub)(a, b)));
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  if (dtype === 'int16' && (q1.zeroPoint !== 0 || q2.zeroPoint !== 0 || qo.zeroPoint !== 0)) {
    loweringFail(call, `squared_difference: int16 needs zero points 0 (got ${q1.zeroPoint}, ${q2.zeroPoint}, ${qo.zeroPoint})`);
  }
  const p = squaredDifferenceParams(q1.scale, q2.scale, qo.scale, dtype === 'int16' ? 'int16' : 'int8');
  const scaled = (x: ReturnType<typeof i32>, zp: number, m: { multiplier: number; shift: number }) =>
    qMultiplyShift(mul(add(i32(x), -zp), 1 << p.leftShift), intImm(m.multiplier), intImm(m.shift));
  return elementwiseNest(input, ([a, b]) => {
    const d = sub(scaled(a, q1.zeroPoint, p.input1), scaled(b, q2.zeroPoint, p.input2));
    const raw = add(qMultiplyShift(mul(d, d), intImm(p.output.multiplier), intImm(p.output.shift)), qo.zeroPoint);
    return dtype === 'int16' ? narrow('int16', raw, -32768, 32767) : narrow('int8', raw, -128, 127);
  });
};

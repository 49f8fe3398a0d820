/**
 * Broadcasting div, as the interpreter's: float32 a / b clamped to the fused activation;
 * int8 TFLite's DivElementwise with the divisor's reciprocal and shift (|v2| <= 255) and
 * the dividend's headroom (|v1| <= 255) read from operator-internal int32 tables.
 */
import { countLeadingSignBits, divMultiplier, divReciprocal } from '../../arith/elementwise';
import { add, binary, bufferLoad, intImm, lt, max, select, sub } from '../../ir/tir/builder';
import { sanitizeName } from '../names';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { elementwiseNest, narrow, requireDtypes, unquantizedBinaryNest } from './elementwise';
import { quantizedActivationRange, quantOf } from './quantParams';
import { i32, qMultiplyShift, withConstTable } from './tirHelpers';

export const divStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int8', 'int32'], 'div');
  const activation = activationAttr(call);
  // float32 and int32 (C's truncating division; the interpreter refuses a zero divisor).
  const unquantized = unquantizedBinaryNest(input, dtype, (a, b) => binary('Div', a, b));
  if (unquantized !== undefined) return unquantized;
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  const m = divMultiplier(q1.scale, q2.scale, qo.scale);
  const [lo, hi] = quantizedActivationRange(call, activation, call.type);
  // Index 0 (a zero divisor, an error in the interpreter) reads the reciprocal of 1.
  const reciprocals = Array.from({ length: 256 }, (_, v) => divReciprocal(Math.max(v, 1)));
  const headroom = Array.from({ length: 511 }, (_, k) => countLeadingSignBits(k - 255));
  const prefix = sanitizeName(call.name);
  return withConstTable(`${prefix}_reciprocal`, 'int32', reciprocals.map((r) => r.inverse), (inverse) =>
    withConstTable(`${prefix}_reciprocal_shift`, 'int32', reciprocals.map((r) => r.shift), (shifts) =>
      withConstTable(`${prefix}_headroom`, 'int32', headroom, (headrooms) =>
        elementwiseNest(input, ([a, b]) => {
          const v1 = add(i32(a), -q1.zeroPoint);
          const v2 = add(i32(b), -q2.zeroPoint);
          const negative = lt(v2, 0);
          const dividend = select(negative, sub(0, v1), v1);
          const divisor = select(negative, sub(0, v2), v2);
          const hr = bufferLoad(headrooms, [add(dividend, 255)]);
          const unscaled = qMultiplyShift(dividend, bufferLoad(inverse, [divisor]), hr);
          // Past a right shift of 31 the rounded quotient is 0 (divInt8); the shift stays capped
          // inside so the discarded branch is defined C as well.
          const total = sub(sub(m.shift, bufferLoad(shifts, [divisor])), hr);
          const quotient = select(lt(total, -31), 0, qMultiplyShift(unscaled, intImm(m.multiplier), max(total, -31)));
          return narrow('int8', add(quotient, qo.zeroPoint), lo, hi);
        }),
      ),
    ),
  );
};

/** prelu with alpha broadcast to the input, as the interpreter's (int8/int16 with int8 alpha: two requantizations). */
import { preluParams } from '../../arith/elementwise';
import { add, floatImm, ge, intImm, mul, select } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { elementwiseNest, narrow, requireDtypes } from './elementwise';
import { quantOf } from './quantParams';
import { i32, qMultiplyShift } from './tirHelpers';

export const preluStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const dtype = requireDtypes(input, ['float32', 'int8', 'int16'], 'prelu');
  if (dtype === 'float32') return elementwiseNest(input, ([x, alpha]) => select(ge(x, floatImm(0)), x, mul(x, alpha)));
  const qi = quantOf(call, input.argTypes[0], 'input');
  const qa = quantOf(call, input.argTypes[1], 'alpha');
  const qo = quantOf(call, call.type, 'output');
  const p = preluParams(qi.scale, qa.scale, qo.scale);
  return elementwiseNest(input, ([x, alpha]) => {
    const v = add(i32(x), -qi.zeroPoint);
    const positive = qMultiplyShift(v, intImm(p.identity.multiplier), intImm(p.identity.shift));
    const negative = qMultiplyShift(mul(v, add(i32(alpha), -qa.zeroPoint)), intImm(p.alpha.multiplier), intImm(p.alpha.shift));
    const raw = add(select(ge(v, 0), positive, negative), qo.zeroPoint);
    return dtype === 'int16' ? narrow('int16', raw, -32768, 32767) : narrow('int8', raw, -128, 127);
  });
};

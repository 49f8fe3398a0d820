/**
 * sum as TFLite Micro's SUM (see src/interpreter/kernels/sum.ts): float sum; int8/int16 sum
 * in int32, QuantizedMeanOrSum's float requantization, narrowed without a clamp.
 */
import { sumRequant } from '../../arith/reduce-params';
import { add, cast, floatImm, intImm, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { roundHalfAwayFromZeroToInt } from './quantize';
import { quantOf } from './quantParams';
import { reducedAxes, reductionCount, reductionNest } from './reduceCommon';
import { i32 } from './tirHelpers';

export const sumStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const axes = reducedAxes(input);
  const dtype = call.type.dtype;
  if (dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'sum');
    return reductionNest(input, axes, { accDType: 'float32', init: floatImm(0), step: (acc, v) => add(v, acc), finish: (acc) => acc });
  }
  requireDType(call, [...input.argTypes, call.type], [dtype === 'int16' ? 'int16' : 'int8'], 'sum');
  const qi = quantOf(call, input.argTypes[0], 'input');
  const qo = quantOf(call, call.type, 'output');
  const { scale, bias } = sumRequant(qi.scale, qi.zeroPoint, qo.scale, reductionCount(input, axes));
  return reductionNest(input, axes, {
    accDType: 'int32',
    init: intImm(0),
    step: (acc, v) => add(acc, i32(v)),
    finish: (acc) => cast(dtype, add(roundHalfAwayFromZeroToInt(add(mul(cast('float32', acc), floatImm(scale)), floatImm(bias))), qo.zeroPoint)),
  });
};

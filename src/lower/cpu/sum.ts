/**
 * sum as TFLite Micro's SUM (see src/interpreter/kernels/sum.ts): float sum; int8/int16 sum
 * in int32, QuantizedMeanOrSum's float requantization, narrowed without a clamp; over no
 * elements, raw 0.
 */
import { sumRequant } from '../../arith/reduce-params';
import { add, cast, floatImm, intImm, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { roundHalfAwayFromZeroToInt } from './quantize';
import { quantOf } from './quantParams';
import { int32SumNest, reducedAxes, reductionCount, reductionNest, requireQuantizedReduce } from './reduceCommon';

export const sumStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const axes = reducedAxes(input);
  if (call.type.dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'sum');
    return reductionNest(input, axes, { accDType: 'float32', init: floatImm(0), step: (acc, v) => add(v, acc), finish: (acc) => acc });
  }
  const dtype = requireQuantizedReduce(input, 'sum');
  const qi = quantOf(call, input.argTypes[0], 'input');
  const qo = quantOf(call, call.type, 'output');
  const count = reductionCount(input, axes);
  // Nothing to sum: QuantizedMeanOrSum leaves the reset output, raw 0 (not the zero point).
  if (count === 0) return int32SumNest(input, axes, () => intImm(0, dtype));
  const { scale, bias } = sumRequant(dtype, qi.scale, qi.zeroPoint, qo.scale, count);
  return int32SumNest(input, axes, (acc) =>
    cast(dtype, add(roundHalfAwayFromZeroToInt(add(mul(cast('float32', acc), floatImm(scale)), floatImm(bias))), qo.zeroPoint)),
  );
};

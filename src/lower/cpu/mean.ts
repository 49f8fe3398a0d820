/**
 * mean as TFLite Micro's MEAN (see src/interpreter/kernels/mean.ts): float sum / float(n);
 * int8/int16 keeping the quantization: int32 sum / n truncated; otherwise the float
 * requantization of QuantizedMeanOrSum, rounded half away from zero and clamped.
 */
import { meanKeepsQuantization, meanRequant } from '../../arith/reduce-params';
import { add, binary, cast, floatImm, intImm, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { roundHalfAwayFromZeroToInt } from './quantize';
import { dtypeRange, quantOf } from './quantParams';
import { int32SumNest, reducedAxes, reductionNest, requireQuantizedReduce } from './reduceCommon';
import { clamp } from './tirHelpers';

export const meanStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const axes = reducedAxes(input);
  if (call.type.dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'mean');
    return reductionNest(input, axes, {
      accDType: 'float32',
      init: floatImm(0),
      step: (acc, v) => add(acc, v),
      finish: (acc, count) => binary('Div', acc, floatImm(count)),
    });
  }
  const dtype = requireQuantizedReduce(input, 'mean');
  const qi = quantOf(call, input.argTypes[0], 'input');
  const qo = quantOf(call, call.type, 'output');
  if (meanKeepsQuantization(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint)) {
    return int32SumNest(input, axes, (acc, count) => cast(dtype, binary('Div', acc, intImm(count))));
  }
  const { scale, bias } = meanRequant(qi.scale, qi.zeroPoint, qo.scale);
  const [lo, hi] = dtypeRange(call, dtype);
  return int32SumNest(input, axes, (acc, count) => {
    const v = add(mul(binary('Div', cast('float32', acc), floatImm(count)), floatImm(scale)), floatImm(bias));
    // Clamping before rounding equals TFLite's clamp after it: rounding is monotone and fixes integers.
    const bounded = clamp(v, floatImm(lo - qo.zeroPoint), floatImm(hi - qo.zeroPoint));
    return cast(dtype, add(roundHalfAwayFromZeroToInt(bounded), qo.zeroPoint));
  });
};

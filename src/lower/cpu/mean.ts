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
import { reducedAxes, reductionNest } from './reduceCommon';
import { clamp, i32 } from './tirHelpers';

export const meanStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const axes = reducedAxes(input);
  const dtype = call.type.dtype;
  if (dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'mean');
    return reductionNest(input, axes, {
      accDType: 'float32',
      init: floatImm(0),
      step: (acc, v) => add(acc, v),
      finish: (acc, count) => binary('Div', acc, floatImm(count)),
    });
  }
  requireDType(call, [...input.argTypes, call.type], [dtype === 'int16' ? 'int16' : 'int8'], 'mean');
  const qi = quantOf(call, input.argTypes[0], 'input');
  const qo = quantOf(call, call.type, 'output');
  const sumNest = (finish: (acc: ReturnType<typeof i32>, count: number) => ReturnType<typeof cast>) =>
    reductionNest(input, axes, { accDType: 'int32', init: intImm(0), step: (acc, v) => add(acc, i32(v)), finish });
  if (meanKeepsQuantization(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint)) {
    return sumNest((acc, count) => cast(dtype, binary('Div', acc, intImm(count))));
  }
  const { scale, bias } = meanRequant(qi.scale, qi.zeroPoint, qo.scale);
  const [lo, hi] = dtypeRange(call, dtype);
  return sumNest((acc, count) => {
    const v = add(mul(binary('Div', cast('float32', acc), floatImm(count)), floatImm(scale)), floatImm(bias));
    // Clamping before rounding equals TFLite's clamp after it: rounding is monotone and fixes integers.
    const bounded = clamp(v, floatImm(lo - qo.zeroPoint), floatImm(hi - qo.zeroPoint));
    return cast(dtype, add(roundHalfAwayFromZeroToInt(bounded), qo.zeroPoint));
  });
};

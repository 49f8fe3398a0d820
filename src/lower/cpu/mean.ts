/**
 * mean as TFLite Micro's MEAN (see src/interpreter/kernels/mean.ts): float sum / float(n);
 * int8/int16 keeping the quantization: int32 sum / n truncated; otherwise QuantizedMeanOrSum's
 * integer requantization with 1/n folded into the multiplier, clamped.
 */
import { meanKeepsQuantization, reduceRequant } from '../../arith/reduce-params';
import { add, binary, cast, floatImm, intImm } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { dtypeRange, quantOf } from './quantParams';
import { int32SumNest, reducedAxes, reductionNest, requantizedSum, requireQuantizedReduce } from './reduceCommon';

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
  const range = dtypeRange(call, dtype);
  return int32SumNest(input, axes, (acc, count) => requantizedSum(acc, count, qi, qo, reduceRequant('mean', qi.scale, qo.scale, count), range, dtype));
};

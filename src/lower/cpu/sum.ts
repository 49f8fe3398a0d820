/**
 * sum as TFLite Micro's SUM (see src/interpreter/kernels/sum.ts): float sum; int8/int16 sum
 * in int32, QuantizedMeanOrSum's integer requantization, clamped; over no elements, raw 0.
 */
import { reduceRequant } from '../../arith/reduce-params';
import { add, floatImm, intImm } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { dtypeRange, quantOf } from './quantParams';
import { int32SumNest, reducedAxes, reductionCount, reductionNest, requantizedSum, requireQuantizedReduce } from './reduceCommon';

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
  const m = reduceRequant('sum', qi.scale, qo.scale, count);
  const range = dtypeRange(call, dtype);
  return int32SumNest(input, axes, (acc) => requantizedSum(acc, count, qi, qo, m, range, dtype));
};

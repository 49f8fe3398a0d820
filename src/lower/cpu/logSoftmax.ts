/**
 * log_softmax (int8) through the `uma_ref_log_softmax_int8` runtime kernel with LOG_SOFTMAX
 * Prepare's compile-time parameters (its log and exp are gemmlowp fixed-point pipelines).
 */
import { logSoftmaxQuantParams } from '../../arith/logSoftmax';
import { callExtern, evaluate, intImm } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { LOG_SOFTMAX_INT8 } from './externKernels';
import { quantOf } from './quantParams';
import { elementCount } from './tirHelpers';

export const logSoftmaxStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  requireDType(call, [input.argTypes[0], call.type], ['int8'], 'log_softmax');
  const shape = input.argTypes[0].shape;
  const depth = shape.length === 0 ? 1 : shape[shape.length - 1];
  const outer = depth === 0 ? 0 : elementCount(input.out) / depth;
  const p = logSoftmaxQuantParams(quantOf(call, input.argTypes[0], 'input').scale);
  return evaluate(
    callExtern(LOG_SOFTMAX_INT8, [
      input.args[0].data,
      input.out.data,
      outer,
      depth,
      intImm(p.inputMultiplier),
      intImm(p.inputLeftShift),
      intImm(p.reverseScalingDivisor),
      intImm(p.reverseScalingLeftShift),
      intImm(p.diffMin),
    ]),
  );
};

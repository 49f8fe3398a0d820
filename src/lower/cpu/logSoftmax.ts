/**
 * log_softmax over the last axis: float32 in loops as TFLite's reference_ops::LogSoftmax
 * (`tir.exp`, `tir.log`); int8 through the `uma_ref_log_softmax_int8` runtime kernel with
 * LOG_SOFTMAX Prepare's compile-time parameters (its log and exp are gemmlowp pipelines).
 */
import { logSoftmaxQuantParams } from '../../arith/logSoftmax';
import { add, bufferLoad, bufferStore, call as tirCall, callExtern, evaluate, floatImm, intImm, lt, select, seq, sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { LOG_SOFTMAX_INT8 } from './externKernels';
import { FLOAT32_MAX, quantOf } from './quantParams';
import { accLoad, accStore, loopNest, reshapedView, withAccumulator } from './tirHelpers';
import { lastAxisRows } from '../../ir/graph/types';

export const logSoftmaxStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const float = call.type.dtype === 'float32';
  requireDType(call, [input.argTypes[0], call.type], [float ? 'float32' : 'int8'], 'log_softmax');
  const { rows: outer, depth } = lastAxisRows(input.argTypes[0]);
  if (float) {
    const x = reshapedView(input.args[0], [outer, depth]);
    const y = reshapedView(input.out, [outer, depth]);
    return loopNest(['o'], [outer], ([o]) =>
      withAccumulator('row_max', 'float32', (rowMax) =>
        withAccumulator('sum', 'float32', (sum) => {
          const v = (c: Parameters<typeof bufferLoad>[1][number]) => bufferLoad(x, [o, c]);
          return seq([
            accStore(rowMax, floatImm(-FLOAT32_MAX)),
            loopNest(['c'], [depth], ([c]) => accStore(rowMax, select(lt(accLoad(rowMax), v(c)), v(c), accLoad(rowMax)))),
            accStore(sum, floatImm(0)),
            loopNest(['c'], [depth], ([c]) => accStore(sum, add(accLoad(sum), tirCall('tir.exp', 'float32', [sub(v(c), accLoad(rowMax))])))),
            accStore(sum, tirCall('tir.log', 'float32', [accLoad(sum)])),
            loopNest(['c'], [depth], ([c]) => bufferStore(y, sub(sub(v(c), accLoad(rowMax)), accLoad(sum)), [o, c])),
          ]);
        }),
      ),
    );
  }
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

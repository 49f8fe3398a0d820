/**
 * l2_normalization over the last axis as TFLite Micro's reference kernels: float32 in loops
 * (sum of squares, sqrtf, max with 1e-6, divide); int8 through the `uma_ref_l2norm_int8`
 * runtime kernel (its inverse square root is a gemmlowp Newton-Raphson pipeline).
 */
import { add, binary, bufferLoad, bufferStore, call as tirCall, callExtern, evaluate, floatImm, intImm, max, mul, seq } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { L2NORM_EPSILON } from '../../arith/l2norm';
import { requireDType } from './convCommon';
import { L2NORM_INT8 } from './externKernels';
import { quantOf } from './quantParams';
import { accLoad, accStore, loopNest, reshapedView, withAccumulator } from './tirHelpers';
import { lastAxisRows } from '../../ir/graph/types';

export const l2NormalizationStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const { rows: outer, depth } = lastAxisRows(input.argTypes[0]);
  const dtype = call.type.dtype;
  requireDType(call, [input.argTypes[0], call.type], [dtype === 'float32' ? 'float32' : 'int8'], 'l2_normalization');
  if (dtype !== 'float32') {
    const zp = quantOf(call, input.argTypes[0], 'input').zeroPoint;
    return evaluate(callExtern(L2NORM_INT8, [input.args[0].data, input.out.data, outer, depth, intImm(zp)]));
  }
  const x = reshapedView(input.args[0], [outer, depth]);
  const y = reshapedView(input.out, [outer, depth]);
  return loopNest(['o'], [outer], ([o]) =>
    withAccumulator('sum', 'float32', (sum) =>
      seq([
        accStore(sum, floatImm(0)),
        loopNest(['c'], [depth], ([c]) => accStore(sum, add(accLoad(sum), mul(bufferLoad(x, [o, c]), bufferLoad(x, [o, c]))))),
        accStore(sum, max(tirCall('tir.sqrt', 'float32', [accLoad(sum)]), floatImm(L2NORM_EPSILON))),
        loopNest(['c'], [depth], ([c]) => bufferStore(y, binary('Div', bufferLoad(x, [o, c]), accLoad(sum)), [o, c])),
      ]),
    ),
  );
};

/**
 * cumsum over [before, axis, after]: one running accumulator per (before, after) pair
 * walks the axis (backwards when `reverse`); int8 in TFLite Micro's fixed point
 * (src/arith/cumsum.ts), the requantizations as `tir.q_multiply_shift`.
 */
import { ACCUMULATE_LEFT_SHIFT, accumulateInt8Params, accumulateTerm } from '../../arith/addFixedPoint';
import { cumsumExtents } from '../../arith/cumsum';
import { add, bufferLoad, bufferStore, cast, floatImm, mul, seq, sub } from '../../ir/tir/builder';
import { Expr, Stmt } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail, numberAttr } from './attrs';
import { accLoad, accStore, clamp, i32, loopNest, qMultiplyShift, reshapedView, staticShape, withAccumulator, wrapI32 } from './tirHelpers';

export const cumsumStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const shape = staticShape(input.args[0]);
  const axis = numberAttr(call, 'axis');
  if (!Number.isInteger(axis) || axis < 0 || axis >= shape.length) loweringFail(call, `cumsum: axis ${axis} is out of range`);
  const exclusive = call.attrs.exclusive === true;
  const reverse = call.attrs.reverse === true;
  const [before, depth, after] = cumsumExtents(shape, axis);
  const x = reshapedView(input.args[0], [before, depth, after]);
  const y = reshapedView(out, [before, depth, after]);

  let init: Expr;
  let term: (v: Expr) => Expr;
  let result: (acc: Expr) => Expr;
  // The int8 accumulator wraps (a long axis of extreme values overflows int32), as TFLite's does.
  let accumulate: (acc: Expr, v: Expr) => Expr = wrapI32(add);
  if (out.dtype === 'float32') {
    accumulate = add;
    init = floatImm(0);
    term = (v) => v;
    result = (acc) => acc;
  } else {
    const qi = input.argTypes[0].quant;
    const qo = call.type.quant;
    const p = qi && qo ? accumulateInt8Params(qi.scale[0], qi.zeroPoint[0] ?? 0, qo.scale[0], qo.zeroPoint[0] ?? 0) : null;
    if (out.dtype !== 'int8' || !p) loweringFail(call, `cumsum: unsupported ${out.dtype} quantization`);
    const shifted = 2 ** ACCUMULATE_LEFT_SHIFT;
    init = i32(accumulateTerm(p, 0));
    term = (v) => qMultiplyShift(mul(add(i32(v), p.inputOffset), shifted), p.inputMultiplier, p.inputShift);
    result = (acc) => cast('int8', clamp(add(qMultiplyShift(acc, p.outputMultiplier, p.outputShift), p.outputOffset), -128, 127));
  }
  return withAccumulator('acc', out.dtype === 'float32' ? 'float32' : 'int32', (acc) =>
    loopNest(['b', 'a'], [before, after], ([b, a]) => {
      const walk = loopNest(['k'], [depth], ([k]) => {
        const pos = [b, reverse ? sub(depth - 1, k) : k, a];
        const sum = accStore(acc, accumulate(accLoad(acc), term(bufferLoad(x, pos))));
        const write = bufferStore(y, result(accLoad(acc)), pos);
        const steps: Stmt[] = exclusive ? [write, sum] : [sum, write];
        return seq(steps);
      });
      return seq([accStore(acc, init), walk]);
    }),
  );
};

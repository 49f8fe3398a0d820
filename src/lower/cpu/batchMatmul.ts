/**
 * batch_matmul as TFLite Micro's reference BatchMatMul (see the interpreter kernel): per
 * output element a k-ascending sum in a local accumulator; int8 (int32 sum) and int16
 * (int64 sum, 64-bit requantize) use the GetQuantizedConvolutionMultipler multiplier and
 * clamp to the output range.
 */
import { denseOutputMultiplier } from '../../arith/quant-params';
import { add, bufferLoad, bufferStore, cast, floatImm, forLoop, intImm, makeVar, mul, seq } from '../../ir/tir/builder';
import { Buffer, Expr, Var } from '../../ir/tir/nodes';
import { batchMatmulShape } from '../../ir/graph/computeTypes';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { requireDType } from './convCommon';
import { quantOf } from './quantParams';
import { accLoad, accStore, clamp, i32, loopNest, qMultiplyShift, staticShape, withAccumulator, wrappedSum, WRAPPING_SUM_DTYPE, wrappingTerm } from './tirHelpers';

/** Batch indices of an operand for output batch vars (right-aligned, size-1 axes read 0). */
function batchIndex(buffer: Buffer, batchVars: readonly Var[]): Expr[] {
  const shape = staticShape(buffer).slice(0, -2);
  const lead = batchVars.length - shape.length;
  return shape.map((d, i) => (d === 1 ? intImm(0) : batchVars[lead + i]));
}

export const batchMatmulStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const [lhs, rhs] = args;
  const adjX = call.attrs.adj_x === true;
  const adjY = call.attrs.adj_y === true;
  const r = batchMatmulShape(staticShape(lhs), staticShape(rhs), adjX, adjY);
  if ('problem' in r) loweringFail(call, `batch_matmul: ${r.problem}`);
  const dtype = call.type.dtype;
  requireDType(call, [...input.argTypes, call.type], [dtype === 'float32' ? 'float32' : dtype === 'int16' ? 'int16' : 'int8'], 'batch_matmul');
  const wide = dtype === 'int16';
  // int8's int32 sum wraps modulo 2^32 (a very deep product passes it), as TFLite Micro's C and
  // the interpreter do (tirHelpers.ts, wrappingTerm/wrappedSum).
  const accDType = wide ? 'int64' : WRAPPING_SUM_DTYPE;
  const outShape = staticShape(out);
  const batchRank = outShape.length - 2;
  const ls = staticShape(lhs);
  const depth = adjX ? ls[ls.length - 2] : ls[ls.length - 1];
  const names = [...outShape.slice(0, -2).map((_, d) => `b${d}`), 'i', 'j'];

  const quantized = dtype !== 'float32';
  const ql = quantized ? quantOf(call, input.argTypes[0], 'lhs') : undefined;
  const qr = quantized ? quantOf(call, input.argTypes[1], 'rhs') : undefined;
  const qo = quantized ? quantOf(call, call.type, 'output') : undefined;

  return loopNest(names, outShape, (vars) => {
    const batchVars = vars.slice(0, batchRank);
    const [i, j] = vars.slice(batchRank);
    const k = makeVar('k', 'int32');
    const a = bufferLoad(lhs, [...batchIndex(lhs, batchVars), ...(adjX ? [k, i] : [i, k])]);
    const b = bufferLoad(rhs, [...batchIndex(rhs, batchVars), ...(adjY ? [j, k] : [k, j])]);
    return withAccumulator('acc', quantized ? accDType : 'float32', (acc) => {
      if (!quantized) {
        return seq([accStore(acc, floatImm(0)), forLoop(k, 0, depth, accStore(acc, add(accLoad(acc), mul(a, b)))), bufferStore(out, accLoad(acc), vars)]);
      }
      const m = denseOutputMultiplier(ql!.scale, qr!.scale, qo!.scale);
      const narrow = mul(add(i32(b), -qr!.zeroPoint), add(i32(a), -ql!.zeroPoint));
      const term = wide ? cast('int64', narrow) : wrappingTerm(narrow);
      const sum = wide ? accLoad(acc) : wrappedSum(accLoad(acc));
      const result = add(qMultiplyShift(sum, intImm(m.multiplier), intImm(m.shift)), qo!.zeroPoint);
      const [lo, hi] = wide ? [-32768, 32767] : [-128, 127];
      return seq([
        accStore(acc, intImm(0, accDType)),
        forLoop(k, 0, depth, accStore(acc, add(accLoad(acc), term))),
        bufferStore(out, cast(dtype, clamp(result, lo, hi)), vars),
      ]);
    });
  });
};

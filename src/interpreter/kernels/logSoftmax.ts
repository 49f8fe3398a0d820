/**
 * LOG_SOFTMAX over the last axis as TFLite Micro: float32 as reference_ops::LogSoftmax (row
 * max, float sum of exp(x - max), x - max - log(sum); exp and log rounded to float as the
 * `tir.exp` / `tir.log` intrinsics are), int8 as src/arith/logSoftmax.ts.
 */
import { logSoftmaxInt8Rows, logSoftmaxQuantParams } from '../../arith/logSoftmax';
import { lastAxisRows } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { expF32, logF32 } from '../../arith/floatMath';

const f32 = Math.fround;
const FLOAT_LOWEST = -3.4028234663852886e38;

export function logSoftmax(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const { rows: outer, depth } = lastAxisRows(input.type);
  const out = allocateTensorData(ctx.outType);
  if (input.type.dtype === 'float32' && ctx.outType.dtype === 'float32') {
    const x = input.data as Float32Array;
    for (let o = 0; o < outer; o++) {
      const base = o * depth;
      let max = FLOAT_LOWEST;
      for (let c = 0; c < depth; c++) if (max < x[base + c]) max = x[base + c];
      let sum = 0;
      for (let c = 0; c < depth; c++) sum = f32(sum + expF32(f32(x[base + c] - max)));
      const logSum = logF32(sum);
      for (let c = 0; c < depth; c++) out[base + c] = f32(f32(x[base + c] - max) - logSum);
    }
    return out;
  }
  if (input.type.dtype !== 'int8' || ctx.outType.dtype !== 'int8') throw ctx.unsupported(`dtype ${input.type.dtype} -> ${ctx.outType.dtype}`);
  logSoftmaxInt8Rows(input.data as Int8Array, out as Int8Array, outer, depth, logSoftmaxQuantParams(ctx.quant(input.type, 'input').scale));
  return out;
}

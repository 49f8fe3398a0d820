/**
 * L2_NORMALIZATION over the last axis as TFLite Micro's reference kernels: float32 divides
 * by max(sqrt(sum of squares), 1e-6); int8 is src/arith/l2norm.ts (output scale 1/128).
 */
import { L2NORM_EPSILON, l2NormalizeInt8Rows } from '../../arith/l2norm';
import { lastAxisRows } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

const f32 = Math.fround;

export function l2Normalization(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const { rows: outer, depth } = lastAxisRows(input.type);
  const out = allocateTensorData(ctx.outType);
  if (input.type.dtype === 'float32') {
    const x = input.data as Float32Array;
    for (let o = 0; o < outer; o++) {
      let sum = 0;
      for (let c = 0; c < depth; c++) sum = f32(sum + f32(x[o * depth + c] * x[o * depth + c]));
      const norm = Math.max(f32(Math.sqrt(sum)), L2NORM_EPSILON);
      for (let c = 0; c < depth; c++) out[o * depth + c] = f32(x[o * depth + c] / norm);
    }
    return out;
  }
  if (input.type.dtype !== 'int8' || ctx.outType.dtype !== 'int8') throw ctx.unsupported(`dtype ${input.type.dtype} -> ${ctx.outType.dtype}`);
  l2NormalizeInt8Rows(input.data as Int8Array, out as Int8Array, outer, depth, ctx.quant(input.type, 'input').zeroPoint);
  return out;
}

/**
 * BATCH_MATMUL as TFLite Micro's reference kernels: out[b, i, j] = sum over k ascending of
 * lhs'[b, i, k] * rhs'[b, k, j] (lhs' / rhs' transposed when adj_x / adj_y), batch axes
 * broadcast. float32 sums in float; int8 sums (lhs - zp) * (rhs - zp) in int32, int16 in
 * int64 (zero points 0), then requantizes with GetQuantizedConvolutionMultipler's multiplier
 * (the 64-bit MultiplyByQuantizedMultiplier for int16) and clamps to the output type.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplier64 } from '../../arith/fixedpoint';
import { denseOutputMultiplier, integerRange } from '../../arith/quant-params';
import { batchMatmulShape } from '../../ir/graph/computeTypes';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

const f32 = Math.fround;

/** Flat offset of every batch of the output into an operand's batch axes (broadcast: 1 -> 0). */
function batchOffsets(outBatch: readonly number[], opShape: readonly number[]): number[] {
  const ob = opShape.slice(0, -2);
  const matrix = opShape[opShape.length - 2] * opShape[opShape.length - 1];
  const lead = outBatch.length - ob.length;
  let offsets = [0];
  let stride = matrix;
  const strides = new Array<number>(ob.length);
  for (let d = ob.length - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= ob[d];
  }
  outBatch.forEach((extent, d) => {
    const od = d - lead;
    const s = od >= 0 && ob[od] !== 1 ? strides[od] : 0;
    offsets = offsets.flatMap((base) => Array.from({ length: extent }, (_, i) => base + i * s));
  });
  return offsets;
}

export function batchMatmul(ctx: KernelContext): TypedArray {
  const lhs = ctx.input(0, 'lhs');
  const rhs = ctx.input(1, 'rhs');
  const adjX = ctx.boolean('adj_x', false);
  const adjY = ctx.boolean('adj_y', false);
  const r = batchMatmulShape(lhs.type.shape, rhs.type.shape, adjX, adjY);
  if ('problem' in r) throw ctx.fail(r.problem);
  const outBatch = r.shape.slice(0, -2);
  const [rows, cols] = r.shape.slice(-2);
  const ls = lhs.type.shape;
  const rs = rhs.type.shape;
  const lCols = ls[ls.length - 1];
  const rCols = rs[rs.length - 1];
  const depth = adjX ? ls[ls.length - 2] : lCols;
  const lAt = (i: number, k: number): number => (adjX ? k * lCols + i : i * lCols + k);
  const rAt = (k: number, j: number): number => (adjY ? j * rCols + k : k * rCols + j);
  const lOff = batchOffsets(outBatch, ls);
  const rOff = batchOffsets(outBatch, rs);
  const out = allocateTensorData(ctx.outType);
  const a = lhs.data as Float32Array | Int8Array | Int16Array;
  const b = rhs.data as Float32Array | Int8Array | Int16Array;
  const dtype = ctx.outType.dtype;

  if (dtype === 'float32') {
    lOff.forEach((lo, n) => {
      const ro = rOff[n];
      for (let i = 0; i < rows; i++)
        for (let j = 0; j < cols; j++) {
          let total = 0;
          for (let k = 0; k < depth; k++) total = f32(total + f32(a[lo + lAt(i, k)] * b[ro + rAt(k, j)]));
          out[(n * rows + i) * cols + j] = total;
        }
    });
    return out;
  }
  const wide = dtype === 'int16';
  if ((dtype !== 'int8' && !wide) || lhs.type.dtype !== dtype || rhs.type.dtype !== dtype) {
    throw ctx.unsupported(`dtypes lhs ${lhs.type.dtype} / rhs ${rhs.type.dtype} / output ${dtype}`);
  }
  const ql = ctx.quant(lhs.type, 'lhs');
  const qr = ctx.quant(rhs.type, 'rhs');
  const qo = ctx.quant(ctx.outType, 'output');
  const m = denseOutputMultiplier(ql.scale, qr.scale, qo.scale);
  const range = integerRange(dtype);
  lOff.forEach((lo, n) => {
    const ro = rOff[n];
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        let total = 0;
        for (let k = 0; k < depth; k++) {
          const term = (b[ro + rAt(k, j)] - qr.zeroPoint) * (a[lo + lAt(i, k)] - ql.zeroPoint);
          // int64 sums of int16 products stay far below 2^53: exact in a double.
          total = wide ? total + term : (total + term) | 0;
        }
        const scaled = wide ? multiplyByQuantizedMultiplier64(total, m.multiplier, m.shift) : multiplyByQuantizedMultiplier(total, m.multiplier, m.shift);
        const v = scaled + qo.zeroPoint;
        out[(n * rows + i) * cols + j] = Math.min(Math.max(v, range.min), range.max);
      }
  });
  return out;
}

/**
 * RESIZE_BILINEAR as TFLite Micro's reference kernels: float32 with the float interpolation
 * (products and sums in float, left to right), int8 with ResizeBilinearInteger (Q10
 * weights, int64 sum, rounded away from zero by 2^19, truncated by 2^20).
 */
import { bilinearFloatAxis, bilinearIntegerAxis, bilinearIntegerRound } from '../../arith/resize';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { nhwc } from './window';

const f32 = Math.fround;

export function resizeBilinear(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const align = ctx.boolean('align_corners', false);
  const half = ctx.boolean('half_pixel_centers', false);
  const [batches, inH, inW, depth] = nhwc(ctx, input.type.shape, 'input');
  const [, outH, outW] = nhwc(ctx, ctx.outType.shape, 'output');
  const float = input.type.dtype === 'float32';
  if (!float && input.type.dtype !== 'int8') throw ctx.unsupported(`input dtype ${input.type.dtype}`);
  const axisOf = float ? bilinearFloatAxis : bilinearIntegerAxis;
  const ys = axisOf(inH, outH, align, half);
  const xs = axisOf(inW, outW, align, half);
  const x = input.data as Float32Array | Int8Array;
  const at = (n: number, y: number, xx: number, c: number): number => x[((n * inH + y) * inW + xx) * depth + c];
  const out = allocateTensorData(ctx.outType);
  let o = 0;
  for (let n = 0; n < batches; n++)
    for (let y = 0; y < outH; y++) {
      const [y0, y1, dy, ody] = [ys.lower[y], ys.upper[y], ys.frac[y], ys.oneMinus[y]];
      for (let xx = 0; xx < outW; xx++) {
        const [x0, x1, dx, odx] = [xs.lower[xx], xs.upper[xx], xs.frac[xx], xs.oneMinus[xx]];
        for (let c = 0; c < depth; c++) {
          const [v00, v10, v01, v11] = [at(n, y0, x0, c), at(n, y1, x0, c), at(n, y0, x1, c), at(n, y1, x1, c)];
          if (float) {
            const t1 = f32(f32(v00 * ody) * odx);
            const t2 = f32(f32(v10 * dy) * odx);
            const t3 = f32(f32(v01 * ody) * dx);
            const t4 = f32(f32(v11 * dy) * dx);
            out[o++] = f32(f32(f32(f32(t1 + t2) + t3) + t4) + 0);
          } else {
            // Each product is below 2^29 and the sum below 2^31: exact in a double.
            out[o++] = bilinearIntegerRound(v00 * ody * odx + v10 * dy * odx + v01 * ody * dx + v11 * dy * dx);
          }
        }
      }
    }
  return out;
}

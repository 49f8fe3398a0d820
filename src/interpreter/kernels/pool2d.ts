/**
 * AVERAGE_POOL_2D and MAX_POOL_2D as TFLite Micro's reference kernels: the window is
 * clipped to the image, the average divides by the number of in-image taps (int8, int16:
 * rounding half away from zero with C's truncating division).
 */
import { floatActivationRange, integerRange, quantizedActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { nhwc, windowGeometry } from './window';

type Reduction = 'avg' | 'max';

function pool2d(ctx: KernelContext, reduction: Reduction): TypedArray {
  const input = ctx.input(0, 'input');
  const g = windowGeometry(ctx);
  const [poolH, poolW] = ctx.numbers('pool_size');
  const [batches, inH, inW, channels] = nhwc(ctx, input.type.shape, 'input');
  const [, outH, outW, outC] = nhwc(ctx, ctx.outType.shape, 'output');
  if (outC !== channels) throw ctx.fail(`output has ${outC} channels, input ${channels}`);
  const out = allocateTensorData(ctx.outType);
  const activation = ctx.string('activation', 'NONE');
  const isFloat = input.type.dtype === 'float32';
  if (!isFloat && input.type.dtype !== 'int8' && input.type.dtype !== 'int16') throw ctx.unsupported(`dtype ${input.type.dtype}`);
  if (ctx.outType.dtype !== input.type.dtype) throw ctx.unsupported(`dtypes input ${input.type.dtype} / output ${ctx.outType.dtype}`);
  let act;
  if (isFloat) act = floatActivationRange(activation);
  else {
    const q = ctx.quant(ctx.outType, 'output');
    act = quantizedActivationRange(activation, ctx.outType.dtype, q.scale, q.zeroPoint);
  }
  const x = input.data as Float32Array | Int8Array | Int16Array;
  const o = out as Float32Array | Int8Array | Int16Array;
  const lowest = isFloat ? -3.4028234663852886e38 : integerRange(input.type.dtype).min;
  const f32 = Math.fround;
  for (let n = 0; n < batches; n++)
    for (let oy = 0; oy < outH; oy++)
      for (let ox = 0; ox < outW; ox++)
        for (let c = 0; c < channels; c++) {
          const iy0 = oy * g.strideH - g.padTop;
          const ix0 = ox * g.strideW - g.padLeft;
          const yStart = Math.max(0, -iy0);
          const yEnd = Math.min(poolH, inH - iy0);
          const xStart = Math.max(0, -ix0);
          const xEnd = Math.min(poolW, inW - ix0);
          let acc = reduction === 'max' ? -Infinity : 0;
          let count = 0;
          for (let fy = yStart; fy < yEnd; fy++)
            for (let fx = xStart; fx < xEnd; fx++) {
              const v = x[((n * inH + iy0 + fy) * inW + ix0 + fx) * channels + c];
              if (reduction === 'max') acc = Math.max(acc, v);
              else acc = isFloat ? f32(acc + v) : acc + v;
              count++;
            }
          let result: number;
          if (reduction === 'max') {
            // An empty window keeps TFLite's initial value, the dtype's lowest.
            result = count > 0 ? acc : lowest;
          } else if (count === 0) {
            throw ctx.fail(`pooling window at (${oy}, ${ox}) lies entirely in the padding`);
          }
          else if (isFloat) result = f32(acc / count);
          else {
            const half = Math.trunc(count / 2);
            result = acc > 0 ? Math.trunc((acc + half) / count) : Math.trunc((acc - half) / count);
          }
          o[((n * outH + oy) * outW + ox) * channels + c] = Math.min(Math.max(result, act.min), act.max);
        }
  return out;
}

export function avgPool2d(ctx: KernelContext): TypedArray {
  return pool2d(ctx, 'avg');
}

export function maxPool2d(ctx: KernelContext): TypedArray {
  return pool2d(ctx, 'max');
}

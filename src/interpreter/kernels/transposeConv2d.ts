/**
 * TRANSPOSE_CONV as TFLite Micro's reference kernels: a scatter over the input (each input
 * element adds its products to the outputs it reaches), so every output sums its terms in
 * input order. float32 accumulates in the output; int8 in an int32 scratch, then bias,
 * per-channel requantization, zero point and the activation clamp; 16x8 (int16 input, int8
 * weight, int64 or int16 bias) in an int64 scratch with no offsets and the 64-bit
 * MultiplyByQuantizedMultiplier (the bias add wrapping modulo 2^64: arith/int64Bias.ts).
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { int64BiasRequantize } from '../../arith/int64Bias';
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { perChannelRequant } from './integerConv';
import { nhwc } from './window';

const f32 = Math.fround;

export function transposeConv2d(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const weight = ctx.input(1, 'weight');
  const bias = ctx.optionalInput(2);
  const [strideH, strideW] = ctx.numbers('strides');
  const [padTop, padLeft] = ctx.numbers('pad_before');
  const [batches, inH, inW, inC] = nhwc(ctx, input.type.shape, 'input');
  const [outC, kH, kW] = nhwc(ctx, weight.type.shape, 'weight');
  const [, outH, outW] = nhwc(ctx, ctx.outType.shape, 'output');
  const activation = ctx.string('activation', 'NONE');
  const quantized = input.type.dtype !== 'float32';
  const wide = input.type.dtype === 'int16';
  if (quantized && ((input.type.dtype !== 'int8' && !wide) || weight.type.dtype !== 'int8')) {
    throw ctx.unsupported(`dtypes input ${input.type.dtype} / weight ${weight.type.dtype}`);
  }
  const inputOffset = quantized && !wide ? -ctx.quant(input.type, 'input').zeroPoint : 0;
  const x = input.data as Float32Array | Int8Array | Int16Array;
  const w = weight.data as Float32Array | Int8Array;
  const size = batches * outH * outW * outC;
  const acc = wide ? new Float64Array(size) : quantized ? new Int32Array(size) : new Float32Array(size);

  for (let n = 0; n < batches; n++)
    for (let iy = 0; iy < inH; iy++)
      for (let ix = 0; ix < inW; ix++)
        for (let ic = 0; ic < inC; ic++) {
          const v = x[((n * inH + iy) * inW + ix) * inC + ic] + inputOffset;
          for (let ky = 0; ky < kH; ky++) {
            const oy = iy * strideH - padTop + ky;
            if (oy < 0 || oy >= outH) continue;
            for (let kx = 0; kx < kW; kx++) {
              const ox = ix * strideW - padLeft + kx;
              if (ox < 0 || ox >= outW) continue;
              const base = ((n * outH + oy) * outW + ox) * outC;
              for (let oc = 0; oc < outC; oc++) {
                const wv = w[((oc * kH + ky) * kW + kx) * inC + ic];
                // int64 sums of int16*int8 products stay far below 2^53: exact in a double.
                if (wide) acc[base + oc] += v * wv;
                else if (quantized) acc[base + oc] = (acc[base + oc] + Math.imul(v, wv)) | 0;
                else acc[base + oc] = f32(acc[base + oc] + f32(v * wv));
              }
            }
          }
        }

  const out = allocateTensorData(ctx.outType);
  if (!quantized) {
    const b = bias?.data as Float32Array | undefined;
    const act = floatActivationRange(activation);
    for (let i = 0; i < out.length; i++) out[i] = Math.min(Math.max(f32(acc[i] + (b ? b[i % outC] : 0)), act.min), act.max);
    return out;
  }
  const { outputZeroPoint, multipliers, shifts, act } = perChannelRequant(ctx, input, weight, outC, activation);
  if (wide) {
    const requantize = int64BiasRequantize(bias?.data as BigInt64Array | Int16Array | undefined);
    for (let i = 0; i < out.length; i++) {
      const oc = i % outC;
      out[i] = Math.min(Math.max(requantize(acc[i], oc, multipliers[oc], shifts[oc]), act.min), act.max);
    }
    return out;
  }
  const b = bias?.data as Int32Array | undefined;
  for (let i = 0; i < out.length; i++) {
    const oc = i % outC;
    const total = b ? (acc[i] + b[oc]) | 0 : acc[i];
    const v = multiplyByQuantizedMultiplier(total, multipliers[oc], shifts[oc]) + outputZeroPoint;
    out[i] = Math.min(Math.max(v, act.min), act.max);
  }
  return out;
}

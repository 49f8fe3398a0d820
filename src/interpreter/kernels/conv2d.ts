/**
 * CONV_2D as TFLite Micro's reference kernels: float32 (float accumulation) and int8 with
 * per-channel requantization. Out-of-image taps are skipped, which for int8 equals
 * padding with the input zero point.
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { floatActivationRange, perChannelMultipliers, quantizedActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { nhwc, windowGeometry } from './window';

export function conv2d(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const weight = ctx.input(1, 'weight');
  const bias = ctx.optionalInput(2);
  const g = windowGeometry(ctx);
  const [batches, inH, inW, inC] = nhwc(ctx, input.type.shape, 'input');
  const [outC, kH, kW, kC] = nhwc(ctx, weight.type.shape, 'weight');
  const [, outH, outW, outDepth] = nhwc(ctx, ctx.outType.shape, 'output');
  if (outDepth !== outC || kC === 0 || inC % kC !== 0) {
    throw ctx.fail(`weight [${weight.type.shape.join(', ')}] does not fit input channels ${inC} / output ${outDepth}`);
  }
  const groups = inC / kC;
  const filtersPerGroup = outC / groups;
  const out = allocateTensorData(ctx.outType);
  const activation = ctx.string('activation', 'NONE');

  if (input.type.dtype === 'float32') {
    // Hybrid models (float activations, int8 weights) need dequantizing kernels we do not have.
    if (weight.type.dtype !== 'float32') {
      throw ctx.unsupported(`hybrid dtypes input ${input.type.dtype} / weight ${weight.type.dtype}`);
    }
    const x = input.data as Float32Array;
    const w = weight.data as Float32Array;
    const b = bias?.data as Float32Array | undefined;
    const o = out as Float32Array;
    const act = floatActivationRange(activation);
    const f32 = Math.fround;
    for (let n = 0; n < batches; n++)
      for (let oy = 0; oy < outH; oy++) {
        const iy0 = oy * g.strideH - g.padTop;
        for (let ox = 0; ox < outW; ox++) {
          const ix0 = ox * g.strideW - g.padLeft;
          for (let oc = 0; oc < outC; oc++) {
            const cBase = Math.floor(oc / filtersPerGroup) * kC;
            let total = 0;
            for (let ky = 0; ky < kH; ky++) {
              const iy = iy0 + g.dilationH * ky;
              if (iy < 0 || iy >= inH) continue;
              for (let kx = 0; kx < kW; kx++) {
                const ix = ix0 + g.dilationW * kx;
                if (ix < 0 || ix >= inW) continue;
                const xBase = ((n * inH + iy) * inW + ix) * inC + cBase;
                const wBase = ((oc * kH + ky) * kW + kx) * kC;
                for (let c = 0; c < kC; c++) total = f32(total + f32(x[xBase + c] * w[wBase + c]));
              }
            }
            const v = f32(total + (b ? b[oc] : 0));
            o[((n * outH + oy) * outW + ox) * outC + oc] = Math.min(Math.max(v, act.min), act.max);
          }
        }
      }
    return out;
  }

  if (input.type.dtype !== 'int8' || weight.type.dtype !== 'int8') {
    throw ctx.unsupported(`dtypes input ${input.type.dtype} / weight ${weight.type.dtype}`);
  }
  const inQ = ctx.quant(input.type, 'input');
  const outQ = ctx.quant(ctx.outType, 'output');
  const wScales = weight.type.quant?.scale;
  if (!wScales || wScales.length === 0) throw ctx.fail('weight has no quantization scales');
  const { multipliers, shifts } = perChannelMultipliers(inQ.scale, wScales, outQ.scale, outC);
  const act = quantizedActivationRange(activation, ctx.outType.dtype, outQ.scale, outQ.zeroPoint);
  const inputOffset = -inQ.zeroPoint;
  const x = input.data as Int8Array;
  const w = weight.data as Int8Array;
  const b = bias?.data as Int32Array | undefined;
  const o = out as Int8Array;
  for (let n = 0; n < batches; n++)
    for (let oy = 0; oy < outH; oy++) {
      const iy0 = oy * g.strideH - g.padTop;
      for (let ox = 0; ox < outW; ox++) {
        const ix0 = ox * g.strideW - g.padLeft;
        for (let oc = 0; oc < outC; oc++) {
          const cBase = Math.floor(oc / filtersPerGroup) * kC;
          let acc = 0;
          for (let ky = 0; ky < kH; ky++) {
            const iy = iy0 + g.dilationH * ky;
            if (iy < 0 || iy >= inH) continue;
            for (let kx = 0; kx < kW; kx++) {
              const ix = ix0 + g.dilationW * kx;
              if (ix < 0 || ix >= inW) continue;
              const xBase = ((n * inH + iy) * inW + ix) * inC + cBase;
              const wBase = ((oc * kH + ky) * kW + kx) * kC;
              for (let c = 0; c < kC; c++) acc = (acc + w[wBase + c] * (x[xBase + c] + inputOffset)) | 0;
            }
          }
          if (b) acc = (acc + b[oc]) | 0;
          acc = multiplyByQuantizedMultiplier(acc, multipliers[oc], shifts[oc]) + outQ.zeroPoint;
          o[((n * outH + oy) * outW + ox) * outC + oc] = Math.min(Math.max(acc, act.min), act.max);
        }
      }
    }
  return out;
}

/**
 * ADD as TFLite Micro's reference kernels with broadcasting. int8 uses TFLite's general
 * rescaling: both inputs shifted left by 20 bits, scaled to twice the larger input scale,
 * summed, then scaled to the output.
 */
import { multiplyByQuantizedMultiplierSmallerThanOneExp } from '../../arith/fixedpoint';
import { addQuantParams, floatActivationRange, quantizedActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { broadcastSourceIndices } from './broadcast';

export function add(ctx: KernelContext): TypedArray {
  const lhs = ctx.input(0, 'lhs');
  const rhs = ctx.input(1, 'rhs');
  const outShape = ctx.outType.shape;
  const li = broadcastSourceIndices(ctx, lhs.type.shape, outShape, 'lhs');
  const ri = broadcastSourceIndices(ctx, rhs.type.shape, outShape, 'rhs');
  const out = allocateTensorData(ctx.outType);
  const activation = ctx.string('activation', 'NONE');

  if (ctx.outType.dtype === 'float32') {
    const a = lhs.data as Float32Array;
    const b = rhs.data as Float32Array;
    const o = out as Float32Array;
    const act = floatActivationRange(activation);
    for (let i = 0; i < o.length; i++) {
      o[i] = Math.min(Math.max(Math.fround(a[li[i]] + b[ri[i]]), act.min), act.max);
    }
    return out;
  }
  if (ctx.outType.dtype === 'int32') {
    const a = lhs.data as Int32Array;
    const b = rhs.data as Int32Array;
    const o = out as Int32Array;
    for (let i = 0; i < o.length; i++) o[i] = (a[li[i]] + b[ri[i]]) | 0;
    return out;
  }
  if (ctx.outType.dtype !== 'int8') {
    throw ctx.unsupported(`output dtype ${ctx.outType.dtype}`);
  }
  const q1 = ctx.quant(lhs.type, 'lhs');
  const q2 = ctx.quant(rhs.type, 'rhs');
  const qo = ctx.quant(ctx.outType, 'output');
  const p = addQuantParams(q1.scale, q2.scale, qo.scale, 'int8');
  const act = quantizedActivationRange(activation, ctx.outType.dtype, qo.scale, qo.zeroPoint);
  const a = lhs.data as Int8Array;
  const b = rhs.data as Int8Array;
  const o = out as Int8Array;
  const scale = 1 << p.leftShift;
  for (let i = 0; i < o.length; i++) {
    const s1 = multiplyByQuantizedMultiplierSmallerThanOneExp(
      Math.imul(a[li[i]] - q1.zeroPoint, scale),
      p.input1Multiplier,
      p.input1Shift,
    );
    const s2 = multiplyByQuantizedMultiplierSmallerThanOneExp(
      Math.imul(b[ri[i]] - q2.zeroPoint, scale),
      p.input2Multiplier,
      p.input2Shift,
    );
    const raw =
      multiplyByQuantizedMultiplierSmallerThanOneExp((s1 + s2) | 0, p.outputMultiplier, p.outputShift) + qo.zeroPoint;
    o[i] = Math.min(Math.max(raw, act.min), act.max);
  }
  return out;
}

/**
 * The integer accumulate/requantize scheme of conv2d, depthwise_conv2d and dense, shared by
 * their int8 and 16x8 kernels. int8: int32 accumulator of w * (x - input_zp) with an int32
 * bias and the 32-bit requantize. 16x8 (int16 activations with zero point 0, int8
 * weights): the accumulator TFLite Micro picks from the bias dtype
 * (`accumulatorDType16x8`), an int64 one requantized with the Q15 64-bit
 * `MultiplyByQuantizedMultiplier` (its products sum exactly in a double, its bias add wraps
 * modulo 2^64 on bigints: arith/int64Bias.ts).
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { int64BiasRequantize } from '../../arith/int64Bias';
import { accumulatorDType16x8, Op16x8, perChannelMultipliers, quantizedActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { Tensor } from '../tensor';

export interface IntegerConvScheme {
  /** -input zero point (0 for 16x8). */
  readonly inputOffset: number;
  /**
   * int64: the products add exactly in a double (each below 2^23 in magnitude, and no weight
   * row holds 2^30 of them); int32: they wrap.
   */
  readonly wideAccumulator: boolean;
  /** Output channel `oc`'s product sum plus its bias (if any), requantized (before the output zero point). */
  readonly requantize: (acc: number, oc: number, multiplier: number, shift: number) => number;
}

/** The int32 output stage: bias add wrapping modulo 2^32, 32-bit requantize. */
function int32Requantize(bias: Tensor | undefined): IntegerConvScheme['requantize'] {
  const b = bias?.data as Int32Array | undefined;
  if (!b) return (acc, _oc, multiplier, shift) => multiplyByQuantizedMultiplier(acc, multiplier, shift);
  return (acc, oc, multiplier, shift) => multiplyByQuantizedMultiplier((acc + b[oc]) | 0, multiplier, shift);
}

/** Checks the dtype combination and zero points of an integer conv-like call and gives its scheme. */
export function integerConvScheme(
  ctx: KernelContext,
  op: Op16x8,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | undefined,
): IntegerConvScheme {
  const inDtype = input.type.dtype;
  const outDtype = ctx.outType.dtype;
  if (weight.type.dtype !== 'int8' || (inDtype !== 'int8' && inDtype !== 'int16') || outDtype !== inDtype) {
    throw ctx.unsupported(`dtypes input ${inDtype} / weight ${weight.type.dtype} / output ${outDtype}`);
  }
  const inQ = ctx.quant(input.type, 'input');
  if (inDtype === 'int8') {
    if (bias && bias.type.dtype !== 'int32') throw ctx.unsupported(`bias dtype ${bias.type.dtype} for int8 input`);
    return {
      inputOffset: -inQ.zeroPoint,
      wideAccumulator: false,
      requantize: int32Requantize(bias),
    };
  }
  const outQ = ctx.quant(ctx.outType, 'output');
  if (inQ.zeroPoint !== 0 || outQ.zeroPoint !== 0) {
    throw ctx.unsupported(`int16 zero points input ${inQ.zeroPoint} / output ${outQ.zeroPoint} (16x8 needs 0)`);
  }
  const acc = accumulatorDType16x8(op, bias?.type.dtype);
  if (!acc) throw ctx.unsupported(`bias dtype ${bias?.type.dtype} for int16 input`);
  const wide = acc === 'int64';
  return {
    inputOffset: 0,
    wideAccumulator: wide,
    requantize: wide ? int64BiasRequantize(bias?.data as BigInt64Array | undefined) : int32Requantize(bias),
  };
}

/** What the integer conv kernels requantize with: per output channel multiplier and shift, the output zero point, the activation range. */
export interface PerChannelRequant {
  readonly outputZeroPoint: number;
  readonly multipliers: Int32Array;
  readonly shifts: Int32Array;
  readonly act: { readonly min: number; readonly max: number };
}

/** TFLite's per-channel requantization of conv2d, depthwise_conv2d and transpose_conv: s_in * s_w[oc] / s_out. */
export function perChannelRequant(ctx: KernelContext, input: Tensor, weight: Tensor, channels: number, activation: string): PerChannelRequant {
  const inQ = ctx.quant(input.type, 'input');
  const outQ = ctx.quant(ctx.outType, 'output');
  const wScales = weight.type.quant?.scale;
  if (!wScales || wScales.length === 0) throw ctx.fail('weight has no quantization scales');
  const { multipliers, shifts } = perChannelMultipliers(inQ.scale, wScales, outQ.scale, channels);
  const act = quantizedActivationRange(activation, ctx.outType.dtype, outQ.scale, outQ.zeroPoint);
  return { outputZeroPoint: outQ.zeroPoint, multipliers, shifts, act };
}

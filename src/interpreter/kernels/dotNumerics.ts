/**
 * The numerics conv2d, depthwise_conv2d and dense share: each output element is a sum of
 * input-times-weight products over runs of operands, then an output stage per channel. The
 * kernels differ only in which operands a sum walks (window taps, a row); these classes differ
 * only in how they multiply, accumulate and finish, as TFLite Micro's reference kernels do:
 * float32 (float accumulation, in order), hybrid (float32 activations quantized row by row,
 * int8 weights, TensorFlow Lite's float output stage) and integer (int8 or 16x8, see
 * integerConv.ts).
 */
import { HybridOp, hybridOutput } from '../../arith/hybrid';
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { Tensor } from '../tensor';
import { HybridOperands, hybridOperands } from './hybrid';
import { IntegerConvScheme, integerConvScheme, PerChannelRequant } from './integerConv';
import { WindowTaps } from './window';

interface Range {
  readonly min: number;
  readonly max: number;
}

const clamp = (v: number, range: Range): number => Math.min(Math.max(v, range.min), range.max);

export abstract class DotNumerics {
  /**
   * `acc` plus the products of x[xi + k] and w[wi + k] for k < count, in order; `row` is the
   * input's quantization row (hybrid: each row has its own zero point).
   */
  abstract sum(acc: number, row: number, xi: number, wi: number, count: number): number;

  /** Output channel `oc`'s value from its sum (bias, requantization, activation). */
  abstract output(acc: number, oc: number, row: number): number;

  /**
   * `acc` plus the runs of `count` products of each window tap, in order: the run of tap t
   * starts at x[pixel[t] * xStride + xOffset] and w[tap[t] * wStride + wOffset].
   */
  sumTaps(acc: number, row: number, taps: WindowTaps, xStride: number, xOffset: number, wStride: number, wOffset: number, count: number): number {
    for (let t = 0; t < taps.count; t++) acc = this.sum(acc, row, taps.pixel[t] * xStride + xOffset, taps.tap[t] * wStride + wOffset, count);
    return acc;
  }
}

export class FloatDot extends DotNumerics {
  private readonly act: Range;

  constructor(
    private readonly x: Float32Array,
    private readonly w: Float32Array,
    private readonly bias: Float32Array | undefined,
    activation: string,
  ) {
    super();
    this.act = floatActivationRange(activation);
  }

  sum(acc: number, _row: number, xi: number, wi: number, count: number): number {
    const { x, w } = this;
    for (let k = 0; k < count; k++) acc = Math.fround(acc + Math.fround(x[xi + k] * w[wi + k]));
    return acc;
  }

  output(acc: number, oc: number): number {
    return clamp(Math.fround(acc + (this.bias ? this.bias[oc] : 0)), this.act);
  }
}

export class HybridDot extends DotNumerics {
  constructor(private readonly h: HybridOperands) {
    super();
  }

  sum(acc: number, row: number, xi: number, wi: number, count: number): number {
    const q = this.h.rows.q;
    const w = this.h.weight;
    const zp = this.h.rows.zeroPoints[row];
    for (let k = 0; k < count; k++) acc = (acc + w[wi + k] * (q[xi + k] - zp)) | 0;
    return acc;
  }

  output(acc: number, oc: number, row: number): number {
    const h = this.h;
    return clamp(hybridOutput(acc, h.filterScales[oc], h.rows.scales[row], h.bias?.[oc], h.recipe), h.act);
  }
}

export class IntegerDot extends DotNumerics {
  /** `filterOffset`: -weight zero point (per-tensor FULLY_CONNECTED; 0 for the convolutions). */
  constructor(
    private readonly scheme: IntegerConvScheme,
    private readonly x: Int8Array | Int16Array,
    private readonly w: Int8Array,
    private readonly stage: PerChannelRequant,
    private readonly filterOffset = 0,
  ) {
    super();
  }

  sum(acc: number, _row: number, xi: number, wi: number, count: number): number {
    const { x, w, filterOffset } = this;
    const { inputOffset, wideAccumulator } = this.scheme;
    // Two loops rather than the scheme's accumulate per product: this is the interpreter's hottest loop.
    if (wideAccumulator) for (let k = 0; k < count; k++) acc += (w[wi + k] + filterOffset) * (x[xi + k] + inputOffset);
    else for (let k = 0; k < count; k++) acc = (acc + (w[wi + k] + filterOffset) * (x[xi + k] + inputOffset)) | 0;
    return acc;
  }

  output(acc: number, oc: number): number {
    const s = this.stage;
    return clamp(this.scheme.requantize(acc, oc, s.multipliers[oc], s.shifts[oc]) + s.outputZeroPoint, s.act);
  }
}

/**
 * The numerics of a conv2d, depthwise_conv2d or dense call from its operand types: float32,
 * hybrid (the input quantized in rows of `hybridRowLength`), or integer with the output stage
 * `integerStage` gives (checked after the integer dtypes).
 */
export function dotNumericsOf(
  ctx: KernelContext,
  op: HybridOp,
  operands: { readonly input: Tensor; readonly weight: Tensor; readonly bias: Tensor | undefined },
  channels: number,
  hybridRowLength: number,
  integerStage: () => { readonly stage: PerChannelRequant; readonly filterOffset?: number },
): DotNumerics {
  const { input, weight, bias } = operands;
  if (input.type.dtype === 'float32' && weight.type.dtype === 'float32') {
    return new FloatDot(input.data as Float32Array, weight.data as Float32Array, bias?.data as Float32Array | undefined, ctx.string('activation', 'NONE'));
  }
  if (input.type.dtype === 'float32') return new HybridDot(hybridOperands(ctx, op, input, weight, bias, channels, hybridRowLength));
  const scheme = integerConvScheme(ctx, op, input, weight, bias);
  const { stage, filterOffset } = integerStage();
  return new IntegerDot(scheme, input.data as Int8Array | Int16Array, weight.data as Int8Array, stage, filterOffset);
}

/**
 * Compile-time quantization parameters for the CPU strategies. The numbers come from the
 * shared `src/arith/quant-params.ts` (TFLite Micro's Prepare functions), the same helpers
 * the reference interpreter uses, so lowered loops and oracle requantize identically; this
 * file only adapts them to graph tensor types and reports problems as LoweringErrors.
 */
import { QuantizedMultiplier } from '../../arith/fixedpoint';
import * as qp from '../../arith/quant-params';
import { FusedActivation } from '../../ir/graph/ops';
import { CallNode, DType, TensorType } from '../../ir/graph/types';
import { loweringFail } from './attrs';

export const FLOAT32_MAX = 3.4028234663852886e38;

export interface QuantOf {
  readonly scale: number;
  readonly zeroPoint: number;
}

/** Per-tensor scale and zero point (channel 0 for per-channel tensors). */
export function quantOf(call: CallNode, type: TensorType, what: string): QuantOf {
  const q = type.quant;
  if (!q || q.scale.length === 0) loweringFail(call, `${what} of a ${type.dtype} operator has no quantization parameters`);
  return { scale: q.scale[0], zeroPoint: q.zeroPoint[0] ?? 0 };
}

export function dtypeRange(call: CallNode, dtype: DType): readonly [number, number] {
  if (dtype !== 'int8' && dtype !== 'uint8' && dtype !== 'int16' && dtype !== 'int32') {
    loweringFail(call, `no integer range for dtype ${dtype}`);
  }
  const r = qp.integerRange(dtype);
  return [r.min, r.max];
}

/** TFLite `CalculateActivationRangeQuantized` for the call's output. */
export function quantizedActivationRange(call: CallNode, activation: FusedActivation, out: TensorType): readonly [number, number] {
  dtypeRange(call, out.dtype);
  const q = quantOf(call, out, 'output');
  const r = qp.quantizedActivationRange(activation, out.dtype, q.scale, q.zeroPoint);
  return [r.min, r.max];
}

/** TFLite `CalculateActivationRange<float>`; NONE clamps to the finite float range as TFLite does. */
export function floatActivationRange(activation: FusedActivation): readonly [number, number] {
  const r = qp.floatActivationRange(activation);
  return [r.min, r.max];
}

export function isPerChannel(filter: TensorType): boolean {
  return (filter.quant?.scale.length ?? 0) > 1;
}

/**
 * Per-output-channel requantization of conv/depthwise/dense. Per-tensor dense uses
 * TFLite's GetQuantizedConvolutionMultipler; everything else PopulateConvolutionQuantizationParams.
 */
export function channelMultipliers(
  call: CallNode,
  input: TensorType,
  filter: TensorType,
  output: TensorType,
  channels: number,
): QuantizedMultiplier[] {
  const inScale = quantOf(call, input, 'input').scale;
  const outScale = quantOf(call, output, 'output').scale;
  const filterScales = filter.quant?.scale ?? [];
  if (filterScales.length !== 1 && filterScales.length !== channels) {
    loweringFail(call, `filter has ${filterScales.length} scales for ${channels} output channels`);
  }
  const isDense = call.callee.kind === 'op' && call.callee.op === 'dense';
  if (isDense && filterScales.length === 1) {
    return new Array<QuantizedMultiplier>(channels).fill(qp.denseOutputMultiplier(inScale, filterScales[0], outScale));
  }
  const { multipliers, shifts } = qp.perChannelMultipliers(inScale, filterScales, outScale, channels);
  return Array.from(multipliers, (multiplier, c) => ({ multiplier, shift: shifts[c] }));
}

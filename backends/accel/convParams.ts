/**
 * The compile-time parameters of one offloaded conv2d, in the order `accel_conv2d` takes its
 * scalar arguments. Numbers come from the same TFLite prepare-time helpers the reference
 * interpreter uses (per-channel multipliers, activation clamp), so kernel and interpreter
 * requantize identically.
 */
import { CallNode, FUSED_ACTIVATIONS, LoweringError, OpLoweringInput, TensorType, quantParams } from '../../src/index';

/** Scalar arguments of `accel_conv2d` after its six pointers, in call order. */
export const CONV_SCALAR_PARAMS = [
  'batches',
  'in_h',
  'in_w',
  'in_c',
  'out_h',
  'out_w',
  'out_c',
  'k_h',
  'k_w',
  'stride_h',
  'stride_w',
  'dilation_h',
  'dilation_w',
  'pad_top',
  'pad_left',
  'input_offset',
  'output_offset',
  'act_min',
  'act_max',
] as const;

export type ConvScalars = Readonly<Record<(typeof CONV_SCALAR_PARAMS)[number], number>>;

export interface AccelConvParams {
  readonly scalars: ConvScalars;
  readonly multipliers: Int32Array;
  readonly shifts: Int32Array;
}

function fail(call: CallNode, message: string): never {
  throw new LoweringError(`accel conv2d '${call.name}': ${message}`, { op: 'conv2d', target: 'accel' });
}

function pairAttr(call: CallNode, key: string, length: number, fallback: readonly number[]): readonly number[] {
  const v = call.attrs[key] ?? fallback;
  if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
    fail(call, `attribute '${key}' must be ${length} integers, got ${JSON.stringify(v)}`);
  }
  return v as readonly number[];
}

function quantOf(call: CallNode, type: TensorType, what: string): { scale: number; zeroPoint: number } {
  const q = type.quant;
  if (!q || q.scale.length === 0) fail(call, `${what} has no quantization parameters`);
  return { scale: q.scale[0], zeroPoint: q.zeroPoint[0] ?? 0 };
}

export function accelConvParams(input: OpLoweringInput): AccelConvParams {
  const { call } = input;
  const [inType, wType] = input.argTypes;
  const outType = call.type;
  for (const t of [inType, wType, outType]) if (t.dtype !== 'int8') fail(call, `expects int8 tensors, got ${t.dtype}`);
  const [batches, inH, inW, inC] = inType.shape;
  const [outC, kH, kW, wC] = wType.shape;
  const [, outH, outW, outC2] = outType.shape;
  if (wC !== inC || outC2 !== outC) fail(call, `weight [${wType.shape.join(', ')}] does not fit input [${inType.shape.join(', ')}] / output [${outType.shape.join(', ')}]`);
  const [strideH, strideW] = pairAttr(call, 'strides', 2, [1, 1]);
  const [dilationH, dilationW] = pairAttr(call, 'dilation', 2, [1, 1]);
  const [padTop, padLeft] = pairAttr(call, 'padding', 4, [0, 0, 0, 0]);
  const activation = call.attrs.activation ?? 'NONE';
  if (typeof activation !== 'string' || !(FUSED_ACTIVATIONS as readonly string[]).includes(activation)) {
    fail(call, `unknown fused activation ${JSON.stringify(activation)}`);
  }
  const inQ = quantOf(call, inType, 'input');
  const outQ = quantOf(call, outType, 'output');
  const filterScales = wType.quant?.scale ?? [];
  if (filterScales.length !== 1 && filterScales.length !== outC) fail(call, `filter has ${filterScales.length} scales for ${outC} channels`);
  const { multipliers, shifts } = quantParams.perChannelMultipliers(inQ.scale, filterScales, outQ.scale, outC);
  const range = quantParams.quantizedActivationRange(activation, outType.dtype, outQ.scale, outQ.zeroPoint);
  return {
    scalars: {
      batches,
      in_h: inH,
      in_w: inW,
      in_c: inC,
      out_h: outH,
      out_w: outW,
      out_c: outC,
      k_h: kH,
      k_w: kW,
      stride_h: strideH,
      stride_w: strideW,
      dilation_h: dilationH,
      dilation_w: dilationW,
      pad_top: padTop,
      pad_left: padLeft,
      input_offset: -inQ.zeroPoint,
      output_offset: outQ.zeroPoint,
      act_min: range.min,
      act_max: range.max,
    },
    multipliers,
    shifts,
  };
}

/**
 * Pieces shared by conv2d, depthwise_conv2d and dense: where window taps are read from
 * (input or padded copy), and the int8 output stage (bias, requantize, zero point, clamp).
 */
import { FusedActivation } from '../../ir/graph/ops';
import { CallNode, TensorType } from '../../ir/graph/types';
import { accumulatorDType16x8, Op16x8 } from '../../arith/quant-params';
import { add, bufferLoad, cast, exprDType, ExprLike, floatImm, intImm } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OpLoweringInput } from '../strategy';
import { loweringFail, Window } from './attrs';
import { channelMultipliers, floatActivationRange, isPerChannel, quantizedActivationRange, quantOf } from './quantParams';
import { clamp, i32, needsPadding, qMultiplyShift, reachedExtent, staticShape, withInt32Table, withPaddedInput } from './tirHelpers';

export type TapLoad = (n: Expr, y: Expr, x: Expr, c: Expr) => Expr;

export interface WindowGeometry {
  readonly window: Window;
  readonly kernelH: number;
  readonly kernelW: number;
  readonly outH: number;
  readonly outW: number;
}

/**
 * Gives `body` a loader indexed in padded coordinates (output*stride + tap*dilation). When
 * the windows leave the input it reads an operator-internal padded copy; otherwise the input.
 */
export function withWindowSource(
  name: string,
  input: Buffer,
  padValue: Expr,
  g: WindowGeometry,
  body: (load: TapLoad) => Stmt,
): Stmt {
  const shape = staticShape(input);
  const reachedH = reachedExtent(g.outH, g.window.strideH, g.kernelH, g.window.dilationH);
  const reachedW = reachedExtent(g.outW, g.window.strideW, g.kernelW, g.window.dilationW);
  const padded = needsPadding(g.window.padTop, reachedH, shape[1]) || needsPadding(g.window.padLeft, reachedW, shape[2]);
  if (!padded) return body((n, y, x, c) => bufferLoad(input, [n, y, x, c]));
  const spec = {
    input,
    shape,
    padTop: g.window.padTop,
    padLeft: g.window.padLeft,
    paddedH: reachedH,
    paddedW: reachedW,
    padValue,
  };
  return withPaddedInput(name, spec, (buf) => body((n, y, x, c) => bufferLoad(buf, [n, y, x, c])));
}

/** Requantizes an int32 (int64 for some 16x8) accumulator of output channel `channel` to the output dtype. */
export type OutputStage = (acc: Expr, channel: Expr) => Expr;

/**
 * The integer output stage of TFLite's per-channel kernels (int8 and 16x8; an int64
 * accumulator requantizes with the 64-bit overload): MultiplyByQuantizedMultiplier,
 * + output zero point, clamp to the activation range, narrow. Per-channel multipliers and
 * shifts become operator-internal int32 tables; a per-tensor filter uses immediates.
 */
export function withQuantizedOutputStage(
  input: OpLoweringInput,
  filter: TensorType,
  channels: number,
  activation: FusedActivation,
  body: (stage: OutputStage) => Stmt,
): Stmt {
  const { call } = input;
  const outType = call.type;
  const outZp = quantOf(call, outType, 'output').zeroPoint;
  const [lo, hi] = quantizedActivationRange(call, activation, outType);
  const mults = channelMultipliers(call, input.argTypes[0], filter, outType, channels);
  const finish = (scaled: Expr): Expr => cast(outType.dtype, clamp(add(scaled, outZp), lo, hi));
  if (!isPerChannel(filter)) {
    const { multiplier, shift } = mults[0];
    return body((acc) => finish(qMultiplyShift(acc, intImm(multiplier), intImm(shift))));
  }
  const prefix = sanitizeName(call.name);
  return withInt32Table(`${prefix}_multiplier`, mults.map((m) => m.multiplier), (multTable) =>
    withInt32Table(`${prefix}_shift`, mults.map((m) => m.shift), (shiftTable) =>
      body((acc, ch) => finish(qMultiplyShift(acc, bufferLoad(multTable, [ch]), bufferLoad(shiftTable, [ch])))),
    ),
  );
}

/** Float output stage: clamp to the activation range (TFLite ActivationFunctionWithMinMax). */
export function floatOutputStage(activation: FusedActivation): (acc: ExprLike) => Expr {
  const [lo, hi] = floatActivationRange(activation);
  return (acc) => clamp(acc, floatImm(lo), floatImm(hi));
}

/**
 * How an integer conv-like operator accumulates: int8 in an int32 accumulator of
 * w * (x - input_zp); 16x8 (int16 activations with zero point 0, int8 weights) in the
 * accumulator TFLite Micro picks from the bias dtype, whose width also selects the
 * requantize overload (`tir.q_multiply_shift` on an int64 value is the 64-bit one).
 */
export interface IntegerConvScheme {
  readonly acc: 'int32' | 'int64';
  /** -input zero point; 0 (and no add emitted) for 16x8. */
  readonly inputOffset: number;
  readonly is16x8: boolean;
  /** The input term of a product: widened to int32, offset when int8. */
  readonly inputTerm: (x: Expr) => Expr;
  /** A term widened to the accumulator type. */
  readonly widen: (e: Expr) => Expr;
}

export function integerConvScheme(input: OpLoweringInput, op: Op16x8): IntegerConvScheme {
  const { call, argTypes } = input;
  const [inType, weightType] = argTypes;
  const biasType: TensorType | undefined = argTypes[2];
  const inDtype = inType.dtype;
  if (inDtype === 'int16') {
    requireDType(call, [weightType], ['int8'], op);
    requireDType(call, [call.type], ['int16'], op);
    const inZp = quantOf(call, inType, 'input').zeroPoint;
    const outZp = quantOf(call, call.type, 'output').zeroPoint;
    if (inZp !== 0 || outZp !== 0) loweringFail(call, `${op}: int16 zero points must be 0 (16x8), got input ${inZp} / output ${outZp}`);
    const acc = accumulatorDType16x8(op, biasType?.dtype);
    if (!acc) loweringFail(call, `${op}: unsupported bias dtype ${biasType?.dtype} with int16 input`);
    return { acc, inputOffset: 0, is16x8: true, inputTerm: (x) => i32(x), widen: (e) => (exprDType(e) === acc ? e : cast(acc, e)) };
  }
  requireDType(call, [inType, weightType, call.type], ['int8'], op);
  if (biasType) requireDType(call, [biasType], ['int32'], op);
  const inputOffset = -quantOf(call, inType, 'input').zeroPoint;
  return { acc: 'int32', inputOffset, is16x8: false, inputTerm: (x) => add(i32(x), inputOffset), widen: (e) => i32(e) };
}

export function requireDType(call: CallNode, types: readonly TensorType[], dtypes: readonly string[], what: string): void {
  for (const t of types) {
    if (!dtypes.includes(t.dtype)) loweringFail(call, `${what}: unsupported dtype ${t.dtype} (expected ${dtypes.join(' or ')})`);
  }
}

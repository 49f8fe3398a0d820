/**
 * Pieces shared by conv2d, depthwise_conv2d and dense: where window taps are read from
 * (input or padded copy), and the int8 output stage (bias, requantize, zero point, clamp).
 */
import { FusedActivation } from '../../ir/graph/ops';
import { CallNode, TensorType } from '../../ir/graph/types';
import { add, bufferLoad, cast, ExprLike, floatImm, intImm } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OpLoweringInput } from '../strategy';
import { loweringFail, Window } from './attrs';
import { channelMultipliers, floatActivationRange, isPerChannel, quantizedActivationRange, quantOf } from './quantParams';
import { clamp, needsPadding, qMultiplyShift, reachedExtent, staticShape, withInt32Table, withPaddedInput } from './tirHelpers';

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

/** Requantizes an int32 accumulator of output channel `channel` to the output dtype. */
export type OutputStage = (acc: Expr, channel: Expr) => Expr;

/**
 * The int8 output stage of TFLite's per-channel kernels: MultiplyByQuantizedMultiplier,
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

export function requireDType(call: CallNode, types: readonly TensorType[], dtypes: readonly string[], what: string): void {
  for (const t of types) {
    if (!dtypes.includes(t.dtype)) loweringFail(call, `${what}: unsupported dtype ${t.dtype} (expected ${dtypes.join(' or ')})`);
  }
}

/**
 * Pieces shared by conv2d, depthwise_conv2d and dense: where window taps are read from
 * (the input with border handling in the loop nest, or a padded copy), and the int8 output stage (bias, requantize, zero point, clamp).
 */
import { FusedActivation } from '../../ir/graph/ops';
import { CallNode, TensorType } from '../../ir/graph/types';
import { accumulatorDType16x8, Op16x8 } from '../../arith/quant-params';
import { add, bufferLoad, cast, exprDType, ExprLike, floatImm, forLoop, intImm, makeVar, mul, seq, sub } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt, Var } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { isHybrid, withHybridInput } from './hybrid';
import { OpLoweringInput } from '../strategy';
import { loweringFail, Window } from './attrs';
import { channelMultipliers, floatActivationRange, isPerChannel, quantizedActivationRange, quantOf } from './quantParams';
import {
  accLoad,
  accStore,
  clamp,
  i32,
  needsPadding,
  qMultiplyShift,
  reachedExtent,
  staticShape,
  withAccumulator,
  withInt32Table,
  withPaddedInput,
  wrappedSum,
  WRAPPING_SUM_DTYPE,
  wrappingAddI64,
  wrappingTerm,
} from './tirHelpers';

export interface WindowGeometry {
  readonly window: Window;
  readonly kernelH: number;
  readonly kernelW: number;
  readonly outH: number;
  readonly outW: number;
}

/**
 * Where the window taps of a convolution come from. `in-loop` (the host default) reads the
 * unpadded input: the output is split into regions whose windows use the same taps (the
 * interior: all of them; each border band: those inside the input, as TFLite skips the
 * others, which contribute 0), each a branch-free nest with constant bounds, so no padded
 * copy exists. `padded-scratch` first copies the input into an operator-internal
 * `<tensor>_pad` buffer (global scope, planned by the USMP) and runs one unguarded nest over
 * it: for a backend whose kernel replaces that nest and wants a padded operand.
 */
export type PaddingMode = 'in-loop' | 'padded-scratch';

export interface ConvStrategyOptions {
  readonly padding: PaddingMode;
}

/**
 * One rectangle of output positions whose windows all use the same taps: kernel rows
 * [ky0, ky1) and columns [kx0, kx1) are the ones inside the input there (the full kernel in
 * the interior, fewer at the border), so its nest needs no bounds check.
 */
export interface OutputRegion {
  readonly y: readonly [number, number];
  readonly x: readonly [number, number];
  readonly ky: readonly [number, number];
  readonly kx: readonly [number, number];
}

interface Band {
  readonly out: [number, number];
  readonly taps: [number, number];
}

/**
 * Output positions along one axis grouped into runs with the same in-input taps (TFLite
 * skips the others; they contribute 0). The interior is one run, each border position
 * before and after it (about pad/stride of them) another.
 */
export function axisBands(outSize: number, stride: number, kernel: number, dilation: number, padBefore: number, size: number): Band[] {
  const bands: Band[] = [];
  for (let o = 0; o < outSize; o++) {
    const origin = o * stride - padBefore;
    let k0 = 0;
    while (k0 < kernel && origin + k0 * dilation < 0) k0++;
    let k1 = k0;
    while (k1 < kernel && origin + k1 * dilation < size) k1++;
    const taps: [number, number] = k1 > k0 ? [k0, k1] : [0, 0];
    const last = bands[bands.length - 1];
    if (last !== undefined && last.taps[0] === taps[0] && last.taps[1] === taps[1]) last.out[1] = o + 1;
    else bands.push({ out: [o, o + 1], taps });
  }
  return bands;
}

/** The output split into regions of equal taps: row bands x column bands. */
export function outputRegions(g: WindowGeometry, inH: number, inW: number): OutputRegion[] {
  const w = g.window;
  const rows = axisBands(g.outH, w.strideH, g.kernelH, w.dilationH, w.padTop, inH);
  const cols = axisBands(g.outW, w.strideW, g.kernelW, w.dilationW, w.padLeft, inW);
  return rows.flatMap((r) => cols.map((c) => ({ y: r.out, x: c.out, ky: r.taps, kx: c.taps })));
}

/** How a region's nest reads taps: the buffer and the input coordinates of a tap. */
export interface WindowTaps {
  readonly input: Buffer;
  /** Input row of kernel row `ky` at output row `oy`. */
  readonly row: (oy: Expr, ky: Expr) => Expr;
  readonly col: (ox: Expr, kx: Expr) => Expr;
}

/** Nested serial loops over [min, end) ranges, outermost first. */
export function rangeNest(names: readonly string[], ranges: readonly (readonly [number, number])[], body: (vars: Var[]) => Stmt): Stmt {
  const vars = names.map((n) => makeVar(n, 'int32'));
  let stmt = body(vars);
  for (let i = vars.length - 1; i >= 0; i--) stmt = forLoop(vars[i], ranges[i][0], ranges[i][1] - ranges[i][0], stmt);
  return stmt;
}

/** Whether a region has any tap inside the input (a window wholly in the padding has none). */
export const hasTaps = (r: OutputRegion): boolean => r.ky[1] > r.ky[0] && r.kx[1] > r.kx[0];

/**
 * The compute nests of a windowed operator: `nest(region, taps)` once per output region (see
 * `PaddingMode`). With `padded-scratch` the region is the whole output with the whole
 * kernel, and taps read the copy.
 */
export function windowedNests(
  name: string,
  input: Buffer,
  padValue: Expr,
  g: WindowGeometry,
  mode: PaddingMode,
  nest: (region: OutputRegion, taps: WindowTaps) => Stmt,
): Stmt {
  const [, inH, inW] = staticShape(input);
  const w = g.window;
  const tapsOf = (buf: Buffer, padTop: number, padLeft: number): WindowTaps => ({
    input: buf,
    row: (oy, ky) => sub(add(mul(oy, w.strideH), mul(ky, w.dilationH)), padTop),
    col: (ox, kx) => sub(add(mul(ox, w.strideW), mul(kx, w.dilationW)), padLeft),
  });
  if (mode === 'padded-scratch') {
    const reachedH = reachedExtent(g.outH, w.strideH, g.kernelH, w.dilationH);
    const reachedW = reachedExtent(g.outW, w.strideW, g.kernelW, w.dilationW);
    if (needsPadding(w.padTop, reachedH, inH) || needsPadding(w.padLeft, reachedW, inW)) {
      const whole: OutputRegion = { y: [0, g.outH], x: [0, g.outW], ky: [0, g.kernelH], kx: [0, g.kernelW] };
      const spec = { input, shape: staticShape(input), padTop: w.padTop, padLeft: w.padLeft, paddedH: reachedH, paddedW: reachedW, padValue };
      return withPaddedInput(name, spec, (padded) => nest(whole, tapsOf(padded, 0, 0)));
    }
  }
  const taps = tapsOf(input, w.padTop, w.padLeft);
  return seq(outputRegions(g, inH, inW).map((region) => nest(region, taps)));
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
 * How an integer conv-like operator accumulates: int8 the int32 sum of w * (x - input_zp) and
 * the bias, wrapping modulo 2^32 as TFLite Micro's C and the interpreter do (tirHelpers.ts,
 * `wrappingTerm`/`wrappedSum`, read back once by `read`). 16x8 (int16 activations with zero
 * point 0, int8 weights) in the accumulator TFLite Micro picks from the bias dtype, whose width
 * also selects the requantize overload (`tir.q_multiply_shift` on an int64 value is the 64-bit one);
 * an int64 bias add wraps modulo 2^64 (`wrappingAddI64`).
 */
export interface IntegerConvScheme {
  readonly acc: 'uint32' | 'int64';
  /** -input zero point; 0 (and no add emitted) for 16x8. */
  readonly inputOffset: number;
  readonly is16x8: boolean;
  /** The input term of a product: widened to int32, offset when int8. */
  readonly inputTerm: (x: Expr) => Expr;
  /** A term widened to the accumulator type. */
  readonly widen: (e: Expr) => Expr;
  /** The accumulated sum as the value the output stage requantizes (int32 or int64). */
  readonly read: (acc: Expr) => Expr;
  /** The accumulator plus a bias element, wrapping as the accumulator does. */
  readonly addBias: (acc: Expr, bias: Expr) => Expr;
}

/** The int32 sums (int8, 16x8 with an int32 bias): every term, the bias too, on the uint32 accumulator. */
const wrappingInt32Sum = {
  acc: WRAPPING_SUM_DTYPE,
  widen: wrappingTerm,
  read: wrappedSum,
  addBias: (acc: Expr, bias: Expr): Expr => add(acc, wrappingTerm(bias)),
} as const;

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
    // An int32 sum (a 16x8 operator with an int32 bias) wraps as int8's does.
    if (acc === 'int32') return { ...wrappingInt32Sum, inputOffset: 0, is16x8: true, inputTerm: (x) => i32(x) };
    // The int64 products cannot overflow (each below 2^23 in magnitude, fewer than 2^31 of
    // them), so they add as plain int64; the int64 bias can be anything, and wraps.
    return { acc, inputOffset: 0, is16x8: true, inputTerm: (x) => i32(x), widen: (e) => (exprDType(e) === acc ? e : cast(acc, e)), read: (a) => a, addBias: wrappingAddI64 };
  }
  requireDType(call, [inType, weightType, call.type], ['int8'], op);
  if (biasType) requireDType(call, [biasType], ['int32'], op);
  const inputOffset = -quantOf(call, inType, 'input').zeroPoint;
  return { ...wrappingInt32Sum, inputOffset, is16x8: false, inputTerm: (x) => add(i32(x), inputOffset) };
}

export function requireDType(call: CallNode, types: readonly TensorType[], dtypes: readonly string[], what: string): void {
  for (const t of types) {
    if (!dtypes.includes(t.dtype)) loweringFail(call, `${what}: unsupported dtype ${t.dtype} (expected ${dtypes.join(' or ')})`);
  }
}

/** The output position a region nest is at (batch, output row, output column). */
export interface OutputAt {
  readonly b: Expr;
  readonly oy: Expr;
  readonly ox: Expr;
}

/** What one in-input tap (input value `x`, weight `w`) adds to the accumulator at output position `at`. */
export type TapTerm = (x: Expr, w: Expr, at: OutputAt) => Expr;

/**
 * The nest of one output region of a windowed convolution: for each output position, zero
 * `acc`, add `tap` of every in-input tap, store `result(oc)`. The loop order and how output
 * channels map to input channels and weights are the operator's own.
 */
export type ConvRegionNest = (
  region: OutputRegion,
  taps: WindowTaps,
  acc: Buffer,
  zero: Expr,
  tap: TapTerm,
  result: (oc: Expr, at: OutputAt) => Expr,
) => Stmt;

/**
 * The body at one output position: zero the accumulator, run the tap loops when the region
 * has taps (a window wholly in the padding has none and yields bias only), store.
 */
export function accumulateAndStore(acc: Buffer, zero: Expr, region: OutputRegion, tapLoops: () => Stmt, store: () => Stmt): Stmt {
  return seq([accStore(acc, zero), ...(hasTaps(region) ? [tapLoops()] : []), store()]);
}

export interface WindowedConvSpec {
  readonly op: 'conv2d' | 'depthwise_conv2d';
  readonly data: Buffer;
  readonly bias?: Buffer;
  /** Output channels (the per-channel requantize tables' length). */
  readonly channels: number;
  readonly geometry: WindowGeometry;
  readonly padding: PaddingMode;
  readonly activation: FusedActivation;
  /** Hybrid only: one quantization row per output pixel (an ungrouped 1x1, stride-1, unpadded conv2d) instead of per batch image. */
  readonly hybridRowsPerPixel?: boolean;
}

/**
 * The float and integer stages conv2d and depthwise_conv2d share around their region nest:
 * float: acc += x * w, + bias, clamp; integer (int8, 16x8): acc += w * (x - input_zp) in the
 * scheme's accumulator, + bias, requantize per channel (TFLite Micro's ConvPerChannel /
 * DepthwiseConvPerChannel numerics).
 */
export function windowedConvCompute(input: OpLoweringInput, spec: WindowedConvSpec, regionNest: ConvRegionNest): Stmt {
  const { call } = input;
  const { data, bias, geometry, padding } = spec;
  const padName = `${sanitizeName(call.name)}_pad`;
  if (isHybrid(input)) {
    // Every tap inside the input: skipping the others is TFLite's zero contribution, and
    // there is no single pad value (each row has its own zero point).
    const [, inH, inW, inC] = staticShape(data);
    const perPixel = spec.hybridRowsPerPixel === true;
    const rowOf = (at: OutputAt): Expr => (perPixel ? add(mul(add(mul(at.b, inH), at.oy), inW), at.ox) : at.b);
    return withHybridInput(input, spec.op, data, spec.channels, perPixel ? inC : inH * inW * inC, (h) =>
      withAccumulator('acc', h.accDType, (acc) =>
        windowedNests(padName, h.q, intImm(0, 'int8'), geometry, 'in-loop', (region, taps) =>
          regionNest(region, taps, acc, h.zero, (x, w, at) => h.term(w, x, rowOf(at)), (oc, at) =>
            h.result(accLoad(acc), oc, rowOf(at)),
          ),
        ),
      ),
    );
  }
  if (input.argTypes[0].dtype === 'float32') {
    requireDType(call, [input.argTypes[1], call.type], ['float32'], spec.op);
    const finish = floatOutputStage(spec.activation);
    return withAccumulator('acc', 'float32', (acc) =>
      windowedNests(padName, data, floatImm(0), geometry, padding, (region, taps) =>
        regionNest(region, taps, acc, floatImm(0), (x, w) => mul(x, w), (oc) =>
          finish(bias ? add(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)),
        ),
      ),
    );
  }
  const scheme = integerConvScheme(input, spec.op);
  return withQuantizedOutputStage(input, input.argTypes[1], spec.channels, spec.activation, (stage) =>
    withAccumulator('acc', scheme.acc, (acc) =>
      windowedNests(padName, data, intImm(-scheme.inputOffset, data.dtype), geometry, padding, (region, taps) =>
        regionNest(region, taps, acc, intImm(0, scheme.acc), (x, w) => scheme.widen(mul(i32(w), scheme.inputTerm(x))), (oc) =>
          stage(scheme.read(bias ? scheme.addBias(accLoad(acc), bufferLoad(bias, [oc])) : accLoad(acc)), oc),
        ),
      ),
    ),
  );
}

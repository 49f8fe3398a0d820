/**
 * avg_pool2d and max_pool2d (NHWC) for int8, int16 and float32, with the numerics of TFLite
 * Micro's reference pooling: the window is clipped to the input (padding only shifts it),
 * integer average rounds half away from zero by the count of taps inside, then clamps.
 */
import {
  add,
  and,
  binary,
  bufferLoad,
  bufferStore,
  cast,
  floatImm,
  ifThenElse,
  intImm,
  max,
  min,
  mul,
  select,
  seq,
  sub,
} from '../../ir/tir/builder';
import { Expr, Stmt } from '../../ir/tir/nodes';
import { OperatorStrategy, OpLoweringInput } from '../strategy';
import { activationAttr, numberList, windowAttrs } from './attrs';
import { floatOutputStage, requireDType } from './convCommon';
import { dtypeRange, FLOAT32_MAX, quantizedActivationRange } from './quantParams';
import { accLoad, accStore, clamp, i32, inRange, loopNest, staticShape, withAccumulator } from './tirHelpers';

export interface PoolGeometry {
  readonly n: number;
  readonly inH: number;
  readonly inW: number;
  readonly channels: number;
  readonly outH: number;
  readonly outW: number;
  readonly kH: number;
  readonly kW: number;
  readonly strideH: number;
  readonly strideW: number;
  readonly padTop: number;
  readonly padLeft: number;
}

export function geometry(input: OpLoweringInput): PoolGeometry {
  const [n, inH, inW, channels] = staticShape(input.args[0]);
  const [, outH, outW] = staticShape(input.out);
  const [kH, kW] = numberList(input.call, 'pool_size', 2);
  const w = windowAttrs(input.call);
  return { n, inH, inW, channels, outH, outW, kH, kW, strideH: w.strideH, strideW: w.strideW, padTop: w.padTop, padLeft: w.padLeft };
}

/**
 * Loops over outputs and window taps; `tap` sees the in-bounds input element, `finish` runs
 * after the window with the window origin (for the tap count).
 */
export function poolNest(
  g: PoolGeometry,
  start: Stmt,
  tap: (value: Expr) => Stmt,
  finish: (pos: Expr[], originY: Expr, originX: Expr) => Stmt,
  input: OpLoweringInput,
): Stmt {
  return loopNest(['n', 'oy', 'ox', 'c'], [g.n, g.outH, g.outW, g.channels], ([b, oy, ox, c]) => {
    const originY = sub(mul(oy, g.strideH), g.padTop);
    const originX = sub(mul(ox, g.strideW), g.padLeft);
    const rows = windowSpan(originY, g.kH, g.inH);
    const cols = windowSpan(originX, g.kW, g.inW);
    const taps = loopNest(['ky', 'kx'], [rows.extent, cols.extent], ([j, i]) => {
      const ky = rows.tap(j);
      const kx = cols.tap(i);
      const iy = add(originY, ky);
      const ix = add(originX, kx);
      let inside = and(inRange(iy, g.inH), inRange(ix, g.inW));
      if (rows.inWindow) inside = and(inside, rows.inWindow(ky));
      if (cols.inWindow) inside = and(inside, cols.inWindow(kx));
      return ifThenElse(inside, tap(bufferLoad(input.args[0], [b, iy, ix, c])));
    });
    return seq([start, taps, finish([b, oy, ox, c], originY, originX)]);
  });
}

/**
 * The taps of one window axis to visit. A window no longer than the input visits all of its
 * taps (the bounds check skips the padding). A longer one (fuzzed: a 2^31-1 filter with SAME
 * padding, whose C looped for ever) has at most `size` taps inside the input, from its first
 * one inside on: that many are visited, in the same order, so the results are the same.
 */
function windowSpan(origin: Expr, kernel: number, size: number): { extent: number; tap: (k: Expr) => Expr; inWindow?: (tap: Expr) => Expr } {
  if (kernel <= size) return { extent: kernel, tap: (k) => k };
  const first = max(intImm(0), sub(0, origin));
  return { extent: size, tap: (k) => add(first, k), inWindow: (tap) => inRange(tap, kernel) };
}

/** Taps inside the input along one axis: min(k, size - origin) - max(0, -origin). */
export function clippedTaps(origin: Expr, kernel: number, size: number): Expr {
  return sub(min(intImm(kernel), sub(size, origin)), max(intImm(0), sub(0, origin)));
}

export const avgPool2dStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const g = geometry(input);
  const activation = activationAttr(call);
  const count = (oy: Expr, ox: Expr): Expr => mul(clippedTaps(oy, g.kH, g.inH), clippedTaps(ox, g.kW, g.inW));

  if (call.type.dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'avg_pool2d');
    const finishF = floatOutputStage(activation);
    return withAccumulator('acc', 'float32', (acc) =>
      poolNest(
        g,
        accStore(acc, floatImm(0)),
        (v) => accStore(acc, add(accLoad(acc), v)),
        (pos, oy, ox) => bufferStore(out, finishF(binary('Div', accLoad(acc), cast('float32', count(oy, ox)))), pos),
        input,
      ),
    );
  }

  requireDType(call, [...input.argTypes, call.type], [call.type.dtype === 'int16' ? 'int16' : 'int8'], 'avg_pool2d');
  const [lo, hi] = quantizedActivationRange(call, activation, call.type);
  return withAccumulator('acc', 'int32', (acc) =>
    poolNest(
      g,
      accStore(acc, 0),
      (v) => accStore(acc, add(accLoad(acc), i32(v))),
      (pos, oy, ox) => {
        const n = count(oy, ox);
        const half = binary('Div', n, 2);
        const sum = accLoad(acc);
        // C integer division truncates: round half away from zero by biasing toward the sign.
        const rounded = select(binary('GT', sum, 0), binary('Div', add(sum, half), n), binary('Div', sub(sum, half), n));
        return bufferStore(out, cast(call.type.dtype, clamp(rounded, lo, hi)), pos);
      },
      input,
    ),
  );
};

export const maxPool2dStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const g = geometry(input);
  const activation = activationAttr(call);

  if (call.type.dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'max_pool2d');
    const finishF = floatOutputStage(activation);
    return withAccumulator('acc', 'float32', (acc) =>
      poolNest(
        g,
        accStore(acc, floatImm(-FLOAT32_MAX)),
        (v) => accStore(acc, max(accLoad(acc), v)),
        (pos) => bufferStore(out, finishF(accLoad(acc)), pos),
        input,
      ),
    );
  }

  requireDType(call, [...input.argTypes, call.type], [call.type.dtype === 'int16' ? 'int16' : 'int8'], 'max_pool2d');
  const [lo, hi] = quantizedActivationRange(call, activation, call.type);
  const [lowest] = dtypeRange(call, call.type.dtype);
  return withAccumulator('acc', 'int32', (acc) =>
    poolNest(
      g,
      accStore(acc, lowest),
      (v) => accStore(acc, max(accLoad(acc), i32(v))),
      (pos) => bufferStore(out, cast(call.type.dtype, clamp(accLoad(acc), lo, hi)), pos),
      input,
    ),
  );
};

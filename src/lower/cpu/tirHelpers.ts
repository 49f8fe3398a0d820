/**
 * Small TIR idioms the CPU strategies share: loop nests over a shape, int32 widening,
 * clamps, compile-time int32 tables, scratch buffers and the padded-input copy.
 */
import {
  add,
  allocate,
  allocateConst,
  and,
  bufferLoad,
  bufferStore,
  call,
  cast,
  exprDType,
  ExprLike,
  forLoop,
  ge,
  ifThenElse,
  intImm,
  lt,
  makeBuffer,
  makeVar,
  max,
  min,
  mul,
  seq,
  sub,
  toExpr,
} from '../../ir/tir/builder';
import { Buffer, Expr, ScalarDType, Stmt, Var } from '../../ir/tir/nodes';

/** Nested serial loops, outermost first; `body` receives the loop vars in the same order. */
export function loopNest(names: readonly string[], extents: readonly number[], body: (vars: Var[]) => Stmt): Stmt {
  const vars = names.map((n) => makeVar(n, 'int32'));
  let stmt = body(vars);
  for (let i = vars.length - 1; i >= 0; i--) stmt = forLoop(vars[i], 0, extents[i], stmt);
  return stmt;
}

/** Widen to int32 (no-op when already int32). */
export function i32(e: ExprLike): Expr {
  const x = toExpr(e);
  return exprDType(x) === 'int32' ? x : cast('int32', x);
}

export function f32(e: ExprLike): Expr {
  const x = toExpr(e);
  return exprDType(x) === 'float32' ? x : cast('float32', x);
}

export function clamp(x: ExprLike, lo: ExprLike, hi: ExprLike): Expr {
  return min(max(x, lo), hi);
}

/**
 * int32 `op(a, b)` (add, sub or mul) wrapping modulo 2^32, as TFLite's int32 ADD, SUB, MUL,
 * SQUARED_DIFFERENCE and accumulators (CUMSUM's) do in practice and the interpreter does (`| 0`, `Math.imul`): computed on
 * uint32 operands, whose arithmetic C defines modulo 2^32, and converted back (C:
 * `uma_wrap_i32`). A plain int32 op on model data can overflow, undefined behaviour in C.
 */
export function wrapI32(op: (a: Expr, b: Expr) => Expr): (a: ExprLike, b: ExprLike) => Expr {
  return (a, b) => cast('int32', op(cast('uint32', i32(a)), cast('uint32', i32(b))));
}

/**
 * A long int32 sum that wraps modulo 2^32 (int8 dot products and their bias, SVDF's sums: a
 * bias near the int32 limit or a very deep product passes it), at one plain add per term: the
 * accumulator is a uint32 (`WRAPPING_SUM_DTYPE`), each int32 term goes in as one
 * (`wrappingTerm`) and the sum comes out as the int32 it wraps to (`wrappedSum`), once.
 * wrapI32 per add gives the same values at several times the cost in the inner loop.
 */
export const WRAPPING_SUM_DTYPE = 'uint32';
export const wrappingTerm = (e: ExprLike): Expr => cast(WRAPPING_SUM_DTYPE, i32(e));
export const wrappedSum = (acc: Expr): Expr => cast('int32', acc);

/**
 * int64 `a + b` wrapping modulo 2^64 (a 16x8 int64 accumulator plus its int64 bias: a bias
 * near the int64 ends passes them; the interpreter wraps with BigInt.asIntN, arith/int64Bias.ts):
 * added as uint64, defined modulo 2^64 in C, and read back (`(int64_t)`, which gcc and clang
 * define as the wrap). A plain int64 add of model data can overflow, undefined behaviour in C.
 */
export function wrappingAddI64(a: ExprLike, b: ExprLike): Expr {
  return cast('int64', add(cast('uint64', a), cast('uint64', b)));
}

/** TFLite `MultiplyByQuantizedMultiplier(x, multiplier, shift)` as the TIR intrinsic. */
export function qMultiplyShift(x: Expr, multiplier: ExprLike, shift: ExprLike): Expr {
  return call('tir.q_multiply_shift', 'int32', [x, multiplier, shift]);
}

/** A view of the same memory with another (row-major compatible) shape. */
export function reshapedView(buffer: Buffer, shape: readonly number[]): Buffer {
  return makeBuffer(buffer.name, buffer.dtype, shape, buffer.data, buffer.scope);
}

export function elementCount(buffer: Buffer): number {
  return buffer.shape.reduce((acc, d) => {
    if (d.kind !== 'IntImm') throw new Error(`buffer ${buffer.name} has a symbolic shape`);
    return acc * d.value;
  }, 1);
}

export function staticShape(buffer: Buffer): number[] {
  return buffer.shape.map((d) => {
    if (d.kind !== 'IntImm') throw new Error(`buffer ${buffer.name} has a symbolic shape`);
    return d.value;
  });
}

function int32Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt32(i * 4, v, true));
  return bytes;
}

/** An operator-internal int32 table (per-channel multipliers, shifts) known at compile time. */
export function withInt32Table(name: string, values: readonly number[], body: (table: Buffer) => Stmt): Stmt {
  return withConstTable(name, 'int32', values, body);
}

function tableBytes(dtype: 'int8' | 'int16' | 'int32' | 'float32', values: readonly number[]): Uint8Array {
  if (dtype === 'int32') return int32Bytes(values);
  if (dtype === 'float32') return new Uint8Array(Float32Array.from(values).buffer);
  if (dtype === 'int8') return new Uint8Array(Int8Array.from(values).buffer);
  const bytes = new Uint8Array(values.length * 2);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt16(i * 2, v, true));
  return bytes;
}

/** An operator-internal constant table (multipliers, lookup tables) known at compile time. */
export function withConstTable(name: string, dtype: 'int8' | 'int16' | 'int32' | 'float32', values: readonly number[], body: (table: Buffer) => Stmt): Stmt {
  const table = makeBuffer(name, dtype, [values.length]);
  return allocateConst({ bufferVar: table.data, dtype, extents: [values.length], data: tableBytes(dtype, values), body: body(table) });
}

/** An operator-internal int16 table known at compile time (e.g. TFLite's int16 LUTs). */
export function withInt16Table(name: string, values: ArrayLike<number>, body: (table: Buffer) => Stmt): Stmt {
  const n = values.length;
  const bytes = new Uint8Array(n * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) view.setInt16(i * 2, values[i], true);
  const table = makeBuffer(name, 'int16', [n]);
  return allocateConst({ bufferVar: table.data, dtype: 'int16', extents: [n], data: bytes, body: body(table) });
}

/**
 * Operator-internal scratch. `global` scratch is planned by the USMP; `local` (one-element
 * accumulators) is left to the C compiler.
 */
export function withScratch(
  name: string,
  dtype: ScalarDType,
  shape: readonly number[],
  scope: 'global' | 'local',
  body: (buffer: Buffer) => Stmt,
): Stmt {
  const buffer = makeBuffer(name, dtype, shape, undefined, scope);
  const extent = shape.reduce((a, b) => a * b, 1);
  return allocate({ bufferVar: buffer.data, dtype, extents: [extent], storageScope: scope, body: body(buffer) });
}

/** A one-element local accumulator and the statement that resets it. */
export function withAccumulator(name: string, dtype: ScalarDType, body: (acc: Buffer) => Stmt): Stmt {
  return withScratch(name, dtype, [1], 'local', body);
}

export const accLoad = (acc: Buffer): Expr => bufferLoad(acc, [0]);
export const accStore = (acc: Buffer, value: ExprLike): Stmt => bufferStore(acc, value, [0]);
export const accAdd = (acc: Buffer, value: ExprLike): Stmt => bufferStore(acc, add(bufferLoad(acc, [0]), value), [0]);

/** `0 <= x < extent` */
export function inRange(x: Expr, extent: number): Expr {
  return and(ge(x, 0), lt(x, extent));
}

export interface PaddedInputSpec {
  readonly input: Buffer;
  /** NHWC shape of the input. */
  readonly shape: readonly number[];
  readonly padTop: number;
  readonly padLeft: number;
  /** Rows and columns the windows reach, counted from the top-left of the padding. */
  readonly paddedH: number;
  readonly paddedW: number;
  /** Value of the border: the input zero point (int8) or 0.0 (float), which contributes 0. */
  readonly padValue: Expr;
}

/**
 * TVM's PaddedInput: one operator-internal buffer holding the input surrounded by its
 * padding, so the convolution loops read it without bounds checks. Filling the border with
 * the value that contributes nothing reproduces TFLite's "skip outside taps" exactly.
 */
export function withPaddedInput(name: string, spec: PaddedInputSpec, body: (padded: Buffer) => Stmt): Stmt {
  const [n, h, w, c] = spec.shape;
  return withScratch(name, spec.input.dtype, [n, spec.paddedH, spec.paddedW, c], 'global', (padded) => {
    const fill = loopNest(['pn', 'ph', 'pw', 'pc'], [n, spec.paddedH, spec.paddedW, c], ([bn, ph, pw, pc]) => {
      const iy = sub(ph, spec.padTop);
      const ix = sub(pw, spec.padLeft);
      return ifThenElse(
        and(inRange(iy, h), inRange(ix, w)),
        bufferStore(padded, bufferLoad(spec.input, [bn, iy, ix, pc]), [bn, ph, pw, pc]),
        bufferStore(padded, spec.padValue, [bn, ph, pw, pc]),
      );
    });
    return seq([fill, body(padded)]);
  });
}

/** Extent a window walk reaches along one axis: (out-1)*stride + (k-1)*dilation + 1. */
export function reachedExtent(outSize: number, stride: number, kernel: number, dilation: number): number {
  return (outSize - 1) * stride + (kernel - 1) * dilation + 1;
}

/** Whether a window walk stays inside an unpadded input (no padded copy needed). */
export function needsPadding(padBefore: number, reached: number, inputSize: number): boolean {
  return padBefore > 0 || reached > inputSize;
}

export const imm = (v: number, dtype: ScalarDType = 'int32'): Expr => intImm(v, dtype);
export { mul };

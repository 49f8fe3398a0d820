/**
 * What the elementwise reference kernels share: mapping a per-element function over one
 * tensor or over two broadcast tensors (numpy rules, `broadcast.ts`), the dtype checks with
 * one-line errors, and TFLite's general quantized add/sub arithmetic (offsets, left shift,
 * rescale to twice the larger input scale, output stage) used by add and sub.
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { AddQuantParams, addQuantParams, floatActivationRange, integerRange, quantizedActivationRange } from '../../arith/quant-params';
import { DType } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { allocateTensorData, Tensor, TypedArray } from '../tensor';
import { broadcastSourceIndices } from './broadcast';

type Numeric = Exclude<TypedArray, BigInt64Array | BigUint64Array>;

/** Rejects an input or output dtype outside `allowed` with a one-line error naming op and position. */
export function requireDtype(ctx: KernelContext, dtype: DType, allowed: readonly DType[], role: string): void {
  if (!allowed.includes(dtype)) {
    throw ctx.fail(`unsupported ${role} dtype ${dtype} (supported: ${allowed.join(', ')})`);
  }
}

/** out[i] = fn(x[i]) over the output's elements; the output typed array narrows (callers clamp). */
export function mapUnary(ctx: KernelContext, fn: (x: number) => number, input: Tensor = ctx.input(0, 'input')): TypedArray {
  const out = allocateTensorData(ctx.outType) as Numeric;
  const x = input.data as Numeric;
  if (x.length !== out.length) throw ctx.fail(`input has ${x.length} elements, output ${out.length}`);
  for (let i = 0; i < out.length; i++) out[i] = fn(x[i]);
  return out;
}

/** out[i] = fn(lhs[.], rhs[.]) with numpy broadcasting of both operands to the output shape. */
export function mapBinary(ctx: KernelContext, fn: (a: number, b: number) => number, roles: readonly [string, string] = ['lhs', 'rhs']): TypedArray {
  const lhs = ctx.input(0, roles[0]);
  const rhs = ctx.input(1, roles[1]);
  const outShape = ctx.outType.shape;
  const li = broadcastSourceIndices(ctx, lhs.type.shape, outShape, roles[0]);
  const ri = broadcastSourceIndices(ctx, rhs.type.shape, outShape, roles[1]);
  const out = allocateTensorData(ctx.outType) as Numeric;
  const a = lhs.data as Numeric;
  const b = rhs.data as Numeric;
  for (let i = 0; i < out.length; i++) out[i] = fn(a[li[i]], b[ri[i]]);
  return out;
}

export const clampTo = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);

/** The output clamp of a quantized kernel with a fused activation (TFLite CalculateActivationRangeQuantized). */
export function outputRange(ctx: KernelContext): { min: number; max: number } {
  const qo = ctx.quant(ctx.outType, 'output');
  return quantizedActivationRange(ctx.string('activation', 'NONE'), ctx.outType.dtype, qo.scale, qo.zeroPoint);
}

/** The quantization of a binary kernel's two inputs and its output. */
export function binaryQuants(ctx: KernelContext): Record<'q1' | 'q2' | 'qo', { scale: number; zeroPoint: number }> {
  return {
    q1: ctx.quant(ctx.input(0, 'lhs').type, 'lhs'),
    q2: ctx.quant(ctx.input(1, 'rhs').type, 'rhs'),
    qo: ctx.quant(ctx.outType, 'output'),
  };
}

/**
 * TFLite's general quantized ADD (sign +1) / SUB (sign -1), int8 (left shift 20) and int16
 * (left shift 15): offsets, shift, rescale both to twice the larger input scale, combine,
 * rescale to the output, + zero point, clamp to the activation range.
 */
export function addSubQuantized(ctx: KernelContext, sign: 1 | -1): TypedArray {
  const dtype = ctx.outType.dtype;
  const { q1, q2, qo } = binaryQuants(ctx);
  const p: AddQuantParams = addQuantParams(q1.scale, q2.scale, qo.scale, dtype, sign === 1 ? 'add' : 'sub');
  const act = outputRange(ctx);
  const scale = 1 << p.leftShift;
  return mapBinary(ctx, (a, b) => {
    const s1 = multiplyByQuantizedMultiplier(Math.imul(a - q1.zeroPoint, scale), p.input1Multiplier, p.input1Shift);
    const s2 = multiplyByQuantizedMultiplier(Math.imul(b - q2.zeroPoint, scale), p.input2Multiplier, p.input2Shift);
    const raw = multiplyByQuantizedMultiplier((s1 + sign * s2) | 0, p.outputMultiplier, p.outputShift) + qo.zeroPoint;
    return clampTo(raw, act.min, act.max);
  });
}

/** Every input has the output's dtype (TFLite's elementwise kernels never mix types). */
export function requireSameDtypes(ctx: KernelContext, count: number): void {
  for (let i = 0; i < count; i++) {
    const t = ctx.input(i, `input ${i}`).type;
    if (t.dtype !== ctx.outType.dtype) throw ctx.fail(`input ${i} is ${t.dtype} but the output is ${ctx.outType.dtype}`);
  }
}

/** TFLite `CalculateActivationRange<int32_t>`: the float bounds cut to int32. */
export function int32ActivationRange(activation: string): { min: number; max: number } {
  const f = floatActivationRange(activation);
  const r = integerRange('int32');
  return { min: Math.max(f.min, r.min), max: Math.min(f.max, r.max) };
}

/**
 * The float32 and int32 paths ADD, SUB and MUL share: the operation (float32: rounded to
 * float32; int32: wrapping), clamped to the fused activation. Undefined for a quantized dtype,
 * whose rescaling is each operator's own.
 */
export function unquantizedBinary(
  ctx: KernelContext,
  float32: (a: number, b: number) => number,
  int32: (a: number, b: number) => number,
): TypedArray | undefined {
  const dtype = ctx.outType.dtype;
  if (dtype !== 'float32' && dtype !== 'int32') return undefined;
  const activation = ctx.string('activation', 'NONE');
  const act = dtype === 'float32' ? floatActivationRange(activation) : int32ActivationRange(activation);
  const op = dtype === 'float32' ? (a: number, b: number) => Math.fround(float32(a, b)) : int32;
  return mapBinary(ctx, (a, b) => clampTo(op(a, b), act.min, act.max));
}

export { integerRange };

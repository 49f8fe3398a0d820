/**
 * The elementwise unary operators (activations and math) as TFLite Micro's reference
 * kernels. float32: each op's float function below, in float arithmetic as the C
 * reference. int8/int16: the shared quantized element function (`arith/unaryQuantized.ts`).
 */
import { isPlainInt16Abs, QUANTIZED_UNARY_DTYPES, quantizedUnary } from '../../arith/unaryQuantized';
import { Kernel, KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { mapUnary, requireDtype, requireSameDtypes } from './elementwise';
import { cosF32, expF32, logF32, sinF32, tanhF32 } from '../../arith/floatMath';

const f32 = Math.fround;

/** TFLite's float logistic: saturate above ~16.6, exp(x) below -9, else 1 / (1 + exp(-x)). */
export function logisticFloat(x: number): number {
  if (x > 16.619047164916992) return 1;
  if (x < -9) return expF32(x);
  return f32(1 / f32(1 + expF32(-x)));
}

/**
 * TFLite's ROUND (reference_ops::RoundToNearest): floor, then up unless the fraction is
 * below one half or exactly one half on an even floor. Kept literal rather than
 * round-half-even by the FPU: -0.5 and -0.3 round to +0 (floor -1 plus 1), as TFLite's do.
 */
export function roundHalfToEven(x: number): number {
  const floor = Math.floor(x);
  const diff = f32(x - floor);
  return diff < 0.5 || (diff === 0.5 && floor % 2 === 0) ? floor : f32(floor + 1);
}

/** Float functions, keyed by op; leaky_relu's slope comes from the call. */
const FLOAT_FUNCTIONS: Readonly<Record<string, (x: number, alpha: number) => number>> = {
  relu: (x) => (x < 0 ? 0 : x),
  relu6: (x) => (x > 6 ? 6 : x < 0 ? 0 : x),
  relu_n1_to_1: (x) => (x > 1 ? 1 : x < -1 ? -1 : x),
  leaky_relu: (x, alpha) => (x > 0 ? x : f32(x * alpha)),
  hard_swish: (x) => f32(f32(x * Math.min(6, Math.max(0, f32(x + 3)))) / 6),
  logistic: logisticFloat,
  tanh: (x) => tanhF32(x),
  elu: (x) => (x < 0 ? f32(Math.expm1(x)) : x),
  abs: (x) => Math.abs(x),
  neg: (x) => -x,
  sqrt: (x) => f32(Math.sqrt(x)),
  rsqrt: (x) => f32(1 / f32(Math.sqrt(x))),
  exp: (x) => expF32(x),
  log: (x) => logF32(x),
  floor: (x) => Math.floor(x),
  ceil: (x) => Math.ceil(x),
  round: roundHalfToEven,
  sin: (x) => sinF32(x),
  cos: (x) => cosF32(x),
  square: (x) => f32(x * x),
};

/** Integer ops without quantization: neg and abs of int32. */
const INT32_FUNCTIONS: Readonly<Record<string, (x: number) => number>> = {
  neg: (x) => -x | 0,
  abs: (x) => Math.abs(x) | 0,
};

function unaryKernel(op: string): Kernel {
  return (ctx: KernelContext): TypedArray => {
    const dtype = ctx.outType.dtype;
    const allowed = ['float32', ...(QUANTIZED_UNARY_DTYPES[op] ?? []), ...(INT32_FUNCTIONS[op] ? ['int32' as const] : [])];
    requireDtype(ctx, dtype, allowed as never, 'output');
    requireSameDtypes(ctx, 1);
    if (dtype === 'float32') {
      const fn = FLOAT_FUNCTIONS[op];
      const alpha = f32(ctx.number('alpha', 0));
      return mapUnary(ctx, (x) => fn(x, alpha));
    }
    if (dtype === 'int32') return mapUnary(ctx, INT32_FUNCTIONS[op]);
    const input = ctx.input(0, 'input');
    // The Int16Array output narrows |-32768| back to -32768, as the C cast does.
    if (isPlainInt16Abs(op, input.type)) return mapUnary(ctx, Math.abs, input);
    const fn = quantizedUnary(op, dtype, ctx.quant(input.type, 'input'), ctx.quant(ctx.outType, 'output'), ctx.number('alpha', 0));
    if (typeof fn === 'string') throw ctx.fail(fn);
    if (op === 'rsqrt') {
      const zp = ctx.quant(input.type, 'input').zeroPoint;
      const negative = (input.data as Int8Array).findIndex((x) => x < zp);
      if (negative >= 0) throw ctx.fail(`rsqrt is only defined for non-negative values (element ${negative} is below the zero point ${zp})`);
    }
    return mapUnary(ctx, fn, input);
  };
}

export const UNARY_OPS = Object.keys(FLOAT_FUNCTIONS);

export const UNARY_KERNELS: ReadonlyArray<readonly [string, Kernel]> = UNARY_OPS.map((op) => [op, unaryKernel(op)] as const);

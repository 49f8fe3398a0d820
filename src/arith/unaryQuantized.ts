/**
 * The per-element function of every quantized (int8/int16) unary operator, built from the
 * tensors' quantization exactly as TFLite Micro's Prepare/Eval compute it. The interpreter
 * maps it over a tensor; the CPU lowering evaluates it on all 256 int8 inputs into a
 * lookup table, so both agree by construction and the kernels are checked once, here.
 */
import { DType } from '../ir/graph/types';
import {
  dequantizeElement,
  hardSwishElement,
  hardSwishParams,
  leakyReluElement,
  leakyReluParams,
  logisticInt8,
  relu6Bounds,
  reluElement,
  reluParams,
  rsqrtInt8,
  rsqrtOutputMultiplier,
  sigmoidOutputProblem,
  sigmoidParams,
  tanhInt8,
} from './elementwise';
import { multiplyByQuantizedMultiplier, quantizeMultiplier, roundHalfAwayFromZero } from './fixedpoint';
import { int16ZeroPointsProblem, integerRange } from './quant-params';
import { logisticInt16, sigmoidInt16Params, tanhInt16 } from './sigmoidInt16';

export interface QuantParams {
  readonly scale: number;
  readonly zeroPoint: number;
}

export type ElementFn = (x: number) => number;

/** Operators with a quantized path, and the dtypes TFLite Micro runs it for. */
export const QUANTIZED_UNARY_DTYPES: Readonly<Record<string, readonly DType[]>> = {
  relu: ['int8', 'int16'],
  relu6: ['int8', 'int16'],
  relu_n1_to_1: ['int8', 'int16'],
  leaky_relu: ['int8', 'int16'],
  hard_swish: ['int8'],
  logistic: ['int8', 'int16'],
  tanh: ['int8', 'int16'],
  elu: ['int8'],
  abs: ['int8', 'int16'],
  rsqrt: ['int8'],
};

const f32 = Math.fround;

/**
 * TFLite Micro's ABS of an int16 tensor without quantization (elementwise.cc keys on the
 * input's quantization type) is plain `std::abs`, narrowed back to int16: |-32768| wraps to
 * -32768. No scale, no zero point.
 */
export function isPlainInt16Abs(op: string, input: { readonly dtype: DType; readonly quant?: unknown }): boolean {
  return op === 'abs' && input.dtype === 'int16' && input.quant === undefined;
}

/**
 * The element function of quantized `op`, or a one-line reason TFLite Micro would reject
 * this combination. `alpha` is leaky_relu's slope.
 */
export function quantizedUnary(op: string, dtype: DType, input: QuantParams, output: QuantParams, alpha = 0): ElementFn | string {
  const dtypes = QUANTIZED_UNARY_DTYPES[op];
  if (!dtypes || !dtypes.includes(dtype)) return `${op} has no ${dtype} kernel (supported: float32${dtypes ? `, ${dtypes.join(', ')}` : ''})`;
  const range = integerRange(dtype);
  switch (op) {
    case 'relu': {
      // TFLM's ReluPrepare.
      const zeroPoints = dtype === 'int16' ? int16ZeroPointsProblem(op, input, output) : undefined;
      if (zeroPoints !== undefined) return zeroPoints;
      const p = reluParams(input.scale, input.zeroPoint, output.scale, output.zeroPoint, dtype, 0, Infinity);
      return (x) => reluElement(p, x);
    }
    case 'relu_n1_to_1': {
      const p = reluParams(input.scale, input.zeroPoint, output.scale, output.zeroPoint, dtype, -1, 1);
      return (x) => reluElement(p, x);
    }
    case 'relu6': {
      const { lo, hi } = relu6Bounds(input.scale, input.zeroPoint, dtype);
      return (x) => (x > hi ? hi : x < lo ? lo : x);
    }
    case 'leaky_relu': {
      const p = leakyReluParams(input.scale, input.zeroPoint, output.scale, output.zeroPoint, alpha);
      return (x) => leakyReluElement(p, x, dtype);
    }
    case 'hard_swish': {
      const p = hardSwishParams(input.scale, input.zeroPoint, output.scale, output.zeroPoint);
      if (typeof p === 'string') return p;
      return (x) => hardSwishElement(p, x, dtype);
    }
    case 'logistic':
    case 'tanh': {
      if (dtype === 'int16') {
        const p = sigmoidInt16Params(op, input, output);
        if (typeof p === 'string') return p;
        return op === 'logistic' ? (x) => logisticInt16(p, x) : (x) => tanhInt16(p, x);
      }
      const problem = sigmoidOutputProblem(op, output.scale, output.zeroPoint);
      if (problem) return problem;
      const p = sigmoidParams(input.scale, input.zeroPoint);
      return op === 'logistic' ? (x) => logisticInt8(p, x) : (x) => tanhInt8(p, x);
    }
    case 'elu':
      // TFLM's int8 ELU table (PopulateLookupTable): dequantize, exp(x) - 1 for x < 0 in
      // float, multiply by the inverse output scale, round, + zero point, clamp.
      return (x) => {
        const inverse = f32(1 / f32(output.scale));
        const v = dequantizeElement(x, input.scale, input.zeroPoint);
        const t = v < 0 ? f32(f32(Math.exp(v)) - 1) : v;
        const q = roundHalfAwayFromZero(f32(t * inverse)) + output.zeroPoint;
        return Math.min(Math.max(q, range.min), range.max);
      };
    case 'abs': {
      // TFLM's PrepareAbsRsqrt.
      const zeroPoints = dtype === 'int16' ? int16ZeroPointsProblem(op, input, output) : undefined;
      if (zeroPoints !== undefined) return zeroPoints;
      const rescale = f32(input.scale) !== f32(output.scale);
      const m = quantizeMultiplier(f32(f32(input.scale) / f32(output.scale)));
      return (x) => {
        const v = Math.abs(x - input.zeroPoint);
        const scaled = rescale ? multiplyByQuantizedMultiplier(v, m.multiplier, m.shift) : v;
        return Math.min(Math.max(scaled + output.zeroPoint, range.min), range.max);
      };
    }
    case 'rsqrt': {
      // TFLite fails the invoke on an input below the zero point (a negative value); the
      // interpreter does too, the table gives such inputs the largest output.
      const m = rsqrtOutputMultiplier(input.scale, output.scale);
      return (x) => (x < input.zeroPoint ? range.max : rsqrtInt8(m, input.zeroPoint, output.zeroPoint, x));
    }
    default:
      return `${op} has no quantized kernel`;
  }
}

/**
 * The elementwise unary operators (activations and math), exactly as the interpreter's
 * `kernels/unary.ts`: float32 as TIR float arithmetic and math intrinsics in the same
 * order; int8 as a 256-entry lookup table of the shared quantized element function;
 * int16 (relu family, leaky_relu, abs, logistic, tanh) as integer loops; int32 neg/abs and
 * int16 abs without quantization as plain integer abs.
 */
import { leakyReluParams, relu6Bounds, reluParams } from '../../arith/elementwise';
import { isPlainInt16Abs, QUANTIZED_UNARY_DTYPES, quantizedUnary } from '../../arith/unaryQuantized';
import { DType } from '../../ir/graph/types';
import { add, and, binary, bufferLoad, call, cast, eq, floatImm, ge, intImm, lt, max, min, mul, select, sub } from '../../ir/tir/builder';
import { Expr, Stmt } from '../../ir/tir/nodes';
import { effectiveSigmoidScaling, SIGMOID_SEGMENT_OFFSET, sigmoidInt16Params, sigmoidInt16Segments } from '../../arith/sigmoidInt16';
import { sanitizeName } from '../names';
import { OpLoweringInput, OperatorStrategy } from '../strategy';
import { loweringFail, numberAttr } from './attrs';
import { BindValue, elementwiseNest, int8LookupNest, narrow, requireDtypes } from './elementwise';
import { quantOf } from './quantParams';
import { clamp, i32, qMultiplyShift, withConstTable, wrapI32 } from './tirHelpers';

const F = floatImm;
const gt = (a: Expr, b: Expr): Expr => binary('GT', a, b);
const fcall = (op: string, x: Expr): Expr => call(op, 'float32', [x]);

/** TFLite's float logistic: saturate above ~16.6, exp(x) below -9, else 1 / (1 + exp(-x)). */
function logistic(x: Expr): Expr {
  const general = binary('Div', F(1), add(F(1), fcall('tir.exp', mul(x, F(-1)))));
  return select(gt(x, F(16.619047164916992)), F(1), select(lt(x, F(-9)), fcall('tir.exp', x), general));
}

/**
 * TFLite's ROUND as the interpreter's `roundHalfToEven`. The floor's parity is tested in
 * float (floor(f / 2) * 2 == f, exact wherever the fraction can be one half) instead of
 * TFLite's int cast, which would be undefined behaviour in C for floors beyond int32.
 */
function round(x: Expr): Expr {
  const fl = fcall('tir.floor', x);
  const diff = sub(x, fl);
  const even = eq(mul(fcall('tir.floor', mul(fl, F(0.5))), F(2)), fl);
  return select(binary('Or', lt(diff, F(0.5)), and(eq(diff, F(0.5)), even)), fl, add(fl, F(1)));
}

/**
 * HARD_SWISH x * min(6, max(0, x + 3)) / 6, the clamp as two Selects equal to Math.max and
 * Math.min for every value (NaN passes through, -0 becomes +0): a float Select is chosen on the
 * bits in C, where uma_min_f32's branch mispredicts whenever x + 3 crosses 6 on real data
 * (it ran at half TFLite Micro's speed on inputs in [-4, 4]). The sum and the clamped value
 * are bound, since the C emitter would repeat them in each condition and arm.
 */
function hardSwish(x: Expr, bind: BindValue): Expr {
  const shifted = bind('shifted', add(x, F(3)));
  const relu = bind('relu', select(binary('LE', shifted, F(0)), F(0), shifted));
  const relu6 = select(ge(relu, F(6)), F(6), relu);
  return binary('Div', mul(x, relu6), F(6));
}

const FLOAT_EXPRESSIONS: Readonly<Record<string, (x: Expr, alpha: number, bind: BindValue) => Expr>> = {
  relu: (x) => select(lt(x, F(0)), F(0), x),
  relu6: (x) => select(gt(x, F(6)), F(6), select(lt(x, F(0)), F(0), x)),
  relu_n1_to_1: (x) => select(gt(x, F(1)), F(1), select(lt(x, F(-1)), F(-1), x)),
  leaky_relu: (x, alpha) => select(gt(x, F(0)), x, mul(x, F(Math.fround(alpha)))),
  hard_swish: (x, _, bind) => hardSwish(x, bind),
  logistic,
  tanh: (x) => fcall('tir.tanh', x),
  elu: (x) => select(lt(x, F(0)), fcall('tir.expm1', x), x),
  abs: (x) => call('tir.abs', 'float32', [x]),
  // x * -1 keeps the sign of zero flipped, as C's unary minus.
  neg: (x) => mul(x, F(-1)),
  sqrt: (x) => fcall('tir.sqrt', x),
  rsqrt: (x) => binary('Div', F(1), fcall('tir.sqrt', x)),
  exp: (x) => fcall('tir.exp', x),
  log: (x) => fcall('tir.log', x),
  floor: (x) => fcall('tir.floor', x),
  ceil: (x) => fcall('tir.ceil', x),
  round,
  sin: (x) => fcall('tir.sin', x),
  cos: (x) => fcall('tir.cos', x),
  square: (x) => mul(x, x),
};

// INT32_MIN has no int32 negation: -x and |x| wrap to it, as the interpreter's `-x | 0` and
// TFLite's C++ in practice (a C signed overflow, and abs(INT32_MIN), are undefined).
const INT32_EXPRESSIONS: Readonly<Record<string, (x: Expr) => Expr>> = {
  neg: (x) => wrapI32(sub)(0, x),
  abs: (x) => select(lt(x, 0), wrapI32(sub)(0, x), x),
};

/** int16 loops for the quantized ops TFLite Micro runs on int16 (a 64Ki-entry table would not fit). */
function int16Expression(input: OpLoweringInput, op: string): ((x: Expr) => Expr) | undefined {
  const { call: c } = input;
  const qi = quantOf(c, input.argTypes[0], 'input');
  const qo = quantOf(c, c.type, 'output');
  const qms = (v: Expr, m: { multiplier: number; shift: number }): Expr => qMultiplyShift(v, intImm(m.multiplier), intImm(m.shift));
  switch (op) {
    case 'relu':
    case 'relu_n1_to_1': {
      const [lo, hi] = op === 'relu' ? [0, Infinity] : [-1, 1];
      const p = reluParams(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint, 'int16', lo, hi);
      return (x) => narrow('int16', add(qms(add(i32(x), -qi.zeroPoint), p.multiplier), qo.zeroPoint), p.min, p.max);
    }
    case 'relu6': {
      const b = relu6Bounds(qi.scale, qi.zeroPoint, 'int16');
      return (x) => cast('int16', clamp(i32(x), b.lo, b.hi));
    }
    case 'leaky_relu': {
      const p = leakyReluParams(qi.scale, qi.zeroPoint, qo.scale, qo.zeroPoint, numberAttr(c, 'alpha', 0));
      return (x) => {
        const v = add(i32(x), -qi.zeroPoint);
        return narrow('int16', add(select(ge(v, 0), qms(v, p.identity), qms(v, p.alpha)), qo.zeroPoint), -32768, 32767);
      };
    }
    case 'abs': {
      const rescale = Math.fround(qi.scale) !== Math.fround(qo.scale);
      const m = reluParams(qi.scale, 0, qo.scale, 0, 'int16', 0, Infinity).multiplier;
      return (x) => {
        const v = call('tir.abs', 'int32', [add(i32(x), -qi.zeroPoint)]);
        return narrow('int16', add(rescale ? qms(v, m) : v, qo.zeroPoint), -32768, 32767);
      };
    }
    default:
      return undefined;
  }
}

/**
 * int16 LOGISTIC / TANH in the segmented form of `sigmoidInt16Segments` (equal to TFLite's
 * kernels for every input, see there): rescale, clamp, then base + fraction * slope read at
 * the input's own segment from two operator-internal tables over both signs, a rounding bias
 * and a shift. No branch and no select: an element's work does not depend on its value.
 */
function sigmoidInt16Nest(input: OpLoweringInput, op: 'logistic' | 'tanh'): Stmt {
  const { call: c } = input;
  const p = sigmoidInt16Params(op, quantOf(c, input.argTypes[0], 'input'), quantOf(c, c.type, 'output'));
  if (typeof p === 'string') loweringFail(c, p);
  const s = effectiveSigmoidScaling(p);
  const g = sigmoidInt16Segments(op);
  const shr = (x: Expr, n: number): Expr => call('tir.shift_right', 'int32', [x, n]);
  const name = sanitizeName(c.name);
  return withConstTable(`${name}_sigmoid_base`, 'int32', g.base, (base) =>
    withConstTable(`${name}_sigmoid_slope`, 'int32', g.slope, (slope) =>
      elementwiseNest(input, ([x], bind) => {
        const scaled = shr(add(mul(i32(x), s.multiplier), s.round), s.shift);
        const clamped = bind('clamped', clamp(scaled, g.lo, g.hi));
        const segment = bind('segment', add(shr(clamped, g.fractionBits), SIGMOID_SEGMENT_OFFSET));
        const fraction = call('tir.bitwise_and', 'int32', [clamped, (1 << g.fractionBits) - 1]);
        const r = add(add(bufferLoad(base, [segment]), mul(fraction, bufferLoad(slope, [segment]))), g.bias);
        return cast('int16', shr(r, g.outShift));
      }),
    ),
  );
}

function unaryStrategy(op: string): OperatorStrategy {
  return (input) => {
    const { call: c } = input;
    const allowed: DType[] = ['float32', ...(QUANTIZED_UNARY_DTYPES[op] ?? []), ...(INT32_EXPRESSIONS[op] ? (['int32'] as const) : [])];
    const dtype = requireDtypes(input, allowed, op);
    if (input.argTypes[0].dtype !== dtype) loweringFail(c, `${op}: input is ${input.argTypes[0].dtype} but the output is ${dtype}`);
    if (dtype === 'float32') {
      const alpha = numberAttr(c, 'alpha', 0);
      return elementwiseNest(input, ([x], bind) => FLOAT_EXPRESSIONS[op](x, alpha, bind));
    }
    if (dtype === 'int32') return elementwiseNest(input, ([x]) => INT32_EXPRESSIONS[op](x));
    if (isPlainInt16Abs(op, input.argTypes[0])) return elementwiseNest(input, ([x]) => cast('int16', call('tir.abs', 'int32', [i32(x)])));
    const fn = quantizedUnary(op, dtype, quantOf(c, input.argTypes[0], 'input'), quantOf(c, c.type, 'output'), numberAttr(c, 'alpha', 0));
    if (typeof fn === 'string') loweringFail(c, fn);
    if (dtype === 'int8') return int8LookupNest(input, fn);
    if (op === 'logistic' || op === 'tanh') return sigmoidInt16Nest(input, op);
    const expr = int16Expression(input, op);
    if (!expr) loweringFail(c, `${op}: no int16 lowering`);
    return elementwiseNest(input, ([x]) => expr(x));
  };
}

export const UNARY_STRATEGIES: ReadonlyArray<readonly [string, OperatorStrategy]> = Object.keys(FLOAT_EXPRESSIONS).map(
  (op) => [op, unaryStrategy(op)] as const,
);

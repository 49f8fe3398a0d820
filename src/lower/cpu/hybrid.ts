/**
 * The stages hybrid (float32 activations, int8 weights) conv2d, depthwise_conv2d and dense
 * share around their int8 x int8 loops (numerics: src/arith/hybrid.ts): the input quantized
 * row by row by the `uma_ref_quantize_rows_f32_asym` runtime kernel into three
 * operator-internal global scratch buffers (`<tensor>_qin` int8 in the input's shape,
 * `<tensor>_qscale` float32 and `<tensor>_qzp` int32 per row, planned by the USMP), the int32
 * sum of the products (wrapping through uint32 when it could pass int32: `hybridSum`), and the
 * float output stage `(float)acc * filter_scale[oc] * row_scale[row] + bias[oc]`, clamped.
 * depthwise_conv2d uses TFLite's builtin recipe instead (HYBRID_RECIPE): the
 * `uma_ref_quantize_rows_f32_asym_tflite` kernel and `(float)acc * row_scale[row] * filter_scale[oc]`.
 */
import { HYBRID_RECIPE, HybridOp, hybridFilterScales } from '../../arith/hybrid';
import { add, bufferLoad, callExtern, cast, evaluate, floatImm, intImm, mul, seq, sub } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OpLoweringInput } from '../strategy';
import { activationAttr, loweringFail } from './attrs';
import { QUANTIZE_ROWS_F32_ASYM, QUANTIZE_ROWS_F32_ASYM_TFLITE } from './externKernels';
import { floatActivationRange } from './quantParams';
import { clamp, elementCount, i32, staticShape, withConstTable, withScratch, wrappedSum, WRAPPING_SUM_DTYPE, wrappingTerm } from './tirHelpers';

export interface HybridInput {
  /** The quantized input, same shape as the float input. */
  readonly q: Buffer;
  /** The accumulator's dtype (see `hybridSum`) and its zero. */
  readonly accDType: 'int32' | 'uint32';
  readonly zero: Expr;
  /** What weight `w` times quantized input `q` of row `row` adds to the accumulator: w * (q - zero point of the row). */
  readonly term: (w: Expr, q: Expr, row: Expr) => Expr;
  /** The float output of accumulator `acc` of output channel `oc` in row `row`. */
  readonly result: (acc: Expr, oc: Expr, row: Expr) => Expr;
}

/** How a hybrid operator sums its terms: the accumulator dtype, its zero, a term in it, the sum as int32. */
interface HybridSum {
  readonly accDType: 'int32' | 'uint32';
  readonly zero: Expr;
  readonly term: (product: Expr) => Expr;
  readonly read: (acc: Expr) => Expr;
}

/** A hybrid term w * (q - zp) is at most 128 * 255 in magnitude, so up to this many of them cannot pass int32. */
const INT32_SAFE_TERMS = Math.floor(0x7fffffff / (128 * 255));

/**
 * The int32 sum of an output's `terms` products, wrapping modulo 2^32 (the interpreter's
 * `| 0`, TFLite's int32 accumulators in practice) through uint32 once it could pass int32: a
 * row of equal positive values quantizes to 127 against zero point -128, so 127-weights give
 * 32385 a term and 66,312 terms pass int32 (a dense of that depth, a 3x3 conv over 7,400
 * channels). Below the bound a plain int32 sum is exact, and the C of existing models stays as it was.
 */
function hybridSum(terms: number): HybridSum {
  if (terms <= INT32_SAFE_TERMS) return { accDType: 'int32', zero: intImm(0), term: (p) => p, read: (acc) => acc };
  return { accDType: WRAPPING_SUM_DTYPE, zero: intImm(0, WRAPPING_SUM_DTYPE), term: wrappingTerm, read: wrappedSum };
}

/** Whether this call is a hybrid one: float32 input with int8 weights. */
export function isHybrid(input: OpLoweringInput): boolean {
  return input.argTypes[0].dtype === 'float32' && input.argTypes[1]?.dtype === 'int8';
}

/**
 * Quantizes `data` (rows of `rowLength` elements) before `body`, which reads the quantized
 * values and builds its outputs with the float output stage.
 */
export function withHybridInput(input: OpLoweringInput, op: HybridOp, data: Buffer, channels: number, rowLength: number, body: (h: HybridInput) => Stmt): Stmt {
  const { call, argTypes } = input;
  if (call.type.dtype !== 'float32') loweringFail(call, `hybrid ${op}: output dtype ${call.type.dtype} (float32 only)`);
  const biasType = argTypes[2];
  if (biasType && biasType.dtype !== 'float32') loweringFail(call, `hybrid ${op}: bias dtype ${biasType.dtype} (float32 only)`);
  const scales = hybridFilterScales(op, argTypes[1].quant, channels);
  if ('problem' in scales) loweringFail(call, `hybrid ${op}: ${scales.problem}`);
  const bias = input.args[2] as Buffer | undefined;
  const [lo, hi] = floatActivationRange(activationAttr(call));
  const rows = rowLength === 0 ? 0 : elementCount(data) / rowLength;
  const prefix = sanitizeName(call.name);
  const uniform = scales.scales.every((s) => s === scales.scales[0]);
  const tflite = HYBRID_RECIPE[op] === 'tflite';
  // Each output sums one weight row: the weight's elements per output channel.
  const sum = hybridSum(channels === 0 ? 0 : elementCount(input.args[1]) / channels);
  const withFilterScale = (inner: (scale: (oc: Expr) => Expr) => Stmt): Stmt =>
    uniform
      ? inner(() => floatImm(scales.scales[0]))
      : withConstTable(`${prefix}_filter_scale`, 'float32', scales.scales, (table) => inner((oc) => bufferLoad(table, [oc])));
  return withScratch(`${prefix}_qin`, 'int8', staticShape(data), 'global', (q) =>
    withScratch(`${prefix}_qscale`, 'float32', [rows], 'global', (rowScale) =>
      withScratch(`${prefix}_qzp`, 'int32', [rows], 'global', (rowZp) =>
        withFilterScale((filterScale) =>
          seq([
            evaluate(callExtern(tflite ? QUANTIZE_ROWS_F32_ASYM_TFLITE : QUANTIZE_ROWS_F32_ASYM, [data.data, q.data, rowScale.data, rowZp.data, rows, rowLength])),
            body({
              q,
              accDType: sum.accDType,
              zero: sum.zero,
              term: (w, x, row) => sum.term(mul(i32(w), sub(i32(x), bufferLoad(rowZp, [row])))),
              result: (acc, oc, row) => {
                const value = cast('float32', sum.read(acc));
                const scaled = tflite
                  ? mul(mul(value, bufferLoad(rowScale, [row])), filterScale(oc))
                  : mul(mul(value, filterScale(oc)), bufferLoad(rowScale, [row]));
                return clamp(bias ? add(scaled, bufferLoad(bias, [oc])) : scaled, floatImm(lo), floatImm(hi));
              },
            }),
          ]),
        ),
      ),
    ),
  );
}

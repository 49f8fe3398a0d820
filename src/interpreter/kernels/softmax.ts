/**
 * SOFTMAX over the last axis as TFLite Micro's reference kernels. float32 computes in
 * float; int8 input is TFLite's fixed-point algorithm: input differences from the row
 * maximum scaled to Q5.26, gemmlowp exp, a Q12.19 sum, a fixed-point reciprocal. The
 * output is int8 (zero point -128, scale 1/256) or int16 (zero point -32768, scale
 * 1/65536): the same pipeline, the final shift leaving as many bits as the output has.
 * int16 input (zero point 0) to int16 (scale 1/32768) is TFLite's LUT-based SoftmaxInt16.
 */
import { multiplyByQuantizedMultiplierGreaterThanOne, saturatingRoundingDoublingHighMul } from '../../arith/fixedpoint';
import { expOnNegativeValues, getReciprocal, rescale, roundedProbability } from '../../arith/gemmlowp';
import {
  integerRange,
  SOFTMAX_ACCUMULATION_INTEGER_BITS,
  SOFTMAX_SCALED_DIFF_INTEGER_BITS,
  softmaxOutputQuantProblem,
  softmaxQuantParams,
} from '../../arith/quant-params';
import { softmaxInt16Params, softmaxInt16QuantProblem, softmaxInt16Rows } from '../../arith/softmaxInt16';
import { lastAxisRows } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { expF32 } from '../../arith/floatMath';

export function softmax(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const out = allocateTensorData(ctx.outType);
  if (out.length !== input.data.length) throw ctx.fail('output and input element counts differ');
  const { rows, depth } = lastAxisRows(input.type);
  const beta = ctx.number('beta', 1);

  if (input.type.dtype === 'float32') {
    const x = input.data as Float32Array;
    const o = out as Float32Array;
    const f32 = Math.fround;
    const betaF = f32(beta);
    for (let r = 0; r < rows; r++) {
      const base = r * depth;
      let max = -3.4028234663852886e38;
      for (let c = 0; c < depth; c++) max = Math.max(max, x[base + c]);
      let sum = 0;
      for (let c = 0; c < depth; c++) {
        const e = expF32(f32(f32(x[base + c] - max) * betaF));
        o[base + c] = e;
        sum = f32(sum + e);
      }
      for (let c = 0; c < depth; c++) o[base + c] = f32(o[base + c] / sum);
    }
    return out;
  }

  const outDtype = ctx.outType.dtype;
  if (input.type.dtype === 'int16') {
    if (outDtype !== 'int16') throw ctx.unsupported(`dtypes ${input.type.dtype} -> ${outDtype}`);
    const inQ = ctx.quant(input.type, 'input');
    const outQ = ctx.quant(ctx.outType, 'output');
    const problem = softmaxInt16QuantProblem(inQ.zeroPoint, outQ.scale, outQ.zeroPoint);
    if (problem) throw ctx.fail(problem);
    const p = softmaxInt16Params(beta, inQ.scale);
    softmaxInt16Rows(input.data as Int16Array, out as Int16Array, rows, depth, p, p.expLut, p.oneOverOnePlusXLut);
    return out;
  }
  if (input.type.dtype !== 'int8' || (outDtype !== 'int8' && outDtype !== 'int16')) {
    throw ctx.unsupported(`dtypes ${input.type.dtype} -> ${outDtype}`);
  }
  const inQ = ctx.quant(input.type, 'input');
  const outQ = ctx.quant(ctx.outType, 'output');
  const problem = softmaxOutputQuantProblem(outDtype, outQ.scale, outQ.zeroPoint);
  if (problem) throw ctx.fail(problem);
  const p = softmaxQuantParams(beta, inQ.scale);
  const { min: outMin, max: outMax } = integerRange(outDtype);
  const outBits = outDtype === 'int8' ? 8 : 16;
  const { min: inMin } = integerRange('int8');
  const x = input.data as Int8Array;
  const o = out as Int8Array | Int16Array;
  const expOf = (diff: number): number =>
    expOnNegativeValues(
      multiplyByQuantizedMultiplierGreaterThanOne(diff, p.inputMultiplier, p.inputLeftShift),
      SOFTMAX_SCALED_DIFF_INTEGER_BITS,
    );
  for (let r = 0; r < rows; r++) {
    const base = r * depth;
    let maxInRow = inMin;
    for (let c = 0; c < depth; c++) maxInRow = Math.max(maxInRow, x[base + c]);
    let sumOfExps = 0;
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff >= p.diffMin) {
        sumOfExps = (sumOfExps + rescale(expOf(diff), 0, SOFTMAX_ACCUMULATION_INTEGER_BITS)) | 0;
      }
    }
    const { scale: shiftedScale, numBitsOverUnit } = getReciprocal(sumOfExps, SOFTMAX_ACCUMULATION_INTEGER_BITS);
    const exponent = numBitsOverUnit + 31 - outBits;
    if (exponent < 0) throw ctx.fail(`reciprocal exponent ${exponent} out of range`);
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff >= p.diffMin) {
        const unsat = roundedProbability(saturatingRoundingDoublingHighMul(shiftedScale, expOf(diff)), exponent);
        o[base + c] = Math.min(Math.max(unsat + outMin, outMin), outMax);
      } else {
        o[base + c] = outMin;
      }
    }
  }
  return out;
}

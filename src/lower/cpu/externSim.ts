/**
 * JavaScript versions of the host runtime kernels in `externKernels.ts`, in the shape the
 * TIR evaluator takes (`EvalOptions.externs`), so lowered modules that call them can be run
 * and compared with the reference interpreter without a C compiler. Each follows TFLite
 * Micro's reference kernel exactly, given the compile-time parameters lowering passes.
 */
import { multiplyByQuantizedMultiplierGreaterThanOne, roundingDivideByPOT, saturatingRoundingDoublingHighMul } from '../../arith/fixedpoint';
import { expOnNegativeValues, getReciprocal, rescale } from '../../arith/gemmlowp';
import { SOFTMAX_ACCUMULATION_INTEGER_BITS, SOFTMAX_SCALED_DIFF_INTEGER_BITS } from '../../arith/quant-params';
import { LoweringError } from '../../errors';
import { ArgValue, ExternFn, isPointer, Pointer } from '../../ir/tir/eval';
import { SOFTMAX_INT8 } from './externKernels';

function pointerArg(name: string, args: readonly ArgValue[], i: number): Pointer {
  const a = args[i];
  if (!isPointer(a)) throw new LoweringError(`${name}: argument ${i} must be a pointer`, { op: name });
  return a;
}

function intArg(name: string, args: readonly ArgValue[], i: number): number {
  const a = args[i];
  if (typeof a !== 'number') throw new LoweringError(`${name}: argument ${i} must be an integer`, { op: name });
  return a;
}

const INT8_MIN = -128;
const INT8_MAX = 127;

/** TFLite reference_ops::Softmax, int8 -> int8 (output zero point -128, scale 1/256). */
const softmaxInt8: ExternFn = (args) => {
  const input = pointerArg(SOFTMAX_INT8, args, 0);
  const output = pointerArg(SOFTMAX_INT8, args, 1);
  const [outer, depth, multiplier, leftShift, diffMin] = [2, 3, 4, 5, 6].map((i) => intArg(SOFTMAX_INT8, args, i));
  const x = new Int8Array(input.mem.buffer, input.mem.byteOffset + input.byteOffset, outer * depth);
  const y = new Int8Array(output.mem.buffer, output.mem.byteOffset + output.byteOffset, outer * depth);
  const expOf = (diff: number): number =>
    expOnNegativeValues(multiplyByQuantizedMultiplierGreaterThanOne(diff, multiplier, leftShift), SOFTMAX_SCALED_DIFF_INTEGER_BITS);
  for (let r = 0; r < outer; r++) {
    const base = r * depth;
    let maxInRow = INT8_MIN;
    for (let c = 0; c < depth; c++) maxInRow = Math.max(maxInRow, x[base + c]);
    let sumOfExps = 0;
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff >= diffMin) sumOfExps = (sumOfExps + rescale(expOf(diff), 0, SOFTMAX_ACCUMULATION_INTEGER_BITS)) | 0;
    }
    const { scale, numBitsOverUnit } = getReciprocal(sumOfExps, SOFTMAX_ACCUMULATION_INTEGER_BITS);
    const exponent = numBitsOverUnit + 31 - 8;
    for (let c = 0; c < depth; c++) {
      const diff = x[base + c] - maxInRow;
      if (diff >= diffMin) {
        const unsat = roundingDivideByPOT(saturatingRoundingDoublingHighMul(scale, expOf(diff)), exponent);
        y[base + c] = Math.min(Math.max(unsat + INT8_MIN, INT8_MIN), INT8_MAX);
      } else {
        y[base + c] = INT8_MIN;
      }
    }
  }
  return 0;
};

/** Pass as `EvalOptions.externs` (merge with other kernels as needed). */
export const LOWERING_EXTERN_SIMULATIONS: ReadonlyMap<string, ExternFn> = new Map([[SOFTMAX_INT8, softmaxInt8]]);

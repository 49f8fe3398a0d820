/**
 * JavaScript versions of the host runtime kernels in `externKernels.ts`, in the shape the
 * TIR evaluator takes (`EvalOptions.externs`), so lowered modules that call them can be run
 * and compared with the reference interpreter without a C compiler. Each follows TFLite
 * Micro's reference kernel exactly, given the compile-time parameters lowering passes.
 */
import { multiplyByQuantizedMultiplierGreaterThanOne, saturatingRoundingDoublingHighMul } from '../../arith/fixedpoint';
import { expOnNegativeValues, getReciprocal, rescale, roundedProbability } from '../../arith/gemmlowp';
import { SOFTMAX_ACCUMULATION_INTEGER_BITS, SOFTMAX_SCALED_DIFF_INTEGER_BITS } from '../../arith/quant-params';
import { LoweringError } from '../../errors';
import { ArgValue, bytesAt, ExternFn, isPointer, Pointer } from '../../ir/tir/eval';
import { INT16_LUT_SIZE, softmaxInt16Rows } from '../../arith/softmaxInt16';
import { l2NormalizeInt8Rows } from '../../arith/l2norm';
import { logSoftmaxInt8Rows } from '../../arith/logSoftmax';
import { LSTM_PARAM, runLstmInteger } from '../../arith/lstmInteger';
import { DetectionParams, detectionScratchLayout, packedDetectionLength, runDetectionPostprocess } from '../../arith/detectionPostprocess';
import { HybridRecipe, quantizeRowsAsymmetric } from '../../arith/hybrid';
import { SIGNAL_EXTERN_SIMULATIONS } from './signalExternSim';
import { DETECTION_POSTPROCESS, L2NORM_INT8, LOG_SOFTMAX_INT8, LSTM_INT16, LSTM_INT8, QUANTIZE_ROWS_F32_ASYM, QUANTIZE_ROWS_F32_ASYM_TFLITE, SOFTMAX_INT16, SOFTMAX_INT8, SOFTMAX_INT8_INT16 } from './externKernels';

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

/** How one int8-input softmax variant stores its output (TFLite has int8 and int16). */
interface SoftmaxOutputKind {
  readonly name: string;
  readonly bits: 8 | 16;
}

/**
 * TFLite reference_ops::Softmax with int8 input: the output zero point is the output
 * type's minimum and its scale 2^-bits (int8: -128, 1/256; int16: -32768, 1/65536).
 */
function softmaxFromInt8(kind: SoftmaxOutputKind): ExternFn {
  const outMin = -(2 ** (kind.bits - 1));
  const outMax = 2 ** (kind.bits - 1) - 1;
  return (args) => {
    const input = pointerArg(kind.name, args, 0);
    const output = pointerArg(kind.name, args, 1);
    const [outer, depth, multiplier, leftShift, diffMin] = [2, 3, 4, 5, 6].map((i) => intArg(kind.name, args, i));
    const x = new Int8Array(input.mem.buffer, input.mem.byteOffset + input.byteOffset, outer * depth);
    const y = outputView(kind, output, outer * depth);
    const expOf = (diff: number): number =>
      expOnNegativeValues(multiplyByQuantizedMultiplierGreaterThanOne(diff, multiplier, leftShift), SOFTMAX_SCALED_DIFF_INTEGER_BITS);
    for (let r = 0; r < outer; r++) {
      const base = r * depth;
      let maxInRow = -128;
      for (let c = 0; c < depth; c++) maxInRow = Math.max(maxInRow, x[base + c]);
      let sumOfExps = 0;
      for (let c = 0; c < depth; c++) {
        const diff = x[base + c] - maxInRow;
        if (diff >= diffMin) sumOfExps = (sumOfExps + rescale(expOf(diff), 0, SOFTMAX_ACCUMULATION_INTEGER_BITS)) | 0;
      }
      const { scale, numBitsOverUnit } = getReciprocal(sumOfExps, SOFTMAX_ACCUMULATION_INTEGER_BITS);
      const exponent = numBitsOverUnit + 31 - kind.bits;
      // The C kernel returns non-zero here (TFLite's TFLITE_CHECK); the simulation does too.
      if (exponent < 0) return -1;
      for (let c = 0; c < depth; c++) {
        const diff = x[base + c] - maxInRow;
        if (diff >= diffMin) {
          const unsat = roundedProbability(saturatingRoundingDoublingHighMul(scale, expOf(diff)), exponent);
          y[base + c] = Math.min(Math.max(unsat + outMin, outMin), outMax);
        } else {
          y[base + c] = outMin;
        }
      }
    }
    return 0;
  };
}

function outputView(kind: SoftmaxOutputKind, p: Pointer, n: number): Int8Array | Int16Array {
  const at = p.mem.byteOffset + p.byteOffset;
  if (kind.bits === 8) return new Int8Array(p.mem.buffer, at, n);
  if (at % 2 !== 0) throw new LoweringError(`${kind.name}: int16 output pointer is not 2-byte aligned`, { op: kind.name });
  return new Int16Array(p.mem.buffer, at, n);
}

function int16View(name: string, p: Pointer, n: number): Int16Array {
  const at = p.mem.byteOffset + p.byteOffset;
  if (at % 2 !== 0) throw new LoweringError(`${name}: int16 pointer is not 2-byte aligned`, { op: name });
  return new Int16Array(p.mem.buffer, at, n);
}

/** TFLite reference_ops::SoftmaxInt16 with the tables lowering passes. */
const softmaxInt16: ExternFn = (args) => {
  const name = SOFTMAX_INT16;
  const [outer, depth, inputMultiplier, inputLeftShift] = [2, 3, 4, 5].map((i) => intArg(name, args, i));
  const x = int16View(name, pointerArg(name, args, 0), outer * depth);
  const y = int16View(name, pointerArg(name, args, 1), outer * depth);
  const expLut = int16View(name, pointerArg(name, args, 6), INT16_LUT_SIZE);
  const recipLut = int16View(name, pointerArg(name, args, 7), INT16_LUT_SIZE);
  softmaxInt16Rows(x, y, outer, depth, { inputMultiplier, inputLeftShift }, expLut, recipLut);
  return 0;
};

/** TFLite reference_integer_ops::L2Normalization (src/arith/l2norm.ts). */
const l2NormInt8: ExternFn = (args) => {
  const name = L2NORM_INT8;
  const [outer, depth, zeroPoint] = [2, 3, 4].map((i) => intArg(name, args, i));
  const x = pointerArg(name, args, 0);
  const y = pointerArg(name, args, 1);
  const n = outer * depth;
  // bytesAt checks both ranges against their regions.
  const xb = bytesAt(x, n);
  const yb = bytesAt(y, n);
  const input = new Int8Array(xb.buffer, xb.byteOffset, n);
  const output = new Int8Array(yb.buffer, yb.byteOffset, n);
  l2NormalizeInt8Rows(input, output, outer, depth, zeroPoint);
  return 0;
};

/** Hybrid input quantization, row by row (src/arith/hybrid.ts), by XNNPack's or TFLite's builtin recipe. */
const quantizeRowsF32Asym = (name: string, recipe: HybridRecipe): ExternFn => (args) => {
  const [rows, rowLength] = [4, 5].map((i) => intArg(name, args, i));
  const n = rows * rowLength;
  // Copies: the views may not be 4-byte aligned within their regions.
  const input = new Float32Array(bytesAt(pointerArg(name, args, 0), n * 4).slice().buffer);
  const q = quantizeRowsAsymmetric(input, rows, rowLength, undefined, recipe);
  bytesAt(pointerArg(name, args, 1), n).set(new Uint8Array(q.q.buffer));
  bytesAt(pointerArg(name, args, 2), rows * 4).set(new Uint8Array(q.scales.buffer));
  bytesAt(pointerArg(name, args, 3), rows * 4).set(new Uint8Array(q.zeroPoints.buffer));
  return 0;
};

/** TFLite reference_integer_ops::LogSoftmax (src/arith/logSoftmax.ts). */
const logSoftmaxInt8: ExternFn = (args) => {
  const name = LOG_SOFTMAX_INT8;
  const [outer, depth, inputMultiplier, inputLeftShift, reverseScalingDivisor, reverseScalingLeftShift, diffMin] = [2, 3, 4, 5, 6, 7, 8].map((i) =>
    intArg(name, args, i),
  );
  const n = outer * depth;
  const xb = bytesAt(pointerArg(name, args, 0), n);
  const yb = bytesAt(pointerArg(name, args, 1), n);
  logSoftmaxInt8Rows(new Int8Array(xb.buffer, xb.byteOffset, n), new Int8Array(yb.buffer, yb.byteOffset, n), outer, depth, {
    inputMultiplier,
    inputLeftShift,
    reverseScalingDivisor,
    reverseScalingLeftShift,
    diffMin,
  });
  return 0;
};

function typedView<T extends Int8Array | Int16Array | Int32Array>(
  ctor: { new (b: ArrayBufferLike, at: number, n: number): T; BYTES_PER_ELEMENT: number },
  name: string,
  p: Pointer,
  n: number,
): T {
  const at = p.mem.byteOffset + p.byteOffset;
  if (at % ctor.BYTES_PER_ELEMENT !== 0) throw new LoweringError(`${name}: pointer is not ${ctor.BYTES_PER_ELEMENT}-byte aligned`, { op: name });
  return new ctor(p.mem.buffer, at, n);
}

/** TFLite Micro's integer LSTM over the packed parameters lowering passes (int8 or int16 activations). */
function lstmInteger(name: string, wide: boolean): ExternFn {
  return (args) => {
    const ptr = (i: number): Pointer => pointerArg(name, args, i);
    const p = typedView(Int32Array, name, ptr(17), LSTM_PARAM.size);
    const [time, batch, n, units] = [p[LSTM_PARAM.time], p[LSTM_PARAM.batch], p[LSTM_PARAM.inputSize], p[LSTM_PARAM.units]];
    const act = (i: number, count: number): Int8Array | Int16Array => (wide ? typedView(Int16Array, name, ptr(i), count) : typedView(Int8Array, name, ptr(i), count));
    const bias = (i: number): Int32Array | BigInt64Array => {
      if (!wide) return typedView(Int32Array, name, ptr(i), units);
      const at = ptr(i).mem.byteOffset + ptr(i).byteOffset;
      if (at % 8 !== 0) throw new LoweringError(`${name}: int64 pointer is not 8-byte aligned`, { op: name });
      return new BigInt64Array(ptr(i).mem.buffer, at, units);
    };
    runLstmInteger(p, {
      input: act(0, time * batch * n),
      inputWeights: [1, 2, 3, 4].map((i) => typedView(Int8Array, name, ptr(i), units * n)),
      recurrentWeights: [5, 6, 7, 8].map((i) => typedView(Int8Array, name, ptr(i), units * units)),
      biases: [9, 10, 11, 12].map(bias),
      hidden: act(13, batch * units),
      cell: typedView(Int16Array, name, ptr(14), batch * units),
      output: act(15, time * batch * units),
    });
    return 0;
  };
}

function floatArg(name: string, args: readonly ArgValue[], i: number): number {
  const a = args[i];
  if (typeof a !== 'number') throw new LoweringError(`${name}: argument ${i} must be a number`, { op: name });
  return Math.fround(a);
}

function float32View(name: string, p: Pointer, n: number): Float32Array {
  const b = bytesAt(p, n * 4);
  if (b.byteOffset % 4 !== 0) throw new LoweringError(`${name}: float pointer is not 4-byte aligned`, { op: name });
  return new Float32Array(b.buffer, b.byteOffset, n);
}

/** uma_ref_detection_postprocess over src/arith/detectionPostprocess.ts (regions bounds-checked). */
const detectionPostprocess: ExternFn = (args) => {
  const name = DETECTION_POSTPROCESS;
  const [numBoxes, boxStride, classesWithBackground, numClasses, maxDetections, classesPerAnchor, detectionsPerClass, regular, outputRows] = [
    6, 7, 8, 9, 10, 11, 12, 13, 14,
  ].map((i) => intArg(name, args, i));
  const [scoreThreshold, iouThreshold, yScale, xScale, hScale, wScale] = [15, 16, 17, 18, 19, 20].map((i) => floatArg(name, args, i));
  const p: DetectionParams = {
    numBoxes,
    boxStride,
    classesWithBackground,
    numClasses,
    maxDetections,
    classesPerAnchor,
    detectionsPerClass,
    useRegularNms: regular !== 0,
    scoreThreshold,
    iouThreshold,
    yScale,
    xScale,
    hScale,
    wScale,
    outputRows,
  };
  const layout = detectionScratchLayout(p);
  const ints = bytesAt(pointerArg(name, args, 5), layout.ints * 4);
  if (ints.byteOffset % 4 !== 0) throw new LoweringError(`${name}: int32 pointer is not 4-byte aligned`, { op: name });
  return runDetectionPostprocess(
    p,
    float32View(name, pointerArg(name, args, 0), numBoxes * boxStride),
    float32View(name, pointerArg(name, args, 1), numBoxes * classesWithBackground),
    float32View(name, pointerArg(name, args, 2), numBoxes * 4),
    float32View(name, pointerArg(name, args, 3), packedDetectionLength(outputRows)),
    float32View(name, pointerArg(name, args, 4), layout.floats),
    new Int32Array(ints.buffer, ints.byteOffset, layout.ints),
  );
};

/** Pass as `EvalOptions.externs` (merge with other kernels as needed). */
export const LOWERING_EXTERN_SIMULATIONS: ReadonlyMap<string, ExternFn> = new Map([
  [SOFTMAX_INT8, softmaxFromInt8({ name: SOFTMAX_INT8, bits: 8 })],
  [SOFTMAX_INT8_INT16, softmaxFromInt8({ name: SOFTMAX_INT8_INT16, bits: 16 })],
  [SOFTMAX_INT16, softmaxInt16],
  [L2NORM_INT8, l2NormInt8],
  [QUANTIZE_ROWS_F32_ASYM, quantizeRowsF32Asym(QUANTIZE_ROWS_F32_ASYM, 'xnnpack')],
  [QUANTIZE_ROWS_F32_ASYM_TFLITE, quantizeRowsF32Asym(QUANTIZE_ROWS_F32_ASYM_TFLITE, 'tflite')],
  [LOG_SOFTMAX_INT8, logSoftmaxInt8],
  [LSTM_INT8, lstmInteger(LSTM_INT8, false)],
  [LSTM_INT16, lstmInteger(LSTM_INT16, true)],
  [DETECTION_POSTPROCESS, detectionPostprocess],
  ...SIGNAL_EXTERN_SIMULATIONS,
]);

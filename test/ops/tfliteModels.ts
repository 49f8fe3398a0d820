/** Single-operator .tflite models built with the TfliteWriter, and random inputs for them. */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, WriterDType, WriterOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { errorOf } from '../helpers/errorOf';
import { seededRandom } from '../../src/util/random';

export interface TensorSpec {
  readonly shape: readonly number[];
  readonly dtype: WriterDType;
  readonly quant?: WriterQuantization;
  /** Constant data (a parameter input); absent = a model input. */
  readonly data?: readonly number[];
}

export interface SingleOp {
  readonly name: string;
  readonly op: string;
  readonly inputs: readonly (TensorSpec | null)[];
  readonly outputs: readonly TensorSpec[];
  readonly options?: WriterOptions;
}

/** The error importing the single-operator model of `c` throws; fails the test when it imports. */
export function importErrorOf(c: SingleOp): Error {
  return errorOf(() => importTflite(singleOpTflite(c), 'm.tflite'));
}

export function singleOpTflite(c: SingleOp): Uint8Array {
  const w = new TfliteWriter();
  const inputs = c.inputs.map((t, i) => {
    if (!t) return -1;
    return t.data ? w.addConstant({ name: `p${i}`, ...t, data: t.data }) : w.addInput({ name: `x${i}`, ...t });
  });
  const outputs = c.outputs.map((t, i) => w.addTensor({ name: `y${i}`, ...t }));
  w.addOperator({ op: c.op, inputs, outputs, options: c.options });
  outputs.forEach((o) => w.markOutput(o));
  return w.finish();
}

/** Random bytes for every non-constant input: full-range integers, floats in [-4, 4). */
export function randomInputs(c: SingleOp, seed: number): Uint8Array[] {
  const r = seededRandom(seed);
  return c.inputs
    .filter((t): t is TensorSpec => !!t && !t.data)
    .map((t) => {
      const n = t.shape.reduce((a, b) => a * b, 1);
      switch (t.dtype) {
        case 'float32':
          return new Uint8Array(Float32Array.from({ length: n }, () => r() * 8 - 4).buffer);
        case 'int8':
          return new Uint8Array(Int8Array.from({ length: n }, () => Math.floor(r() * 256) - 128).buffer);
        case 'int16':
          return new Uint8Array(Int16Array.from({ length: n }, () => Math.floor(r() * 65536) - 32768).buffer);
        case 'int32':
          return new Uint8Array(Int32Array.from({ length: n }, () => Math.floor(r() * 2 ** 32) - 2 ** 31).buffer);
        case 'int64':
          return new Uint8Array(BigInt64Array.from({ length: n }, () => BigInt(Math.floor(r() * 2 ** 32) - 2 ** 31) * 4099n).buffer);
        case 'bool':
          return Uint8Array.from({ length: n }, () => (r() < 0.5 ? 1 : 0));
        default:
          throw new Error(`no random data for ${t.dtype}`);
      }
    });
}

export const Q8 = { scale: [0.05], zeroPoint: [-3] };
export const Q16 = { scale: [0.001], zeroPoint: [0] };

/** The spec of a tensor of `dtype` with its test quantization. */
export function t(shape: readonly number[], dtype: WriterDType, data?: readonly number[]): TensorSpec {
  const quant = dtype === 'int8' ? Q8 : dtype === 'int16' ? Q16 : undefined;
  return data ? { shape, dtype, data } : { shape, dtype, quant };
}
export const i32c = (values: readonly number[], shape: readonly number[] = [values.length]): TensorSpec => ({ shape, dtype: 'int32', data: values });

/** All cases side by side in one model (inputs and outputs in case order): one gcc build for many operators. */
export function combinedTflite(cases: readonly SingleOp[]): Uint8Array {
  const w = new TfliteWriter();
  cases.forEach((c, k) => {
    const inputs = c.inputs.map((t, i) => {
      if (!t) return -1;
      return t.data ? w.addConstant({ name: `c${k}_p${i}`, ...t, data: t.data }) : w.addInput({ name: `c${k}_x${i}`, ...t });
    });
    const outputs = c.outputs.map((t, i) => w.addTensor({ name: `c${k}_y${i}`, ...t }));
    w.addOperator({ op: c.op, inputs, outputs, options: c.options });
    outputs.forEach((o) => w.markOutput(o));
  });
  return w.finish();
}

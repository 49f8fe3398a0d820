/**
 * Operator/dtype combinations a differential fuzz found LiteRT runs and uma-ts refuses: TFLite
 * Micro's kernels refuse every one of them (tflmKernels.ts names the kernel file each was read
 * from), so uma-ts refuses them too, and its one-line error says TFLite Micro is why. LiteRT
 * runs each test model, so the refusal is not a malformed model's.
 */
import { UnsupportedOperatorError } from '../../src/errors';
import { checkTflite, formatUnsupportedList, importTflite } from '../../src/frontend/tflite';
import { NO_TFLM_KERNEL, TFLM_KERNEL_DTYPES } from '../../src/frontend/tflite/converters/tflmKernels';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { BuiltinOptionsType } from '../../src/frontend/tflite/schema';
import { runLiteRtBatch } from '../oracle/litert';
import { errorOf } from '../helpers/errorOf';
import { i32c, Q16, Q8, SingleOp, singleOpTflite, TensorSpec } from './tfliteModels';

const i32 = (shape: number[], data?: number[]): TensorSpec => ({ shape, dtype: 'int32', data });
const i8 = (shape: number[], data?: number[]): TensorSpec => ({ shape, dtype: 'int8', quant: Q8, data });

function reduceCase(op: string, input: TensorSpec, output: TensorSpec): SingleOp {
  return { name: op, op, inputs: [input, i32c([1])], outputs: [output], options: tfliteOptions.reducer(false) };
}

const binary = (op: string, a: TensorSpec, b: TensorSpec, out: TensorSpec): SingleOp => ({ name: op, op, inputs: [a, b], outputs: [out] });
const unary = (op: string, a: TensorSpec): SingleOp => ({ name: op, op, inputs: [a], outputs: [{ ...a, data: undefined }] });

/** [case, its model, the import error (without the common "... on OP at operator #0 in m.tflite" middle)]. */
const REFUSED: readonly [string, SingleOp, string][] = [
  ['int32 SUM', reduceCase('SUM', i32([2, 3]), i32([2])), 'input dtype int32 (supported: float32, int8, int16)|reduce_common.cc'],
  ['int32 MEAN', reduceCase('MEAN', i32([2, 3]), i32([2])), 'input dtype int32 (supported: float32, int8, int16)|reduce_common.cc'],
  ['int32 REDUCE_MAX', reduceCase('REDUCE_MAX', i32([2, 3]), i32([2])), 'input dtype int32 (supported: float32, int8, int16)|reduce_common.cc'],
  ['int32 REDUCE_MIN', reduceCase('REDUCE_MIN', i32([2, 3]), i32([2])), 'input dtype int32 (supported: float32, int8, int16)|reduce_common.cc'],
  [
    'int32 ARG_MAX',
    { name: 'a', op: 'ARG_MAX', inputs: [i32([2, 3]), i32c([1])], outputs: [i32([2])], options: tfliteOptions.argMax('int32') },
    'input dtype int32 (supported: float32, int8, int16)|arg_min_max.cc',
  ],
  [
    'int32 ARG_MIN',
    { name: 'a', op: 'ARG_MIN', inputs: [i32([2, 3]), i32c([1])], outputs: [i32([2])], options: tfliteOptions.argMin('int32') },
    'input dtype int32 (supported: float32, int8, int16)|arg_min_max.cc',
  ],
  [
    'int32 TRANSPOSE',
    { name: 't', op: 'TRANSPOSE', inputs: [i32([2, 3]), i32c([1, 0])], outputs: [i32([3, 2])], options: tfliteOptions.empty(BuiltinOptionsType.TransposeOptions) },
    'input dtype int32 (supported: float32, int8, int16)|transpose.cc',
  ],
  [
    'int32 CUMSUM',
    { name: 'c', op: 'CUMSUM', inputs: [i32([2, 3]), i32c([1], [])], outputs: [i32([2, 3])], options: tfliteOptions.cumsum() },
    'input dtype int32 (supported: float32, int8)|cumsum.cc',
  ],
  [
    'int32 SELECT_V2',
    { name: 's', op: 'SELECT_V2', inputs: [{ shape: [4], dtype: 'bool' }, i32([4]), i32([4])], outputs: [i32([4])] },
    'input 1 dtype int32 (supported: float32, int8, int16)|select.cc',
  ],
  ['int32 FLOOR_DIV', binary('FLOOR_DIV', i32([4]), i32([4], [3, -3, 7, -1]), i32([4])), 'input 0 type int32 (supported: float32)|floor_div.cc'],
  ['int8 FLOOR_DIV', binary('FLOOR_DIV', i8([4]), i8([4], [3, -2, 7, 10]), i8([4])), 'input 0 type int8 (supported: float32)|floor_div.cc'],
  ['int32 FLOOR_MOD', binary('FLOOR_MOD', i32([4]), i32([4], [3, -3, 7, -1]), i32([4])), 'input 0 type int32 (supported: float32)|floor_mod.cc'],
  ['int8 NEG', unary('NEG', i8([4])), 'input 0 type int8 (supported: float32, int32)|neg.cc'],
  ['int8 EXP', unary('EXP', i8([4])), 'input 0 type int8 (supported: float32)|exp.cc'],
  [
    'int16 RESIZE_BILINEAR',
    {
      name: 'r',
      op: 'RESIZE_BILINEAR',
      inputs: [{ shape: [1, 2, 2, 1], dtype: 'int16', quant: Q16 }, i32c([4, 4])],
      outputs: [{ shape: [1, 4, 4, 1], dtype: 'int16', quant: Q16 }],
      options: tfliteOptions.resizeBilinear(),
    },
    'input dtype int16 (supported: float32, int8)|resize_bilinear.cc',
  ],
];

const REDUCE_PROD: SingleOp = reduceCase('REDUCE_PROD', { shape: [2, 3], dtype: 'float32' }, { shape: [2], dtype: 'float32' });

function expectedMessage(c: SingleOp, expected: string): string {
  const [problem, file] = expected.split('|');
  const dtype = /dtype (\w+)|type (\w+)/.exec(problem)!.slice(1).find((d) => d !== undefined);
  return `unsupported ${problem} on ${c.op} at operator #0 in m.tflite: TFLite Micro's ${c.op} kernel (${file}) does not support ${dtype} inputs`;
}

describe("combinations LiteRT runs and TFLite Micro's kernels refuse", () => {
  it.each(REFUSED)('%s is refused, saying TFLite Micro refuses it', (_, c, expected) => {
    const e = errorOf(() => importTflite(singleOpTflite(c), 'm.tflite'));
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toBe(expectedMessage(c, expected));
  });

  it('REDUCE_PROD is refused, saying TFLite Micro has no kernel for it', () => {
    const bytes = singleOpTflite(REDUCE_PROD);
    const e = errorOf(() => importTflite(bytes, 'm.tflite'));
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toBe(
      'unsupported TFLite operator REDUCE_PROD (builtin 81) at operator #0 in m.tflite: TFLite Micro has no REDUCE_PROD kernel (its reduce kernels (reduce.cc) are MEAN, SUM, REDUCE_MAX and REDUCE_MIN)',
    );
    // `inspect`'s list says so too, where other unknown operators say only "operator not supported".
    expect(formatUnsupportedList(checkTflite(bytes, 'm.tflite').unsupported)).toEqual([
      '  REDUCE_PROD x1, first at operator #0: operator not supported: TFLite Micro has no REDUCE_PROD kernel (its reduce kernels (reduce.cc) are MEAN, SUM, REDUCE_MAX and REDUCE_MIN)',
    ]);
  });

  it('a dtype uma-ts refuses for another reason than the TFLite Micro kernel does not blame TFLite Micro', () => {
    // TFLite Micro's CUMSUM takes an int32 axis only, but the refusal is of the axis, not of an input dtype.
    const axis64: SingleOp = {
      name: 'c',
      op: 'CUMSUM',
      inputs: [{ shape: [4], dtype: 'float32' }, { shape: [], dtype: 'int64', data: [0] }],
      outputs: [{ shape: [4], dtype: 'float32' }],
      options: tfliteOptions.cumsum(),
    };
    expect(errorOf(() => importTflite(singleOpTflite(axis64), 'm.tflite')).message).toBe(
      'unsupported axis dtype int64 (supported: int32) on CUMSUM at operator #0 in m.tflite',
    );
    // GATHER_ND has no kernel list here: its refusal stays uma-ts's own.
    const gatherNd: SingleOp = {
      name: 'g',
      op: 'GATHER_ND',
      inputs: [{ shape: [3, 2], dtype: 'int16', quant: Q16 }, i32c([1], [1, 1])],
      outputs: [{ shape: [1, 2], dtype: 'int16', quant: Q16 }],
    };
    expect(errorOf(() => importTflite(singleOpTflite(gatherNd), 'm.tflite')).message).toBe(
      'unsupported params dtype int16 (supported: float32, int8) on GATHER_ND at operator #0 in m.tflite',
    );
  });

  it('every kernel list names an operator a refused case exercises', () => {
    const exercised = new Set([...REFUSED.map(([, c]) => c.op), REDUCE_PROD.op]);
    expect([...TFLM_KERNEL_DTYPES.keys(), ...NO_TFLM_KERNEL.keys()].filter((op) => !exercised.has(op))).toEqual([]);
  });

  it('LiteRT runs every refused model (the refusal is the target kernel’s, not a malformed model’s)', () => {
    const models = [...REFUSED.map(([, c]) => c), REDUCE_PROD];
    const inputsOf = (c: SingleOp): Uint8Array[] =>
      c.inputs
        .filter((t): t is TensorSpec => !!t && !t.data)
        .map((t) => {
          const n = t.shape.reduce((a, b) => a * b, 1);
          const bytes = { float32: 4, int32: 4, int16: 2, int8: 1, bool: 1 }[t.dtype as string]!;
          // Small positive values: every operator above is defined on them (EXP's LUT, FLOOR_DIV's dividend).
          const data = new Uint8Array(n * bytes);
          for (let i = 0; i < n; i++) data[i * bytes] = 1 + (i % 5);
          return data;
        });
    const results = runLiteRtBatch(models.map((c) => ({ model: singleOpTflite(c), inputs: inputsOf(c) })));
    const failed = results.map((r, i) => ('error' in r ? `${models[i].op}: ${r.error}` : null)).filter((m) => m !== null);
    expect(failed).toEqual([]);
  });
});

/**
 * MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_ALL, REDUCE_ANY, ARG_MAX, ARG_MIN: interpreter (TFLite Micro reference
 * semantics) vs TIR evaluator vs generated C, float32, int8 and int16, with TFLite Micro's
 * kernel-test figures where they exist.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { TensorType } from '../../src/ir/graph/types';
import { f32, float32Bytes, i8, int8Bytes, q } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, OpCase } from './opCases';

const i16 = (shape: number[], scale: number, zp = 0): TensorType => tensorType(shape, 'int16', q(scale, zp));

const b8 = (shape: number[]): TensorType => tensorType(shape, 'bool');
/** Rows: all true, one false, all false. */
const BOOLS_3x4 = Uint8Array.from([1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0]);

function reduceCase(op: string, input: TensorType, axes: number[], keep: boolean, out: TensorType, label = ''): OpCase {
  return { label: `${op} ${label || `[${input.shape}] ${input.dtype} axes [${axes}]${keep ? ' keep' : ''}`}`, op, input, out, attrs: { axes, keep_dims: keep } };
}

const CASES: OpCase[] = [
  // MEAN float: the 4-d spatial case, other axes, everything, no axes.
  reduceCase('mean', f32([1, 4, 5, 3]), [1, 2], true, f32([1, 1, 1, 3])),
  reduceCase('mean', f32([2, 3, 4]), [0, 2], false, f32([3])),
  reduceCase('mean', f32([3, 5]), [0, 1], false, f32([])),
  reduceCase('mean', f32([2, 3]), [], false, f32([2, 3])),
  // MEAN int8 keeping the quantization (integer sum / n), and requantizing.
  reduceCase('mean', i8([1, 4, 4, 3], 0.05, -3), [1, 2], true, i8([1, 1, 1, 3], 0.05, -3), 'int8 same quantization'),
  reduceCase('mean', i8([2, 3, 5], 0.05, 10), [2], false, i8([2, 3], 0.05, 10), 'int8 same quantization, last axis'),
  reduceCase('mean', i8([1, 5, 5, 4], 0.05, -3), [1, 2], true, i8([1, 1, 1, 4], 0.01, 5), 'int8 requantized spatial'),
  reduceCase('mean', i8([2, 3, 4], 0.1, 7), [0, 2], false, i8([3], 0.003, -128), 'int8 requantized, saturating'),
  reduceCase('mean', i16([1, 3, 3, 5], 0.002), [1, 2], true, i16([1, 1, 1, 5], 0.0005), 'int16 requantized'),
  reduceCase('mean', i16([2, 6], 0.01), [1], false, i16([2], 0.01), 'int16 same quantization'),
  // SUM
  reduceCase('sum', f32([2, 3, 4]), [1], false, f32([2, 4])),
  reduceCase('sum', f32([1, 3, 3, 2]), [1, 2], true, f32([1, 1, 1, 2])),
  reduceCase('sum', i8([2, 3, 4], 0.02, 4), [2], false, i8([2, 3], 0.2, -2), 'int8'),
  reduceCase('sum', i8([3, 4], 0.02, -100), [0], true, i8([1, 4], 0.05, 0), 'int8 keep, wrapping'),
  reduceCase('sum', i16([2, 5], 0.001), [1], false, i16([2], 0.004), 'int16'),
  // REDUCE_MAX / REDUCE_MIN
  reduceCase('reduce_max', f32([2, 3, 4]), [0, 2], false, f32([3])),
  reduceCase('reduce_max', i8([1, 4, 4, 3], 0.05, 2), [1, 2], true, i8([1, 1, 1, 3], 0.05, 2), 'int8'),
  reduceCase('reduce_max', i16([3, 5], 0.01), [1], false, i16([3], 0.01), 'int16'),
  reduceCase('reduce_min', f32([2, 3, 4]), [1], true, f32([2, 1, 4])),
  reduceCase('reduce_min', i8([4, 6], 0.05, 2), [0, 1], false, i8([], 0.05, 2), 'int8 all axes'),
  reduceCase('reduce_min', i16([3, 5], 0.01), [0], false, i16([5], 0.01), 'int16'),
  // REDUCE_ALL / REDUCE_ANY (bool; data given, so that rows of every kind occur)
  { ...reduceCase('reduce_all', b8([3, 4]), [1], false, b8([3])), data: BOOLS_3x4 },
  { ...reduceCase('reduce_any', b8([3, 4]), [1], true, b8([3, 1])), data: BOOLS_3x4 },
  { ...reduceCase('reduce_all', b8([2, 3, 2]), [0, 2], false, b8([3])), data: Uint8Array.from([1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]) },
  { ...reduceCase('reduce_any', b8([2, 3, 2]), [0, 2], false, b8([3])), data: Uint8Array.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0]) },
  // ARG_MAX / ARG_MIN
  { label: 'arg_max float int32 last axis', op: 'arg_max', input: f32([2, 3, 5]), out: tensorType([2, 3], 'int32'), attrs: { axis: 2 } },
  { label: 'arg_max int8 int64 axis 1', op: 'arg_max', input: i8([2, 6, 3], 0.1), out: tensorType([2, 3], 'int64'), attrs: { axis: 1 } },
  { label: 'arg_min float int64 axis 0', op: 'arg_min', input: f32([4, 3]), out: tensorType([3], 'int64'), attrs: { axis: 0 } },
  { label: 'arg_min int16 int32', op: 'arg_min', input: i16([3, 7], 0.1), out: tensorType([3], 'int32'), attrs: { axis: 1 } },
];

describe('reductions: TIR evaluator vs interpreter', () => {
  it.each(CASES.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
    const ref = expectTirMatches(c, 10 + i);
    expect(ref.length).toBeGreaterThan(0);
  });
});

describe('reductions: TFLite Micro kernel-test figures', () => {
  const floats = (b: Uint8Array): number[] => Array.from(new Float32Array(b.buffer, b.byteOffset, b.length / 4));
  const input24 = Array.from({ length: 24 }, (_, i) => i + 1);

  it('MEAN float over axes [1, 0] of [4, 3, 2] -> [12, 13]', () => {
    const c = reduceCase('mean', f32([4, 3, 2]), [1, 0], false, f32([2]));
    expect(floats(interpretCase({ ...c, data: float32Bytes(input24) }))).toEqual([12, 13]);
  });

  it('SUM float over axes [1, 0] of [4, 3, 2] -> [144, 156]', () => {
    const c = reduceCase('sum', f32([4, 3, 2]), [1, 0], false, f32([2]));
    expect(floats(interpretCase({ ...c, data: float32Bytes(input24) }))).toEqual([144, 156]);
  });

  it('REDUCE_MAX float over axes [1, 0] of [4, 3, 2] -> [23, 24]', () => {
    const c = reduceCase('reduce_max', f32([4, 3, 2]), [1, 0], false, f32([2]));
    expect(floats(interpretCase({ ...c, data: float32Bytes(input24) }))).toEqual([23, 24]);
  });

  it('MEAN int8 same quantization truncates toward zero', () => {
    // (-3 + -4) / 2 = -3.5 -> -3 (C integer division), (5 + 6) / 2 = 5.5 -> 5
    const c = reduceCase('mean', i8([2, 2], 0.1, 0), [1], false, i8([2], 0.1, 0));
    expect(Array.from(new Int8Array(interpretCase({ ...c, data: int8Bytes([-3, -4, 5, 6]) }).buffer))).toEqual([-3, 5]);
  });

  it('MEAN int8 requantized rounds half away from zero', () => {
    // input scale 0.5, output scale 1: mean of (1, 2) = 1.5 real 0.75 -> 1; of (-1, -2) -> -1
    const c = reduceCase('mean', i8([2, 2], 0.5, 0), [1], false, i8([2], 1, 0));
    expect(Array.from(new Int8Array(interpretCase({ ...c, data: int8Bytes([1, 2, -1, -2]) }).buffer))).toEqual([1, -1]);
  });

  it('REDUCE_ALL and REDUCE_ANY per row: all true, one false, all false', () => {
    const all = reduceCase('reduce_all', b8([3, 4]), [1], false, b8([3]));
    const any = reduceCase('reduce_any', b8([3, 4]), [1], false, b8([3]));
    expect(Array.from(interpretCase({ ...all, data: BOOLS_3x4 }))).toEqual([1, 0, 0]);
    expect(Array.from(interpretCase({ ...any, data: BOOLS_3x4 }))).toEqual([1, 1, 0]);
  });

  it('REDUCE_ALL over no elements is true, REDUCE_ANY false', () => {
    const all = reduceCase('reduce_all', b8([2, 0]), [1], false, b8([2]));
    const any = reduceCase('reduce_any', b8([2, 0]), [1], false, b8([2]));
    expect(Array.from(interpretCase({ ...all, data: new Uint8Array(0) }))).toEqual([1, 1]);
    expect(Array.from(interpretCase({ ...any, data: new Uint8Array(0) }))).toEqual([0, 0]);
  });

  it('ARG_MAX keeps the first of equal maxima', () => {
    const c: OpCase = { label: '', op: 'arg_max', input: f32([1, 4]), out: tensorType([1], 'int32'), attrs: { axis: 1 }, data: float32Bytes([1, 7, 7, 3]) };
    expect(Array.from(new Int32Array(interpretCase(c).buffer))).toEqual([1]);
  });
});

describe('reductions: generated C vs interpreter (gcc)', () => {
  it('float32 cases', () => {
    expectCRunsByteExact(CASES.filter((c) => c.input.dtype === 'float32'), 3);
  });
  it('int8 and int16 cases', () => {
    expectCRunsByteExact(CASES.filter((c) => c.input.dtype !== 'float32' && c.input.dtype !== 'bool'), 5);
  });
  it('bool cases (REDUCE_ALL, REDUCE_ANY)', () => {
    expectCRunsByteExact(CASES.filter((c) => c.input.dtype === 'bool'), 7);
  });
});

/**
 * TRANSPOSE_CONV: interpreter (TFLite Micro's scatter reference) vs TIR evaluator vs
 * generated C, float32, int8 per-channel and 16x8 (int64 accumulator), SAME/VALID, strides 1-3, with and without
 * bias, and TFLite Micro's kernel-test figures.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { TensorType } from '../../src/ir/graph/types';
import { resolvePadding } from '../../src/frontend/tflite/padding';
import { f32, float32Bytes, i8, int32Bytes, q, randomInts, randomTensor, rng } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, OpCase } from './opCases';

function tconv(
  label: string,
  input: TensorType,
  weight: TensorType,
  outHW: [number, number],
  strides: [number, number],
  mode: 'SAME' | 'VALID',
  out: TensorType,
  opts: { bias?: boolean; activation?: string; seed?: number; weightData?: Uint8Array; biasData?: Uint8Array } = {},
): OpCase {
  const r = rng(opts.seed ?? 3);
  const [top, left] = resolvePadding(mode, { input: outHW, filter: [weight.shape[1], weight.shape[2]], strides, dilation: [1, 1] });
  const oc = weight.shape[0];
  const constants = [{ type: weight, data: opts.weightData ?? randomTensor(r, weight) }];
  if (opts.bias) {
    const float = input.dtype === 'float32';
    const wide = input.dtype === 'int16';
    const type = tensorType([oc], float ? 'float32' : wide ? 'int64' : 'int32');
    const data =
      opts.biasData ??
      (float
        ? float32Bytes(Array.from({ length: oc }, () => r() - 0.5))
        : wide
          ? new Uint8Array(BigInt64Array.from(randomInts(r, oc, -300000, 300000).map(BigInt)).buffer)
          : int32Bytes(randomInts(r, oc, -3000, 3000)));
    constants.push({ type, data });
  }
  return {
    label,
    op: 'transpose_conv2d',
    input,
    constants,
    out,
    attrs: { strides, pad_before: [top, left], output_shape: out.shape as number[], activation: opts.activation ?? 'NONE' },
  };
}

const i16 = (shape: number[], scale: number): TensorType => tensorType(shape, 'int16', q(scale, 0));
const perChannel = (n: number): number[] => Array.from({ length: n }, (_, c) => 0.01 + 0.004 * c);

const CASES: OpCase[] = [
  tconv('float SAME stride 2 bias', f32([1, 3, 3, 2]), f32([3, 3, 3, 2]), [6, 6], [2, 2], 'SAME', f32([1, 6, 6, 3]), { bias: true }),
  tconv('float VALID stride 1', f32([2, 4, 3, 3]), f32([2, 2, 3, 3]), [5, 5], [1, 1], 'VALID', f32([2, 5, 5, 2])),
  tconv('float VALID stride 3 RELU6', f32([1, 2, 3, 1]), f32([2, 3, 2, 1]), [6, 8], [3, 3], 'VALID', f32([1, 6, 8, 2]), { bias: true, activation: 'RELU6' }),
  tconv('int8 SAME stride 2 per-channel bias', i8([1, 4, 4, 3], 0.05, -4), i8([4, 3, 3, 3], perChannel(4)), [8, 8], [2, 2], 'SAME', i8([1, 8, 8, 4], 0.1, 3), { bias: true }),
  tconv('int8 VALID stride 1 per-tensor no bias', i8([1, 3, 5, 2], 0.04, 10), i8([3, 3, 3, 2], 0.02), [5, 7], [1, 1], 'VALID', i8([1, 5, 7, 3], 0.08, -20)),
  tconv('int8 SAME odd output, RELU', i8([1, 3, 3, 4], 0.05, 0), i8([2, 4, 2, 4], perChannel(2)), [5, 6], [2, 2], 'SAME', i8([1, 5, 6, 2], 0.06, -128), { bias: true, activation: 'RELU' }),
  tconv('int8 [1, 1, 8, 2] audio-like 1x3 stride 1x2', i8([1, 1, 8, 2], 0.03, -1), i8([2, 1, 3, 2], perChannel(2)), [1, 16], [1, 2], 'SAME', i8([1, 1, 16, 2], 0.05, 2), { bias: true }),
  tconv('16x8 SAME stride 2 int64 bias', i16([1, 3, 4, 3], 0.0004), i8([2, 3, 3, 3], perChannel(2)), [6, 8], [2, 2], 'SAME', i16([1, 6, 8, 2], 0.0008), { bias: true }),
  tconv('16x8 VALID stride 1 no bias', i16([1, 4, 2, 2], 0.0005), i8([3, 2, 2, 2], 0.02), [5, 3], [1, 1], 'VALID', i16([1, 5, 3, 3], 0.0003)),
];

describe('transpose_conv2d: TIR evaluator vs interpreter', () => {
  it.each(CASES.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
    const ref = expectTirMatches(c, 20 + i);
    const values = c.out.dtype === 'float32' ? new Float32Array(ref.buffer) : c.out.dtype === 'int16' ? new Int16Array(ref.buffer) : new Int8Array(ref.buffer);
    expect(new Set(values).size).toBeGreaterThan(2);
  });
});

describe('transpose_conv2d: TFLite Micro kernel-test figures', () => {
  // transpose_conv_test.cc SimpleTestFloat: input 1..16 (1x4x4x1), filter 1..9 (1x3x3x1),
  // stride 1, SAME, no bias, output 1x4x4x1.
  it('SimpleTestFloat', () => {
    const c = tconv('', f32([1, 4, 4, 1]), f32([1, 3, 3, 1]), [4, 4], [1, 1], 'SAME', f32([1, 4, 4, 1]), {
      weightData: float32Bytes([1, 2, 3, 4, 5, 6, 7, 8, 9]),
    });
    const out = interpretCase({ ...c, data: float32Bytes(Array.from({ length: 16 }, (_, i) => i + 1)) });
    expect(Array.from(new Float32Array(out.buffer))).toEqual([29, 62, 83, 75, 99, 192, 237, 198, 207, 372, 417, 330, 263, 446, 485, 365]);
  });
});

describe('transpose_conv2d: generated C vs interpreter (gcc)', () => {
  it('float32 and int8 cases; the int32 accumulator is operator scratch planned by the USMP', () => {
    const result = expectCRunsByteExact(CASES, 9);
    const scratch = result.report.buffers.filter((b) => b.name.endsWith('_acc'));
    expect(scratch.length).toBe(CASES.filter((c) => c.input.dtype !== 'float32').length);
    for (const b of scratch) expect(b.pool).toBeDefined();
  });
});

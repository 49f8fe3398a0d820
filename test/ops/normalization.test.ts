/**
 * L2_NORMALIZATION: interpreter vs TIR evaluator (int8 through the uma_ref_l2norm_int8
 * runtime kernel's JS twin) vs generated C, float32 and int8, with TFLite Micro's figures.
 */
import { f32, float32Bytes, i8, int8Bytes } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, OpCase } from './opCases';

const l2 = (label: string, input: OpCase['input'], out: OpCase['out'], data?: Uint8Array): OpCase => ({
  label,
  op: 'l2_normalization',
  input,
  out,
  attrs: {},
  ...(data ? { data } : {}),
});

const CASES: OpCase[] = [
  l2('float [2, 3, 5]', f32([2, 3, 5]), f32([2, 3, 5])),
  l2('float all zero row (epsilon)', f32([2, 4]), f32([2, 4]), float32Bytes([0, 0, 0, 0, 1, -2, 3, -4])),
  l2('int8 [3, 8] zp 3', i8([3, 8], 0.05, 3), i8([3, 8], 1 / 128, 0)),
  l2('int8 [1, 2, 2, 16] zp -128', i8([1, 2, 2, 16], 0.02, -128), i8([1, 2, 2, 16], 1 / 128, 0)),
  l2('int8 tiny and constant rows', i8([3, 4], 0.1, 0), i8([3, 4], 1 / 128, 0), int8Bytes([0, 0, 0, 0, 1, 0, 0, 0, 127, 127, 127, 127])),
];

describe('l2_normalization: TIR evaluator vs interpreter', () => {
  it.each(CASES.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
    expectTirMatches(c, 80 + i);
  });
});

describe('l2_normalization: TFLite Micro kernel-test figures', () => {
  // l2norm_test.cc SimpleFloatTest: input {-1.1, 0.6, 0.7, 1.2, -0.7, 0.1}, norm 2.0.
  it('SimpleFloatTest', () => {
    const out = interpretCase(l2('', f32([1, 1, 1, 6]), f32([1, 1, 1, 6]), float32Bytes([-1.1, 0.6, 0.7, 1.2, -0.7, 0.1])));
    const got = Array.from(new Float32Array(out.buffer));
    [-0.55, 0.3, 0.35, 0.6, -0.35, 0.05].forEach((e, i) => expect(got[i]).toBeCloseTo(e, 6));
  });
  // SimpleInt8Test: the same values quantized (here scale 0.01), expected within one step of 1/128.
  it('SimpleInt8Test', () => {
    const scale = 0.01;
    const data = int8Bytes([-1.1, 0.6, 0.7, 1.2, -0.7, 0.1].map((v) => Math.round(v / scale)));
    const out = interpretCase(l2('', i8([1, 1, 1, 6], scale, 0), i8([1, 1, 1, 6], 1 / 128, 0), data));
    const got = Array.from(new Int8Array(out.buffer)).map((v) => v / 128);
    [-0.55, 0.3, 0.35, 0.6, -0.35, 0.05].forEach((e, i) => expect(Math.abs(got[i] - e)).toBeLessThanOrEqual(1 / 128 + 1e-9));
  });
});

describe('l2_normalization: generated C vs interpreter (gcc)', () => {
  it('float32 and int8 cases', () => {
    expectCRunsByteExact(CASES, 13);
  });
});

/**
 * L2_NORMALIZATION and LOG_SOFTMAX: interpreter vs TIR evaluator (int8 through the
 * uma_ref_l2norm_int8 / uma_ref_log_softmax_int8 runtime kernels' JS twins) vs generated C,
 * float32 and int8, with TFLite Micro's figures.
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
  { label: 'log_softmax float [4, 9]', op: 'log_softmax', input: f32([4, 9]), out: f32([4, 9]), attrs: {} },
  { label: 'log_softmax float [2, 1, 5]', op: 'log_softmax', input: f32([2, 1, 5]), out: f32([2, 1, 5]), attrs: {} },
  { label: 'log_softmax int8 [3, 10]', op: 'log_softmax', input: i8([3, 10], 0.1, 5), out: i8([3, 10], 16 / 256, 127), attrs: {} },
  { label: 'log_softmax int8 [2, 2, 7] small scale', op: 'log_softmax', input: i8([2, 2, 7], 0.02, -20), out: i8([2, 2, 7], 16 / 256, 127), attrs: {} },
  { label: 'log_softmax int8 wide scale', op: 'log_softmax', input: i8([4, 5], 0.5, 0), out: i8([4, 5], 16 / 256, 127), attrs: {} },
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

describe('log_softmax float: TFLite Micro kernel-test figures', () => {
  // log_softmax_test.cc FloatActivationsOpTestLogSoftmax: [2, 4] input, expected log-softmax rows.
  it('LogSoftmax float', () => {
    const c: OpCase = { label: '', op: 'log_softmax', input: f32([2, 4]), out: f32([2, 4]), attrs: {}, data: float32Bytes([0, -6, 2, 4, 3, -2, 10, 1]) };
    const got = Array.from(new Float32Array(interpretCase(c).buffer));
    [-4.14297, -10.14297, -2.14297, -0.142971, -7.00104, -12.00104, -0.00104087, -9.00104].forEach((e, i) => expect(got[i]).toBeCloseTo(e, 4));
  });
});

describe('log_softmax int8: close to the real log-softmax', () => {
  it('every output within two steps of 1/16 of log(softmax(x))', () => {
    const values = [0, 6, 2, 4, 3, -2, 10, 1];
    const scale = 0.1;
    const c: OpCase = { label: '', op: 'log_softmax', input: i8([1, 8], scale, 0), out: i8([1, 8], 16 / 256, 127), attrs: {}, data: int8Bytes(values.map((v) => v * 10)) };
    const got = Array.from(new Int8Array(interpretCase(c).buffer)).map((q) => (q - 127) / 16);
    const sum = values.reduce((a, v) => a + Math.exp(v), 0);
    values.forEach((v, i) => expect(Math.abs(got[i] - (v - Math.log(sum)))).toBeLessThanOrEqual(2 / 16));
  });
});

describe('l2_normalization: generated C vs interpreter (gcc)', () => {
  it('every case in one build', () => {
    expectCRunsByteExact(CASES, 13);
  });
});

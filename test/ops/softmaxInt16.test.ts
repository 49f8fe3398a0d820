/**
 * int16 softmax (TFLite's LUT-based SoftmaxInt16): TFLite Micro's kernel-test figures, the
 * lookup tables' shape, and the `uma_ref_softmax_int16` lowering (evaluator simulation)
 * against the interpreter byte for byte.
 */
import { genLutInt16, lutLookupInt16, softmaxInt16Params } from '../../src/arith/softmaxInt16';
import { LoweringError } from '../../src/errors';
import { interpret } from '../../src/interpreter';
import { tensorType } from '../../src/ir/graph/builder';
import { collectCallExterns } from '../../src/ir/tir/analysis';
import { lowerForCpu, q, randomInts, rng, runBoth, singleOpModule } from '../lower/helpers';

const i16 = (shape: number[], scale: number, zp = 0) => tensorType(shape, 'int16', q(scale, zp));
const bytes16 = (v: readonly number[]): Uint8Array => new Uint8Array(Int16Array.from(v).buffer);
const values16 = (b: Uint8Array): number[] => Array.from(new Int16Array(b.slice().buffer));

// tensorflow/lite/micro/kernels/softmax_test.cc: 2-d and 3-d data (input scale 0.1, zero point 0).
const INPUT_2D = [1, 2, 3, 4, 5, -1, -2, -3, -4, -5];
const GOLDEN_2D = [0.011656231, 0.031684921, 0.086128544, 0.234121657, 0.636408647, 0.636408647, 0.234121657, 0.086128544, 0.031684921, 0.011656231];
const INPUT_3D_ROWS = [
  [3, 6, -5, 4, -9],
  [-10, -10, -8, 2, 2],
  [8, -5, -8, 5, -6],
  [-8, 6, 1, -10, -8],
];
const GOLDEN_3D_ROWS = [
  [0.042009463, 0.843782625, 0.000014093, 0.114193561, 0.000000258],
  [0.000003072, 0.000003072, 0.000022699, 0.499985578, 0.499985578],
  [0.952571219, 0.000002153, 0.000000107, 0.047425728, 0.000000792],
  [0.000000826, 0.993305397, 0.006692839, 0.000000112, 0.000000826],
];

function runSoftmax(shape: number[], input: readonly number[], inScale: number): number[] {
  const module = singleOpModule('softmax', i16(shape, inScale), [], i16(shape, 1 / 32768), { beta: 1 });
  const x = bytes16(input.map((v) => Math.round(v / inScale)));
  const { lowered, reference } = runBoth(module, [x]);
  expect(values16(lowered[0])).toEqual(values16(reference[0]));
  return values16(reference[0]);
}

describe('int16 softmax lookup tables', () => {
  it('exp table spans exp(-10)..1 in Q0.15 and 1/(1+x) 1..0.5, 513 entries each', () => {
    const p = softmaxInt16Params(1, 0.1);
    expect(p.expLut).toHaveLength(513);
    expect(p.expLut[512]).toBe(32767); // exp(0) * 32768 clamped
    expect(p.expLut[0]).toBeLessThanOrEqual(2); // exp(-10) * 32768 = 1.49, midpoint-biased
    expect(p.oneOverOnePlusXLut[0]).toBe(32767);
    expect(p.oneOverOnePlusXLut[512]).toBe(16384);
    for (let i = 1; i < 513; i++) expect(p.expLut[i]).toBeGreaterThanOrEqual(p.expLut[i - 1]);
  });

  it('lookup interpolates between entries and hits them exactly on multiples of 128', () => {
    const lut = genLutInt16((x) => Math.fround(x), -1, 1); // identity: entry i = -32768 + 128 i
    expect(lutLookupInt16(-32768, lut)).toBe(lut[0]);
    expect(lutLookupInt16(0, lut)).toBe(lut[256]);
    expect(lutLookupInt16(64, lut)).toBe(lut[256] + Math.round((lut[257] - lut[256]) / 2));
  });
});

describe('softmax int16 -> int16', () => {
  it('matches TFLite Micro 2-d figures within its tolerance (1 LSB)', () => {
    const out = runSoftmax([2, 5], INPUT_2D, 0.1);
    out.forEach((v, i) => expect(Math.abs(v - Math.round(GOLDEN_2D[i] * 32768))).toBeLessThanOrEqual(1));
  });

  it('matches TFLite Micro 3-d figures within its tolerance (7 LSB)', () => {
    const out = runSoftmax([1, 4, 5], INPUT_3D_ROWS.flat(), 0.1);
    out.forEach((v, i) => expect(Math.abs(v - Math.round(GOLDEN_3D_ROWS.flat()[i] * 32768))).toBeLessThanOrEqual(7));
  });

  it.each([
    ['scale 1/2048, beta 1', 1 / 2048, 1, 61],
    ['scale 0.001, beta 0.5', 0.001, 0.5, 62],
    ['scale 0.01 (most differences beyond -10)', 0.01, 1, 63],
  ])('random %s: lowering equals the interpreter and calls the runtime kernel', (_n, scale, beta, seed) => {
    const shape = [3, 2, 17];
    const module = singleOpModule('softmax', i16(shape, scale), [], i16(shape, 1 / 32768), { beta });
    const x = bytes16(randomInts(rng(seed), 102, -32768, 32767));
    const { lowered, reference, tir } = runBoth(module, [x]);
    expect(values16(lowered[0])).toEqual(values16(reference[0]));
    expect(new Set(values16(reference[0])).size).toBeGreaterThan(3);
    const kernels = [...tir.functions.values()].flatMap((f) => collectCallExterns(f).map((c) => c.name));
    expect(kernels).toContain('uma_ref_softmax_int16');
  });

  it('rejects an int16 output that is not scale 1/32768 zero point 0, and a non-zero input zero point', () => {
    const badOut = singleOpModule('softmax', i16([1, 4], 0.1), [], i16([1, 4], 1 / 65536, -32768), { beta: 1 });
    expect(() => lowerForCpu(badOut)).toThrow(LoweringError);
    expect(() => lowerForCpu(badOut)).toThrow(/int16 output must have zero point 0 and scale 1\/32768/);
    const badIn = singleOpModule('softmax', i16([1, 4], 0.1, 3), [], i16([1, 4], 1 / 32768), { beta: 1 });
    expect(() => interpret(badIn, [bytes16([1, 2, 3, 4])])).toThrow(/int16 input must have zero point 0/);
  });
});

/**
 * 16x8 quantization (int16 activations with zero point 0, int8 weights, int32/int64 bias) on
 * conv2d, depthwise_conv2d, dense and the pools: the CPU lowering run by the TIR evaluator
 * against the reference interpreter, byte for byte, plus TFLite Micro's choices that the
 * numbers depend on (accumulator by bias dtype, the 64-bit requantize).
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplier64 } from '../../src/arith/fixedpoint';
import { LoweringError } from '../../src/errors';
import { interpret } from '../../src/interpreter';
import { tensorType } from '../../src/ir/graph/builder';
import { TensorType } from '../../src/ir/graph/types';
import { i8, int32Bytes, lowerForCpu, q, randomTensor, rng, runBoth, singleOpModule } from '../lower/helpers';
import { bias32, bias64, Const, i16, int16Bytes, int16Input, int64Bytes } from './int16Helpers';

const int16Values = (bytes: Uint8Array): number[] => Array.from(new Int16Array(bytes.slice().buffer));

function check(op: string, input: TensorType, constants: Const[], out: TensorType, attrs: Record<string, unknown>, seed: number): number[] {
  const r = rng(seed);
  const module = singleOpModule(op, input, constants, out, attrs);
  const x = int16Input(r, input.shape.reduce((a, b) => a * b, 1));
  const { lowered, reference } = runBoth(module, [x]);
  expect(int16Values(lowered[0])).toEqual(int16Values(reference[0]));
  const values = int16Values(reference[0]);
  expect(new Set(values).size).toBeGreaterThan(3);
  return values;
}

const win = (strides: number[], padding: number[], activation = 'NONE', dilation = [1, 1]) => ({ strides, dilation, padding, activation });
const perChannel = (n: number, base = 0.004): number[] => Array.from({ length: n }, (_, c) => base + 0.0013 * c);

describe('multiplyByQuantizedMultiplier64 (TFLite int64 overload)', () => {
  it('reduces the multiplier to Q15 and rounds half up', () => {
    // 0.5 = 2^30 * 2^-31 with shift 0: reduced 2^14, total shift 15.
    expect(multiplyByQuantizedMultiplier64(3, 1 << 30, 0)).toBe(2); // 1.5 rounds up
    expect(multiplyByQuantizedMultiplier64(-3, 1 << 30, 0)).toBe(-1); // -1.5 rounds up too
    // 0.25 (2^30, shift -1) of -6: the 64-bit one rounds -1.5 up, the 32-bit one away from zero.
    expect(multiplyByQuantizedMultiplier64(-6, 1 << 30, -1)).toBe(-1);
    expect(multiplyByQuantizedMultiplier(-6, 1 << 30, -1)).toBe(-2);
    // Multipliers at or above 0x7FFF0000 saturate to 0x7FFF.
    expect(multiplyByQuantizedMultiplier64(1 << 20, 0x7fffffff, 0)).toBe(Math.floor(((1 << 20) * 0x7fff + (1 << 14)) / (1 << 15)));
  });

  it('is exact beyond 2^53 (BigInt path) and agrees with the double path below', () => {
    const x = 2 ** 46 + 12345;
    const m = 1518500250;
    const s = -3;
    const reduced = BigInt((m + 32768) >> 16);
    const want = Number(BigInt.asIntN(32, (BigInt(x) * reduced + (1n << 17n)) >> 18n));
    expect(multiplyByQuantizedMultiplier64(x, m, s)).toBe(want);
    expect(multiplyByQuantizedMultiplier64(-x, m, s)).toBe(Number(BigInt.asIntN(32, (BigInt(-x) * reduced + (1n << 17n)) >> 18n)));
    expect(multiplyByQuantizedMultiplier64(1000, m, s)).toBe(Number((1000n * reduced + (1n << 17n)) >> 18n));
  });
});

describe('conv2d 16x8', () => {
  it.each([
    ['int64 bias, same padding, RELU', [1, 6, 6, 3], 4, 3, win([1, 1], [1, 1, 1, 1], 'RELU'), 6, 6, 'int64'],
    ['int64 bias, stride 2, RELU6', [1, 7, 7, 2], 3, 3, win([2, 2], [1, 1, 1, 1], 'RELU6'), 4, 4, 'int64'],
    ['int32 bias, dilation 2, valid', [2, 7, 6, 2], 2, 3, win([1, 1], [0, 0, 0, 0], 'NONE', [2, 2]), 3, 2, 'int32'],
    ['no bias, 1x1', [1, 4, 4, 5], 3, 1, win([1, 1], [0, 0, 0, 0]), 4, 4, 'none'],
  ])('%s', (_label, inShape, outC, k, attrs, oh, ow, biasKind) => {
    const r = rng(31 + oh * 7 + outC);
    const w = i8([outC, k, k, inShape[3]], perChannel(outC));
    const consts: Const[] = [{ type: w, data: randomTensor(r, w) }];
    if (biasKind === 'int64') consts.push(bias64(r, outC));
    if (biasKind === 'int32') consts.push(bias32(r, outC));
    check('conv2d', i16(inShape, 0.0005), consts, i16([inShape[0], oh, ow, outC], 0.002), attrs, 200 + outC);
  });

  it('an int64 bias takes the 64-bit requantize, an int32 bias the 32-bit one', () => {
    // One tap: acc = w * x + b, so the output is exactly the chosen requantize of it.
    const w = i8([1, 1, 1, 1], 1);
    const x = -6;
    const run = (bias: Const): number => {
      const module = singleOpModule('conv2d', i16([1, 1, 1, 1], 0.5), [{ type: w, data: new Uint8Array([1]) }, bias], i16([1, 1, 1, 1], 2), win([1, 1], [0, 0, 0, 0]));
      return int16Values(interpret(module, [int16Bytes([x])])[0])[0];
    };
    // real multiplier 0.25: acc -6 -> 64-bit rounds -1.5 to -1, 32-bit to -2.
    expect(run({ type: tensorType([1], 'int64'), data: int64Bytes([0]) })).toBe(-1);
    expect(run({ type: tensorType([1], 'int32'), data: int32Bytes([0]) })).toBe(-2);
  });

  it('a non-zero int16 zero point is a lowering error', () => {
    const w = i8([1, 1, 1, 1], 0.01);
    const input = tensorType([1, 2, 2, 1], 'int16', q(0.01, 5));
    const module = singleOpModule('conv2d', input, [{ type: w, data: new Uint8Array([1]) }], i16([1, 2, 2, 1], 0.01), win([1, 1], [0, 0, 0, 0]));
    expect(() => lowerForCpu(module)).toThrow(LoweringError);
    expect(() => lowerForCpu(module)).toThrow(/int16 zero points must be 0/);
  });
});

describe('depthwise_conv2d 16x8', () => {
  it.each([
    ['multiplier 1, same padding', [1, 6, 6, 3], 1, 3, win([1, 1], [1, 1, 1, 1], 'RELU'), 6, 6, true],
    ['multiplier 2, stride 2, no bias', [1, 7, 7, 2], 2, 3, win([2, 2], [1, 1, 1, 1]), 4, 4, false],
  ])('%s', (_label, inShape, mult, k, attrs, oh, ow, withBias) => {
    const outC = inShape[3] * mult;
    const r = rng(41 + outC);
    const w = i8([1, k, k, outC], perChannel(outC), 0, 3);
    const consts: Const[] = [{ type: w, data: randomTensor(r, w) }];
    if (withBias) consts.push(bias64(r, outC));
    check('depthwise_conv2d', i16(inShape, 0.0005), consts, i16([1, oh, ow, outC], 0.002), { ...attrs, depth_multiplier: mult }, 300 + outC);
  });

  it('an int32 bias is rejected as TFLite Micro reads the bias as int64', () => {
    const w = i8([1, 1, 1, 1], 0.01);
    const module = singleOpModule('depthwise_conv2d', i16([1, 2, 2, 1], 0.01), [{ type: w, data: new Uint8Array([1]) }, bias32(rng(1), 1)], i16([1, 2, 2, 1], 0.01), { ...win([1, 1], [0, 0, 0, 0]), depth_multiplier: 1 });
    expect(() => lowerForCpu(module)).toThrow(/unsupported bias dtype int32 with int16 input/);
    expect(() => interpret(module, [int16Bytes([1, 2, 3, 4])])).toThrow(/bias dtype int32/);
  });
});

describe('dense 16x8', () => {
  it.each([
    ['per-tensor, int64 bias', 0.003, 'int64'],
    ['per-channel, int32 bias', perChannel(6, 0.002), 'int32'],
    ['per-tensor, no bias', 0.004, 'none'],
  ])('%s', (_label, scale, biasKind) => {
    const r = rng(51);
    const w = i8([6, 10], scale as number | number[]);
    const consts: Const[] = [{ type: w, data: randomTensor(r, w) }];
    if (biasKind === 'int64') consts.push(bias64(r, 6));
    if (biasKind === 'int32') consts.push(bias32(r, 6));
    check('dense', i16([3, 10], 0.0004), consts, i16([3, 6], 0.003), { activation: 'NONE' }, 400);
  });
});

describe('pools int16', () => {
  it.each([
    ['avg_pool2d', 'NONE'],
    ['avg_pool2d', 'RELU'],
    ['max_pool2d', 'NONE'],
    ['max_pool2d', 'RELU6'],
  ])('%s %s', (op, activation) => {
    const attrs = { pool_size: [3, 3], ...win([2, 2], [1, 1, 1, 1], activation) };
    const values = check(op, i16([1, 7, 7, 3], 0.0002), [], i16([1, 4, 4, 3], 0.0002), attrs, 500);
    if (op === 'avg_pool2d' && activation === 'NONE') expect(values.some((v) => v < -1000)).toBe(true);
  });
});

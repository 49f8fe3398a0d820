/**
 * Elementwise operator test cases shared by the TIR-evaluator and the gcc suites: each is a
 * one-op module (every operand a model input) with seeded inputs covering broadcasts,
 * saturation and zero points at the range ends.
 */
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { DType, IRModule, TensorType, tensorElements } from '../../src/ir/graph/types';
import { float32Bytes, int8Bytes, q, rng } from '../lower/helpers';
import { randomInt } from '../../src/util/random';

export interface OpCase {
  readonly label: string;
  readonly module: IRModule;
  readonly inputs: Uint8Array[];
}

export const qt = (shape: number[], dtype: DType, scale: number, zp = 0): TensorType => tensorType(shape, dtype, q(scale, zp));
export const ft = (shape: number[]): TensorType => tensorType(shape, 'float32');

/** Values for a tensor: full integer range (int16: both ends and the middle), floats in [lo, hi). */
export function valuesFor(r: () => number, type: TensorType, floatRange: readonly [number, number] = [-8, 8]): Uint8Array {
  const n = tensorElements(type);
  switch (type.dtype) {
    case 'int8':
      return int8Bytes(Array.from({ length: n }, (_, i) => (i === 0 ? -128 : i === 1 ? 127 : randomInt(r, -128, 127))));
    case 'int16':
      return new Uint8Array(Int16Array.from({ length: n }, (_, i) => (i === 0 ? -32768 : i === 1 ? 32767 : randomInt(r, -32768, 32767))).buffer);
    case 'int32':
      return new Uint8Array(Int32Array.from({ length: n }, () => randomInt(r, -50000, 50000)).buffer);
    case 'uint8':
    case 'bool':
      return Uint8Array.from({ length: n }, () => (type.dtype === 'bool' ? randomInt(r, 0, 1) : randomInt(r, 0, 255)));
    case 'float32': {
      const [lo, hi] = floatRange;
      return float32Bytes(Array.from({ length: n }, (_, i) => (i === 2 && lo <= 0 ? 0 : lo + r() * (hi - lo))));
    }
    default:
      throw new Error(`no values for ${type.dtype}`);
  }
}

export function opCase(
  label: string,
  op: string,
  inputTypes: TensorType[],
  out: TensorType,
  attrs: Record<string, unknown> = {},
  seed = 1,
  floatRange?: readonly [number, number],
): OpCase {
  const b = new FunctionBuilder();
  const args = inputTypes.map((t, i) => b.param(`x${i}`, t));
  b.call('y', op, args, out, attrs as never);
  const r = rng(seed);
  return { label, module: moduleOf([b.build(['y'])]), inputs: inputTypes.map((t) => valuesFor(r, t, floatRange)) };
}

const binaryOps = ['add', 'sub', 'mul'] as const;

/** Every elementwise case: binary ops with broadcasts and activations, unary ops per dtype, casts. */
export function elementwiseCases(): OpCase[] {
  const cases: OpCase[] = [];
  let seed = 1;
  const add = (c: OpCase): void => void cases.push(c);
  for (const op of binaryOps) {
    add(opCase(`${op} float32 broadcast RELU6`, op, [ft([2, 3, 4]), ft([3, 1])], ft([2, 3, 4]), { activation: 'RELU6' }, seed++));
    add(opCase(`${op} float32 same shape`, op, [ft([5, 7]), ft([5, 7])], ft([5, 7]), { activation: 'NONE' }, seed++));
    add(opCase(`${op} int32 broadcast`, op, [tensorType([3, 4], 'int32'), tensorType([4], 'int32')], tensorType([3, 4], 'int32'), {}, seed++));
    add(opCase(`${op} int32 RELU`, op, [tensorType([10], 'int32'), tensorType([10], 'int32')], tensorType([10], 'int32'), { activation: 'RELU' }, seed++));
    add(
      opCase(`${op} int8 broadcast RELU`, op, [qt([1, 4, 4, 3], 'int8', 0.05, -7), qt([3], 'int8', 0.11, 20)], qt([1, 4, 4, 3], 'int8', 0.09, -128), { activation: 'RELU' }, seed++),
    );
    add(opCase(`${op} int8 scalar rhs`, op, [qt([2, 9], 'int8', 0.02, 127), qt([1], 'int8', 0.03, 0)], qt([2, 9], 'int8', 0.04, 3), {}, seed++));
    add(opCase(`${op} int16 broadcast`, op, [qt([2, 3, 8], 'int16', 0.0007), qt([1, 3, 1], 'int16', 0.0011)], qt([2, 3, 8], 'int16', op === 'mul' ? 0.04 : 0.0015), {}, seed++));
  }
  add(opCase('div float32 broadcast', 'div', [ft([2, 3, 4]), ft([4])], ft([2, 3, 4]), { activation: 'NONE' }, seed++, [0.25, 4]));
  for (const [label, lhs, rhs, out, attrs] of [
    ['div int8', qt([64], 'int8', 0.05, 3), qt([64], 'int8', 0.04, -5), qt([64], 'int8', 0.1, 0), {}],
    ['div int8 broadcast RELU6', qt([4, 16], 'int8', 0.02, -20), qt([16], 'int8', 0.03, 9), qt([4, 16], 'int8', 0.03, -128), { activation: 'RELU6' }],
  ] as const) {
    const c = opCase(label, 'div', [lhs, rhs], out, attrs, seed++);
    // A divisor at its zero point is a division by zero: move those one step up.
    const zp = rhs.quant!.zeroPoint[0];
    c.inputs[1] = int8Bytes(Array.from(new Int8Array(c.inputs[1].buffer), (v) => (v === zp ? v + 1 : v)));
    add(c);
  }
  add(opCase('div float32 RELU_N1_TO_1', 'div', [ft([6]), ft([6])], ft([6]), { activation: 'RELU_N1_TO_1' }, seed++, [-3, 3]));
  for (const op of ['maximum', 'minimum']) {
    add(opCase(`${op} float32 broadcast`, op, [ft([3, 5]), ft([1, 5])], ft([3, 5]), {}, seed++));
    add(opCase(`${op} int8 broadcast`, op, [qt([4, 6], 'int8', 0.1, 3), qt([6], 'int8', 0.1, 3)], qt([4, 6], 'int8', 0.1, 3), {}, seed++));
    add(opCase(`${op} int16`, op, [qt([10], 'int16', 0.001), qt([10], 'int16', 0.001)], qt([10], 'int16', 0.001), {}, seed++));
    add(opCase(`${op} int32 scalar`, op, [tensorType([7], 'int32'), tensorType([1], 'int32')], tensorType([7], 'int32'), {}, seed++));
  }
  add(opCase('squared_difference float32 broadcast', 'squared_difference', [ft([2, 5]), ft([5])], ft([2, 5]), {}, seed++));
  add(opCase('squared_difference int32', 'squared_difference', [tensorType([9], 'int32'), tensorType([9], 'int32')], tensorType([9], 'int32'), {}, seed++));
  add(opCase('squared_difference int8 broadcast', 'squared_difference', [qt([3, 8], 'int8', 0.05, -3), qt([8], 'int8', 0.07, 10)], qt([3, 8], 'int8', 0.3, -128), {}, seed++));
  add(opCase('prelu float32 channel alpha', 'prelu', [ft([1, 3, 3, 4]), ft([4])], ft([1, 3, 3, 4]), {}, seed++));
  add(opCase('prelu int8 channel alpha', 'prelu', [qt([1, 3, 3, 4], 'int8', 0.05, -10), qt([1, 1, 4], 'int8', 0.01, 5)], qt([1, 3, 3, 4], 'int8', 0.04, -20), {}, seed++));
  add(opCase('squared_difference int16 broadcast', 'squared_difference', [qt([3, 8], 'int16', 0.0025), qt([8], 'int16', 0.005)], qt([3, 8], 'int16', 0.001), {}, seed++));
  add(opCase('squared_difference int16 saturating', 'squared_difference', [qt([16], 'int16', 0.003), qt([16], 'int16', 0.003)], qt([16], 'int16', 0.3), {}, seed++));
  add(opCase('prelu int16 with int8 channel alpha', 'prelu', [qt([1, 3, 3, 4], 'int16', 0.0005), qt([1, 1, 4], 'int8', 0.01, 5)], qt([1, 3, 3, 4], 'int16', 0.0004), {}, seed++));
  // Alpha wider than the input: the output takes the broadcast shape (a differential campaign's
  // finding: refused before, while TFLite runs it).
  add(opCase('prelu float32 alpha wider than the input', 'prelu', [ft([1, 3]), ft([2, 3])], ft([2, 3]), {}, seed++));
  add(opCase('prelu int8 alpha wider than the input', 'prelu', [qt([1, 4], 'int8', 0.05, -10), qt([3, 1], 'int8', 0.01, 5)], qt([3, 4], 'int8', 0.04, -20), {}, seed++));

  const floatUnary: [string, readonly [number, number]][] = [
    ['relu', [-4, 4]],
    ['relu6', [-3, 9]],
    ['relu_n1_to_1', [-2, 2]],
    ['hard_swish', [-5, 5]],
    ['logistic', [-20, 20]],
    ['tanh', [-5, 5]],
    ['elu', [-6, 3]],
    ['abs', [-5, 5]],
    ['neg', [-5, 5]],
    ['sqrt', [0, 100]],
    ['rsqrt', [0.01, 100]],
    ['exp', [-10, 10]],
    ['log', [0.001, 1000]],
  ];
  for (const [op, range] of floatUnary) add(opCase(`${op} float32`, op, [ft([4, 25])], ft([4, 25]), {}, seed++, range));
  add(opCase('leaky_relu float32', 'leaky_relu', [ft([50])], ft([50]), { alpha: 0.2 }, seed++));

  // int8: the whole input range (256 values) through each op.
  const all8 = (label: string, op: string, inQ: [number, number], outQ: [number, number], attrs: Record<string, unknown> = {}): void => {
    const c = opCase(label, op, [qt([256], 'int8', ...inQ)], qt([256], 'int8', ...outQ), attrs, seed++);
    c.inputs[0] = int8Bytes(Array.from({ length: 256 }, (_, i) => i - 128));
    add(c);
  };
  all8('relu int8', 'relu', [0.05, -20], [0.03, -128]);
  all8('relu6 int8', 'relu6', [0.05, 10], [0.05, 10]);
  // A standalone RELU6 whose output the converter calibrated apart from its input (a hard
  // sigmoid's ADD 3 -> RELU6 left unfused): TFLite Micro clamps in the input's quantization.
  all8('relu6 int8 output quantization unlike the input', 'relu6', [0.02, -20], [0.03, -128]);
  all8('relu_n1_to_1 int8', 'relu_n1_to_1', [0.02, 5], [0.01, 0]);
  all8('leaky_relu int8', 'leaky_relu', [0.05, 3], [0.04, -30], { alpha: 0.1 });
  all8('hard_swish int8', 'hard_swish', [0.05, -3], [0.03, -60]);
  all8('logistic int8', 'logistic', [0.07, -5], [1 / 256, -128]);
  all8('tanh int8', 'tanh', [0.04, 2], [1 / 128, 0]);
  all8('elu int8', 'elu', [0.05, 30], [0.03, 40]);
  all8('abs int8 rescale', 'abs', [0.05, 30], [0.04, -128]);
  {
    // rsqrt is defined at or above the input zero point only: inputs -100..127.
    const c = opCase('rsqrt int8', 'rsqrt', [qt([228], 'int8', 0.05, -100)], qt([228], 'int8', 0.02, -128), {}, seed++);
    c.inputs[0] = int8Bytes(Array.from({ length: 228 }, (_, i) => i - 100));
    add(c);
  }
  const int16 = (label: string, op: string, inScale: number, outScale: number, attrs: Record<string, unknown> = {}): void =>
    add(opCase(label, op, [qt([64], 'int16', inScale)], qt([64], 'int16', outScale), attrs, seed++));
  int16('relu int16', 'relu', 0.001, 0.0008);
  int16('relu6 int16', 'relu6', 0.0004, 0.0004);
  int16('relu6 int16 output scale unlike the input', 'relu6', 0.0004, 0.0002);
  int16('relu_n1_to_1 int16', 'relu_n1_to_1', 0.0001, 0.00004);
  int16('leaky_relu int16', 'leaky_relu', 0.001, 0.0009, { alpha: 0.3 });
  int16('abs int16', 'abs', 0.001, 0.0005);
  int16('logistic int16 general scale', 'logistic', 0.0007, 1 / 32768);
  int16('logistic int16 power-of-two scale', 'logistic', 1 / 4096, 1 / 32768);
  int16('tanh int16 general scale', 'tanh', 0.0003, 1 / 32768);
  int16('tanh int16 power-of-two scale (shift 1)', 'tanh', 1 / 2048, 1 / 32768);
  add(opCase('neg int32', 'neg', [tensorType([12], 'int32')], tensorType([12], 'int32'), {}, seed++));

  const casts: [DType, DType, (readonly [number, number])?][] = [
    ['float32', 'int8', [-200, 200]],
    ['float32', 'int32', [-1e5, 1e5]],
    ['float32', 'int16', [-4e4, 4e4]],
    ['float32', 'uint8', [-10, 300]],
    ['float32', 'bool', [-1, 1]],
    ['int8', 'float32'],
    ['int16', 'int32'],
    ['int32', 'int8'],
    ['int32', 'float32'],
    ['uint8', 'int16'],
    ['bool', 'float32'],
    ['int16', 'uint8'],
  ];
  for (const [from, to, range] of casts) {
    add(opCase(`cast ${from} -> ${to}`, 'cast', [tensorType([3, 11], from)], tensorType([3, 11], to), {}, seed++, range));
  }
  return cases;
}

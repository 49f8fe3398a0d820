/**
 * The float math operators (FLOOR, CEIL, ROUND, SIN, COS, SQUARE): the TIR evaluator agrees
 * byte for byte with the reference interpreter on every case; TFLite Micro's own kernel-test
 * vectors (floor_test.cc, ceil_test.cc, round_test.cc, elementwise_test.cc) pass with their
 * tolerances; TFLite's ROUND quirks hold; the importer takes exactly TFLM's types and the
 * checker behind `inspect` no longer lists them.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { UmaError, UnsupportedOperatorError } from '../../src/errors';
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { tensorType } from '../../src/ir/graph/builder';
import { float32Bytes } from '../lower/helpers';
import { errorOf } from '../helpers/errorOf';
import { combinedTflite, importErrorOf, SingleOp, singleOpTflite } from './tfliteModels';
import { expectTirMatches, interpretCase, OpCase } from './opCases';
import { mathBinaryCases, mathUnaryCases } from './mathCases';

const floats = (bytes: Uint8Array): number[] => Array.from(new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)));

function unary(op: string, values: readonly number[], shape: number[] = [values.length]): OpCase {
  const t = tensorType(shape, 'float32');
  return { label: op, op, input: t, out: t, attrs: {}, data: float32Bytes(values) };
}

describe('float math operators: interpreter vs TIR evaluator', () => {
  it.each(mathUnaryCases().map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const reference = expectTirMatches(c);
    expect(new Set(floats(reference)).size).toBeGreaterThan(3);
  });
});

describe("float math operators: TFLite Micro's kernel-test vectors", () => {
  const golden: [string, number[], number[], readonly number[], number][] = [
    ['floor', [1, 2], [8.5, 0], [8, 0], 0],
    ['floor', [2, 1, 1, 5], [0.0001, 8.0001, 0.9999, 9.9999, 0.5, -0.0001, -8.0001, -0.9999, -9.9999, -0.5], [0, 8, 0, 9, 0, -1, -9, -1, -10, -1], 0],
    ['ceil', [2], [8.5, 0], [9, 0], 0],
    ['ceil', [2, 1, 1, 5], [0.0001, 8.0001, 0.9999, 9.9999, 0.5, -0.0001, -8.0001, -0.9999, -9.9999, -0.5], [1, 9, 1, 10, 1, 0, -8, 0, -9, 0], 0],
    ['round', [6], [8.5, 0, 3.5, 4.2, -3.5, -4.5], [8, 0, 4, 4, -4, -4], 1e-5],
    ['round', [2, 1, 1, 6], [0.0001, 8.0001, 0.9999, 9.9999, 0.5, -0.0001, -8.0001, -0.9999, -9.9999, -0.5, -2.5, 1.5], [0, 8, 1, 10, 0, 0, -8, -1, -10, -0, -2, 2], 1e-5],
    ['sin', [2, 2], [0, 3.1415926, -3.1415926, 1], [0, 0, 0, 0.84147], 1e-5],
    ['cos', [2, 2], [0, 3.1415926, -3.1415926, 1], [1, -1, -1, 0.5403], 1e-5],
    ['square', [2, 2], [1, 2, 0.5, -3], [1, 4, 0.25, 9], 1e-5],
  ];
  it.each(golden.map((g, i) => [`${g[0]} #${i}`, g] as const))('%s', (_label, [op, shape, input, expected, tolerance]) => {
    const c = unary(op, input, shape);
    const got = floats(interpretCase(c));
    got.forEach((v, i) => expect(Math.abs(v - expected[i])).toBeLessThanOrEqual(tolerance));
    expectTirMatches(c);
  });
});

describe("TFLite's ROUND", () => {
  it('rounds ties to even and keeps its floor-plus-one sign of zero', () => {
    const bytes = interpretCase(unary('round', [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.3, -0, 8388607.5, -Infinity]));
    const got = floats(bytes);
    expect(got.slice(0, 6)).toEqual([0, 2, 2, 0, -2, -2]);
    // floor(-0.5) + 1 and floor(-0.3) + 1 are +0 (TFLite returns no -0 here); -0 itself stays -0.
    expect(Object.is(got[3], 0) && Object.is(got[6], 0)).toBe(true);
    expect(Object.is(got[7], -0)).toBe(true);
    expect(got.slice(8)).toEqual([8388608, -Infinity]);
  });
});

describe('float math operators at import', () => {
  const f = (shape: number[]) => ({ shape, dtype: 'float32' as const });
  const i8 = (shape: number[]) => ({ shape, dtype: 'int8' as const, quant: { scale: [0.1], zeroPoint: [0] } });
  const OPS = ['FLOOR', 'CEIL', 'ROUND', 'SIN', 'COS', 'SQUARE'];

  it('the checker behind inspect accepts every float32 operator', () => {
    const cases: SingleOp[] = OPS.map((op) => ({ name: op, op, inputs: [f([2, 3])], outputs: [f([2, 3])] }));
    expect(checkTflite(combinedTflite(cases)).unsupported).toEqual([]);
  });

  it.each(OPS)('%s on int8 names the operator, its index and the type', (op) => {
    const e = importErrorOf({ name: op, op, inputs: [i8([4])], outputs: [i8([4])] });
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toBe(`unsupported input 0 type int8 (supported: float32) on ${op} at operator #0 in m.tflite`);
  });
});

describe('FLOOR_DIV and FLOOR_MOD: interpreter vs TIR evaluator', () => {
  it.each(mathBinaryCases().map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const reference = expectTirMatches(c);
    expect(new Set(floats(reference)).size).toBeGreaterThan(3);
  });
});

function binary(op: string, lhs: readonly number[], rhs: readonly number[], rhsShape: number[] = [rhs.length]): OpCase {
  const t = tensorType([1, 2, 2, 1], 'float32');
  return { label: op, op, input: t, moreInputs: [tensorType(rhsShape, 'float32')], out: t, attrs: {}, data: float32Bytes(lhs), moreData: [float32Bytes(rhs)] };
}

describe("FLOOR_DIV and FLOOR_MOD: TFLite Micro's kernel-test vectors (exact)", () => {
  const golden: [string, number[], number[], number[], number[]][] = [
    ['floor_div', [10.05, 9.09, 11.9, 3.01], [2.05, 2.03, 3.03, 4.03], [1, 2, 2, 1], [4, 4, 3, 0]],
    ['floor_div', [10.03, -9.9, -11.0, 7.0], [2.0, 2.3, -3.0, -4.1], [1, 2, 2, 1], [5, -5, 3, -2]],
    ['floor_div', [10.03, -9.9, -11.0, 7.0], [-3.3], [1], [-4, 2, 3, -3]],
    ['floor_mod', [10, 9, 11, 3], [2, 2, 3, 4], [1, 2, 2, 1], [0, 1, 2, 3]],
    ['floor_mod', [10, -9, -11, 7], [2, 2, -3, -4], [1, 2, 2, 1], [0, 1, -2, -1]],
    ['floor_mod', [10, -9, -11, 7], [-3], [1], [-2, 0, -2, -2]],
  ];
  it.each(golden.map((g, i) => [`${g[0]} #${i}`, g] as const))('%s', (_label, [op, lhs, rhs, rhsShape, expected]) => {
    const c = binary(op, lhs, rhs, rhsShape);
    // TFLM compares with ==, so -0 (fmod(-9, -3)) equals its golden 0.
    expect(floats(interpretCase(c)).map((v) => v + 0)).toEqual(expected);
    expectTirMatches(c);
  });

  it('FLOOR_MOD keeps the sign of zero fmod gives (-0 mod 3 is -0) and adds the divisor on a sign change', () => {
    const got = floats(interpretCase(binary('floor_mod', [-0, -0.001, 3, -3], [3, 5, Infinity, Infinity], [1, 2, 2, 1])));
    expect(Object.is(got[0], -0)).toBe(true);
    expect(got.slice(1)).toEqual([Math.fround(5 - 0.001), 3, Infinity]);
  });

  it('FLOOR_DIV with a zero divisor element fails, as TFLite Micro checks every divisor first', () => {
    const c = binary('floor_div', [1, 2, 3, 4], [1, -0, 2, 3], [1, 2, 2, 1]);
    expect(() => interpretCase(c)).toThrow(/division by zero \(divisor element 1 is 0\)/);
  });
});

describe('FLOOR_DIV and FLOOR_MOD at import', () => {
  const f = (shape: number[]) => ({ shape, dtype: 'float32' as const });
  it.each(['FLOOR_DIV', 'FLOOR_MOD'])('%s: int32 and a broadcast over 5 dimensions are rejected in one line', (op) => {
    const int32 = importErrorOf({ name: op, op, inputs: [{ shape: [4], dtype: 'int32' }, { shape: [4], dtype: 'int32' }], outputs: [{ shape: [4], dtype: 'int32' }] });
    expect(int32).toBeInstanceOf(UnsupportedOperatorError);
    const file = op === 'FLOOR_DIV' ? 'floor_div.cc' : 'floor_mod.cc';
    expect(int32.message).toBe(`unsupported input 0 type int32 (supported: float32) on ${op} at operator #0 in m.tflite: TFLite Micro's ${op} kernel (${file}) does not support int32 inputs`);
    const rank5 = importErrorOf({ name: op, op, inputs: [f([2, 1, 2, 1, 3]), f([3])], outputs: [f([2, 1, 2, 1, 3])] });
    expect(rank5.message).toBe(`unsupported broadcast over 5 axes (TFLite Micro broadcasts at most 4) on ${op} at operator #0 in m.tflite`);
    const same5: SingleOp = { name: op, op, inputs: [f([2, 1, 2, 1, 3]), f([2, 1, 2, 1, 3])], outputs: [f([2, 1, 2, 1, 3])] };
    const broadcast4: SingleOp = { name: op, op, inputs: [f([2, 3, 1, 4]), f([3, 5, 1])], outputs: [f([2, 3, 5, 4])] };
    expect(checkTflite(combinedTflite([same5, broadcast4])).unsupported).toEqual([]);
  });
});

describe('math operators with shapes that do not fit', () => {
  class NothingBackend extends UmaBackend {
    readonly targetName = 'nothing';
  }
  const f = (shape: number[]) => ({ shape, dtype: 'float32' as const });
  it.each([
    [{ name: 'n', op: 'ADD_N', inputs: [f([4]), f([4])], outputs: [f([5])] }, "m.tflite: main: add_n 'y0' declares [5] float32 but its arguments give [4] float32"],
    [{ name: 'n', op: 'FLOOR_DIV', inputs: [f([4]), f([3])], outputs: [f([4])] }, "m.tflite: main: 'y0': floor_div: shapes do not broadcast (arguments: [4] float32, [3] float32)"],
    [{ name: 'n', op: 'ROUND', inputs: [f([4])], outputs: [f([3])] }, "m.tflite: main: round 'y0' declares [3] float32 but its arguments give [4] float32"],
  ] as [SingleOp, string][])('%# fails to compile in one line naming the operator', (c, message) => {
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const e = errorOf(() => compileModel(importTflite(singleOpTflite(c), 'm.tflite'), { backend: 'nothing', registry }));
    expect(e).toBeInstanceOf(UmaError);
    expect(e.message).toBe(message);
  });
});

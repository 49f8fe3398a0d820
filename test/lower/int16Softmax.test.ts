/**
 * The keyword_scrambled tail lowered for the host: int8 -> int16 softmax as the
 * `uma_ref_softmax_int8_int16` runtime kernel (its evaluator simulation here, the C kernel in
 * test/e2e/allModels.test.ts) and integer requantize to and from int32, each compared byte
 * for byte with the reference interpreter.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { LoweringError } from '../../src/errors';
import { collectCallExterns } from '../../src/ir/tir/analysis';
import { i8, q, randomTensor, rng, runBoth, singleOpModule, lowerForCpu } from './helpers';

const SOFTMAX_OUT = tensorType([4, 9], 'int16', q(1 / 65536, -32768));

function int16Values(bytes: Uint8Array): number[] {
  return Array.from(new Int16Array(bytes.slice().buffer));
}

describe('softmax int8 -> int16', () => {
  it.each([
    ['scale 0.1, beta 1', 0.1, 1, 81],
    ['scale 0.02, beta 2.5', 0.02, 2.5, 82],
    ['scale 0.5 (many differences below diff_min)', 0.5, 1, 83],
  ])('%s matches the interpreter', (_name, scale, beta, seed) => {
    const input = i8([4, 9], scale, 3);
    const module = singleOpModule('softmax', input, [], SOFTMAX_OUT, { beta });
    const { lowered, reference, tir } = runBoth(module, [randomTensor(rng(seed), input)]);
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    expect(new Set(int16Values(reference[0])).size).toBeGreaterThan(4);
    const kernels = [...tir.functions.values()].flatMap((f) => collectCallExterns(f).map((c) => c.name));
    expect(kernels).toContain('uma_ref_softmax_int8_int16');
  });

  it('an int16 output with zero point 0 is a lowering error naming the requirement', () => {
    const module = singleOpModule('softmax', i8([1, 4], 0.1), [], tensorType([1, 4], 'int16', q(1 / 32768, 0)), { beta: 1 });
    expect(() => lowerForCpu(module)).toThrow(LoweringError);
    expect(() => lowerForCpu(module)).toThrow(/int16 output must have zero point -32768 and scale 1\/65536/);
  });
});

describe('quantize with int32', () => {
  it('int16 -> int32 (after the int16 softmax) matches the interpreter', () => {
    const input = tensorType([3, 11], 'int16', q(1 / 65535, -32768));
    const module = singleOpModule('quantize', input, [], tensorType([3, 11], 'int32', q(1 / 32767, 0)), {});
    const { lowered, reference } = runBoth(module, [randomTensor(rng(84), input)]);
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    expect(new Set(new Int32Array(reference[0].slice().buffer)).size).toBeGreaterThan(4);
  });

  it('int32 -> int8 clamps to int8 as the interpreter does', () => {
    const input = tensorType([2, 13], 'int32', q(0.01, 5));
    const module = singleOpModule('quantize', input, [], i8([2, 13], 0.05, -3), {});
    const { lowered, reference } = runBoth(module, [randomTensor(rng(85), input)]);
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    const values = new Int8Array(reference[0].slice().buffer);
    expect(values).toContain(127);
    expect(new Set(values).size).toBeGreaterThan(4);
  });

  it('float32 -> int32 is rejected (TFLite Micro has no such quantize)', () => {
    const module = singleOpModule('quantize', tensorType([4], 'float32'), [], tensorType([4], 'int32', q(0.1, 0)), {});
    expect(() => lowerForCpu(module)).toThrow(/quantize float32 -> int32 is not supported/);
  });
});

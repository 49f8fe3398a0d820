/**
 * BATCH_MATMUL: interpreter (TFLite Micro reference) vs TIR evaluator vs generated C,
 * float32, int8 and int16, adj_x / adj_y, broadcast batch axes, constant and runtime rhs.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { TensorType } from '../../src/ir/graph/types';
import { f32, float32Bytes, i8, q, randomTensor, rng } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, OpCase } from './opCases';

const i16 = (shape: number[], scale: number): TensorType => tensorType(shape, 'int16', q(scale, 0));

function bmm(label: string, lhs: TensorType, rhs: TensorType, out: TensorType, adjX = false, adjY = false, constantRhs = false): OpCase {
  const attrs = { adj_x: adjX, adj_y: adjY };
  if (constantRhs) return { label, op: 'batch_matmul', input: lhs, constants: [{ type: rhs, data: randomTensor(rng(77), rhs) }], out, attrs };
  return { label, op: 'batch_matmul', input: lhs, moreInputs: [rhs], out, attrs };
}

const CASES: OpCase[] = [
  bmm('float 2-d', f32([3, 4]), f32([4, 5]), f32([3, 5])),
  bmm('float batch 2, adj_y, constant rhs', f32([2, 3, 6]), f32([2, 4, 6]), f32([2, 3, 4]), false, true, true),
  bmm('float broadcast [2,1] x [3], adj_x', f32([2, 1, 5, 3]), f32([3, 5, 2]), f32([2, 3, 3, 2]), true),
  bmm('int8 batch 2', i8([2, 3, 4], 0.05, -3), i8([2, 4, 5], 0.04, 2), i8([2, 3, 5], 0.1, 1)),
  bmm('int8 adj_x adj_y, broadcast rhs', i8([3, 4, 2], 0.05, 10), i8([5, 4], 0.02, 0), i8([3, 2, 5], 0.03, -5), true, true, true),
  bmm('int16 batch 2', i16([2, 3, 6], 0.0005), i16([2, 6, 4], 0.0004), i16([2, 3, 4], 0.00002)),
  bmm('int16 adj_y constant rhs', i16([3, 5], 0.001), i16([4, 5], 0.0008), i16([3, 4], 0.0002), false, true, true),
  bmm('int8 rank 4 broadcast both', i8([1, 2, 3, 4], 0.06, 0), i8([3, 1, 4, 2], 0.05, -1), i8([3, 2, 3, 2], 0.2, 0)),
];

describe('batch_matmul: TIR evaluator vs interpreter', () => {
  it.each(CASES.map((c, i) => [c.label, c, i] as const))('%s', (_label, c, i) => {
    const ref = expectTirMatches(c, 40 + i);
    const values = c.out.dtype === 'float32' ? new Float32Array(ref.buffer) : c.out.dtype === 'int16' ? new Int16Array(ref.buffer) : new Int8Array(ref.buffer);
    expect(new Set(values).size).toBeGreaterThan(2);
  });
});

describe('batch_matmul: TFLite Micro kernel-test figures', () => {
  // batch_matmul_test.cc Ones: lhs [3,2,1,4] = 1..24, rhs [3,1,4,1] = 1..12, output [3,2,1,1].
  it('Ones', () => {
    const c: OpCase = {
      label: '',
      op: 'batch_matmul',
      input: f32([3, 2, 1, 4]),
      constants: [{ type: f32([3, 1, 4, 1]), data: float32Bytes(Array.from({ length: 12 }, (_, i) => i + 1)) }],
      out: f32([3, 2, 1, 1]),
      attrs: { adj_x: false, adj_y: false },
      data: float32Bytes(Array.from({ length: 24 }, (_, i) => i + 1)),
    };
    expect(Array.from(new Float32Array(interpretCase(c).buffer))).toEqual([30, 70, 278, 382, 782, 950]);
  });
});

describe('batch_matmul: generated C vs interpreter (gcc)', () => {
  it('float32 and int8 cases', () => {
    expectCRunsByteExact(CASES, 4);
  });
});

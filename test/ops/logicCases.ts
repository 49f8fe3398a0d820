/**
 * Cases of the comparisons, logical operators and select shared by the TIR-evaluator and gcc
 * suites: one call each, seeded inputs drawn from small ranges so that ties (equal operands)
 * happen, broadcasts in every operand, int8/int16 operands with equal and with different
 * quantization.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { DType, TensorType, tensorElements } from '../../src/ir/graph/types';
import { randomInt } from '../../src/util/random';
import { q, rng } from '../lower/helpers';
import { OpCase } from './opCases';

export const qt = (shape: number[], dtype: DType, scale: number, zp = 0): TensorType => tensorType(shape, dtype, q(scale, zp));
export const tt = (shape: number[], dtype: DType): TensorType => tensorType(shape, dtype);

/** Stored values of `type` as little-endian bytes. */
export function bytesOf(type: TensorType, values: readonly number[]): Uint8Array {
  switch (type.dtype) {
    case 'int8':
      return new Uint8Array(Int8Array.from(values).buffer);
    case 'uint8':
    case 'bool':
      return Uint8Array.from(values);
    case 'int16':
      return new Uint8Array(Int16Array.from(values).buffer);
    case 'int32':
      return new Uint8Array(Int32Array.from(values).buffer);
    case 'uint32':
      return new Uint8Array(Uint32Array.from(values).buffer);
    case 'int64':
      return new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer);
    case 'uint64':
      return new Uint8Array(BigUint64Array.from(values.map((v) => BigInt(v))).buffer);
    case 'float32':
      return new Uint8Array(Float32Array.from(values).buffer);
  }
}

/** Seeded values in [lo, hi] (floats: multiples of 0.25, so equal values occur). */
export function smallValues(seed: number, type: TensorType, lo: number, hi: number): Uint8Array {
  const r = rng(seed);
  const n = tensorElements(type);
  if (type.dtype === 'bool') return bytesOf(type, Array.from({ length: n }, () => randomInt(r, 0, 1)));
  const step = type.dtype === 'float32' ? 0.25 : 1;
  return bytesOf(type, Array.from({ length: n }, () => randomInt(r, lo / step, hi / step) * step));
}

let seed = 1;

interface Operand {
  readonly type: TensorType;
  readonly range?: [number, number];
  /** Fixed stored values instead of seeded ones. */
  readonly values?: readonly number[];
}

function logicCase(label: string, op: string, operands: readonly Operand[], out: TensorType): OpCase {
  const data = operands.map((o) => (o.values ? bytesOf(o.type, o.values) : smallValues(seed++, o.type, ...(o.range ?? [-4, 4]))));
  return {
    label,
    op,
    input: operands[0].type,
    moreInputs: operands.slice(1).map((o) => o.type),
    out,
    attrs: {},
    data: data[0],
    moreData: data.slice(1),
  };
}

export const COMPARISON_OPS = ['equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal'] as const;

/** Every comparison in each dtype its TFLM kernel takes, logical ops and select. */
export function logicCases(): OpCase[] {
  seed = 1;
  const cases: OpCase[] = [];
  const bool = (shape: number[]): TensorType => tt(shape, 'bool');
  for (const op of COMPARISON_OPS) {
    cases.push(logicCase(`${op} float32 broadcast`, op, [{ type: tt([2, 3, 4], 'float32') }, { type: tt([3, 1], 'float32') }], bool([2, 3, 4])));
    // NaN compares unequal and unordered, -0 equals 0, infinities order: as C does.
    cases.push(
      logicCase(
        `${op} float32 NaN, signed zeros, infinities`,
        op,
        [
          { type: tt([7], 'float32'), values: [NaN, 0, -0, Infinity, -Infinity, 1, 2] },
          { type: tt([7], 'float32'), values: [NaN, -0, 0, Infinity, 1, NaN, 1] },
        ],
        bool([7]),
      ),
    );
    cases.push(logicCase(`${op} int32 same shape`, op, [{ type: tt([5, 6], 'int32') }, { type: tt([5, 6], 'int32') }], bool([5, 6])));
    cases.push(logicCase(`${op} int64 broadcast lhs`, op, [{ type: tt([4, 1], 'int64') }, { type: tt([1, 5], 'int64') }], bool([4, 5])));
    // Different scales and zero points: both rescaled to a common scale first (TFLM).
    cases.push(
      logicCase(
        `${op} int8 rescaled broadcast`,
        op,
        [
          { type: qt([2, 2, 6], 'int8', 0.5, -5), values: Array.from({ length: 24 }, (_, i) => -9 + ((i * 7) % 9)) },
          // Reals -2, -1, 0, 1, 2, 0.5: each also a value of the lhs grid, so ties occur.
          { type: qt([6], 'int8', 0.25, 5), values: [-3, 1, 5, 9, 13, 7] },
        ],
        bool([2, 2, 6]),
      ),
    );
    // Same quantization: the stored values compare directly.
    cases.push(logicCase(`${op} int8 same quantization`, op, [{ type: qt([3, 7], 'int8', 0.1, 3), range: [-3, 3] }, { type: qt([3, 7], 'int8', 0.1, 3), range: [-3, 3] }], bool([3, 7])));
  }
  for (const op of ['equal', 'not_equal']) {
    cases.push(logicCase(`${op} bool broadcast`, op, [{ type: bool([3, 4]) }, { type: bool([4]) }], bool([3, 4])));
  }
  cases.push(
    logicCase('greater int16 rescaled', 'greater', [{ type: qt([20], 'int16', 0.002, 0), range: [-40, 40] }, { type: qt([20], 'int16', 0.001, 0), range: [-80, 80] }], bool([20])),
  );
  cases.push(
    logicCase('greater int16 same quantization broadcast', 'greater', [{ type: qt([3, 8], 'int16', 0.01, 0), range: [-9, 9] }, { type: qt([3, 1], 'int16', 0.01, 0), range: [-9, 9] }], bool([3, 8])),
  );
  for (const op of ['logical_and', 'logical_or']) {
    cases.push(logicCase(`${op} broadcast`, op, [{ type: bool([2, 1, 5]) }, { type: bool([3, 1]) }], bool([2, 3, 5])));
    cases.push(logicCase(`${op} same shape`, op, [{ type: bool([16]) }, { type: bool([16]) }], bool([16])));
  }
  cases.push(logicCase('logical_not', 'logical_not', [{ type: bool([3, 5]) }], bool([3, 5])));
  cases.push(logicCase('select float32 broadcast all three', 'select', [{ type: bool([2, 1, 4]) }, { type: tt([3, 1], 'float32') }, { type: tt([4], 'float32') }], tt([2, 3, 4], 'float32')));
  cases.push(
    logicCase('select int8 same shape', 'select', [{ type: bool([12]) }, { type: qt([12], 'int8', 0.1, 2), range: [-128, 127] }, { type: qt([12], 'int8', 0.1, 2), range: [-128, 127] }], qt([12], 'int8', 0.1, 2)),
  );
  cases.push(
    logicCase(
      'select int16 row condition',
      'select',
      [{ type: bool([2, 1]) }, { type: qt([2, 5], 'int16', 0.01), range: [-32768, 32767] }, { type: qt([2, 5], 'int16', 0.01), range: [-32768, 32767] }],
      qt([2, 5], 'int16', 0.01),
    ),
  );
  return cases;
}

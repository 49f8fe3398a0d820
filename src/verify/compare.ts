/**
 * Output comparison of a verification run: integers byte-exact (every element equal), float32
 * within a stated tolerance |actual - expected| <= atol + rtol * |expected| (NaN only equals
 * NaN).
 */
import { DType } from '../ir/graph/types';

export interface FloatTolerance {
  readonly atol: number;
  readonly rtol: number;
}

/** The generated C matches the interpreter bit for bit on the bundled float models; this leaves room for other libms. */
export const DEFAULT_FLOAT_TOLERANCE: FloatTolerance = { atol: 1e-5, rtol: 1e-5 };

export interface TensorComparison {
  readonly equal: boolean;
  /** Largest |actual - expected| over the elements (0 when equal; NaN when a NaN differs). */
  readonly maxAbsDiff: number;
  readonly mismatches: number;
  /** First element that differs: flat index and both values. */
  readonly first?: { readonly index: number; readonly expected: number; readonly actual: number };
}

function view(bytes: Uint8Array, dtype: DType): ArrayLike<number | bigint> {
  const b = bytes.slice().buffer;
  switch (dtype) {
    case 'int8':
      return new Int8Array(b);
    case 'uint8':
    case 'bool':
      return new Uint8Array(b);
    case 'int16':
      return new Int16Array(b);
    case 'int32':
      return new Int32Array(b);
    case 'uint32':
      return new Uint32Array(b);
    case 'int64':
      return new BigInt64Array(b);
    case 'uint64':
      return new BigUint64Array(b);
    case 'float32':
      return new Float32Array(b);
  }
}

export function compareTensor(
  expected: Uint8Array,
  actual: Uint8Array,
  dtype: DType,
  tolerance: FloatTolerance = DEFAULT_FLOAT_TOLERANCE,
): TensorComparison {
  const e = view(expected, dtype);
  const a = view(actual, dtype);
  let maxAbsDiff = 0;
  let mismatches = 0;
  let first: TensorComparison['first'];
  const n = Math.max(e.length, a.length);
  for (let i = 0; i < n; i++) {
    const x = Number(e[i] ?? NaN);
    const y = Number(a[i] ?? NaN);
    let same: boolean;
    // Equal values first: inf - inf is NaN, which no tolerance admits; and the tolerance only
    // between finite values (rtol * inf would admit anything next to an infinity).
    const identical = x === y || (Number.isNaN(x) && Number.isNaN(y));
    if (dtype === 'float32') {
      same = identical || (Number.isFinite(x) && Number.isFinite(y) && Math.abs(y - x) <= tolerance.atol + tolerance.rtol * Math.abs(x));
    } else {
      same = e[i] === a[i];
    }
    const diff = identical ? 0 : Math.abs(y - x);
    if (Number.isNaN(diff)) maxAbsDiff = NaN;
    else if (diff > maxAbsDiff) maxAbsDiff = diff;
    if (!same) {
      mismatches++;
      if (first === undefined) first = { index: i, expected: x, actual: y };
    }
  }
  return { equal: mismatches === 0, maxAbsDiff, mismatches, ...(first ? { first } : {}) };
}

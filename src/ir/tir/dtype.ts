/**
 * Storage size of TIR scalar dtypes: the one table the evaluator, the memory planner and the
 * C codegen share, so a buffer has the same byte size everywhere it is measured.
 */
import { DTYPE_BYTES } from '../graph/types';
import { ScalarDType } from './nodes';

// Graph dtypes keep their graph sizes; a handle is a 64-bit pointer (the evaluator and the
// planner's host model) and void has no storage.
const SCALAR_DTYPE_BYTES: Readonly<Record<ScalarDType, number>> = { ...DTYPE_BYTES, handle: 8, void: 0 };

/** Bytes one element of `dtype` occupies in memory (0 for `void`). */
export function dtypeBytes(dtype: ScalarDType): number {
  return SCALAR_DTYPE_BYTES[dtype];
}

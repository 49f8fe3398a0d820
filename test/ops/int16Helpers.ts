/** Shared fixtures of the int16 / 16x8 operator tests. */
import { tensorType } from '../../src/ir/graph/builder';
import { TensorType } from '../../src/ir/graph/types';
import { int32Bytes, q, randomInts } from '../lower/helpers';

export type Const = { type: TensorType; data: Uint8Array };

export const i16 = (shape: number[], scale: number): TensorType => tensorType(shape, 'int16', q(scale, 0));

export function int16Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(Int16Array.from(values).buffer);
}

export function int64Bytes(values: readonly number[]): Uint8Array {
  return new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer);
}

export function bias64(r: () => number, n: number, range = 2_000_000): Const {
  return { type: tensorType([n], 'int64'), data: int64Bytes(randomInts(r, n, -range, range)) };
}

export function bias32(r: () => number, n: number, range = 200_000): Const {
  return { type: tensorType([n], 'int32'), data: int32Bytes(randomInts(r, n, -range, range)) };
}

/** Full-range int16 input with the extremes present. */
export function int16Input(r: () => number, n: number): Uint8Array {
  const v = randomInts(r, n, -32768, 32767);
  v[0] = -32768;
  if (n > 1) v[1] = 32767;
  return int16Bytes(v);
}


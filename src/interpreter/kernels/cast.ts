/**
 * CAST as TFLite Micro's kernel (C `static_cast`): int to float exactly, float to int
 * truncating toward zero (saturated to int32 first, where C leaves it undefined), integers
 * wrap to narrower types, bool is x != 0.
 */
import { FLOAT_INT32_MAX } from '../../arith/elementwise';
import { DType } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { mapUnary, requireDtype } from './elementwise';

const CASTABLE: readonly DType[] = ['float32', 'int8', 'uint8', 'int16', 'int32', 'uint32', 'bool'];

/** The cast of one element from `from` to `to`, as the CPU lowering computes it. */
export function castElement(x: number, from: DType, to: DType): number {
  if (to === 'bool') return x !== 0 ? 1 : 0;
  if (to === 'float32') return Math.fround(x);
  const v = from === 'float32' ? Math.trunc(Math.min(Math.max(x, -2147483648), FLOAT_INT32_MAX)) : x;
  switch (to) {
    case 'int8':
      return (v << 24) >> 24;
    case 'uint8':
      return v & 0xff;
    case 'int16':
      return (v << 16) >> 16;
    case 'uint32':
      return v >>> 0;
    default:
      return v | 0;
  }
}

export function cast(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  requireDtype(ctx, input.type.dtype, CASTABLE, 'input');
  requireDtype(ctx, ctx.outType.dtype, CASTABLE, 'output');
  const from = input.type.dtype;
  const to = ctx.outType.dtype;
  return mapUnary(ctx, (x) => castElement(x, from, to), input);
}

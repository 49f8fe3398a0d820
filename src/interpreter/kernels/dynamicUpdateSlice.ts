/**
 * DYNAMIC_UPDATE_SLICE as TFLite Micro's kernel: the operand copied, then the update written
 * from the start indices, each clamped (in 64 bits) into [0, operand dim - update dim].
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';

/** Row-major strides of `shape`. */
function strides(shape: readonly number[]): number[] {
  const s = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

export function dynamicUpdateSlice(ctx: KernelContext): TypedArray {
  const operand = ctx.input(0, 'operand');
  const update = ctx.input(1, 'update');
  const indices = ctx.input(2, 'start_indices');
  const shape = operand.type.shape;
  const ushape = update.type.shape;
  const rank = shape.length;
  if (update.type.dtype !== operand.type.dtype || ushape.length !== rank || indices.data.length !== rank) throw ctx.fail('operand, update and start_indices do not match');
  const start = Array.from({ length: rank }, (_, d) => {
    const raw = BigInt(indices.data[d]);
    const hi = BigInt(shape[d] - ushape[d]);
    return Number(raw < 0n ? 0n : raw > hi ? hi : raw);
  });
  const out = operand.data.slice() as TypedArray;
  const os = strides(shape);
  const us = strides(ushape);
  const count = update.data.length;
  for (let u = 0; u < count; u++) {
    let o = 0;
    for (let d = 0; d < rank; d++) o += (start[d] + (Math.floor(u / us[d]) % ushape[d])) * os[d];
    out[o] = update.data[u] as never;
  }
  return out;
}

/**
 * GATHER as TFLite Micro's reference kernel (batch_dims 0): output = input with the `axis`
 * coordinate replaced by indices[...]. An index outside the axis is an error, as TFLite
 * Micro's kernel reports one.
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements } from './indexMap';

export function gather(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const indices = ctx.input(1, 'indices');
  const axis = ctx.number('axis');
  const rank = indices.type.shape.length;
  const istrides = new Array<number>(rank).fill(1);
  for (let d = rank - 2; d >= 0; d--) istrides[d] = istrides[d + 1] * indices.type.shape[d + 1];
  const size = input.type.shape[axis];
  return gatherElements(ctx, input, (out) => {
    let flat = 0;
    for (let d = 0; d < rank; d++) flat += out[axis + d] * istrides[d];
    const index = Number(indices.data[flat]);
    if (index < 0 || index >= size) throw ctx.fail(`index ${index} is outside [0, ${size}) on axis ${axis}`);
    return [...out.slice(0, axis), index, ...out.slice(axis + rank)];
  });
}

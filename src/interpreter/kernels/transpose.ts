/** TRANSPOSE: output axis d walks input axis perm[d]. */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { indexCopy, rowMajorStrides } from './indexCopy';

export function transpose(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const perm = ctx.numbers('perm');
  const inStrides = rowMajorStrides(input.type.shape);
  return indexCopy(ctx, input, ctx.outType.shape, (coord) => {
    let flat = 0;
    for (let d = 0; d < coord.length; d++) flat += coord[d] * inStrides[perm[d]];
    return flat;
  });
}

/**
 * strided_slice (STRIDED_SLICE, SLICE and the outputs of SPLIT/SPLIT_V/UNPACK, resolved at
 * import): element j of input axis d is begin[d] + j*strides[d]. The output keeps the
 * sliced elements in row-major order whatever its declared shape.
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { indexCopy, rowMajorStrides } from './indexCopy';

export function stridedSlice(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const begin = ctx.numbers('begin');
  const strides = ctx.numbers('strides');
  const sizes = ctx.numbers('sizes');
  const inStrides = rowMajorStrides(input.type.shape);
  return indexCopy(ctx, input, sizes, (coord) => {
    let flat = 0;
    for (let d = 0; d < coord.length; d++) flat += (begin[d] + coord[d] * strides[d]) * inStrides[d];
    return flat;
  });
}

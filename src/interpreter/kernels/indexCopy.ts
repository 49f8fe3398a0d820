/**
 * The shared shape of the data-movement kernels (pad, mirror_pad, transpose, strided_slice):
 * every output element is one input element, copied unchanged, or the fill value.
 */
import { KernelContext } from '../kernel';
import { allocateElements, Tensor, TypedArray } from '../tensor';

/**
 * Walks the output coordinates of `shape` in row-major order; `source(coord)` gives the flat
 * input index to copy or -1 for `fill`. Returns `shape`'s elements in the output's dtype.
 */
export function indexCopy(
  ctx: KernelContext,
  input: Tensor,
  shape: readonly number[],
  source: (coord: readonly number[]) => number,
  fill = 0,
): TypedArray {
  const total = shape.reduce((a, b) => a * b, 1);
  if (input.type.dtype !== ctx.outType.dtype) {
    throw ctx.fail(`input dtype ${input.type.dtype} differs from output dtype ${ctx.outType.dtype}`);
  }
  const out = allocateElements(ctx.outType.dtype, total);
  const src = input.data;
  const fillValue = out instanceof BigInt64Array ? BigInt(fill) : fill;
  const coord = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < total; i++) {
    const s = source(coord);
    (out as unknown as (number | bigint)[])[i] = s < 0 ? fillValue : (src as unknown as (number | bigint)[])[s];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++coord[d] < shape[d]) break;
      coord[d] = 0;
    }
  }
  return out;
}

/** Row-major strides of a shape. */
export function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length).fill(1);
  for (let d = shape.length - 2; d >= 0; d--) strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

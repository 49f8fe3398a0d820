/**
 * MIRROR_PAD (TFLite mirror_pad.cc): border elements mirror the input; REFLECT leaves the
 * edge out (offset 1), SYMMETRIC repeats it (offset 0).
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { indexCopy, rowMajorStrides } from './indexCopy';

/** The input index mirrored to output index `i` along one axis (TFLite's GetInputDimension). */
export function mirrorIndex(i: number, before: number, size: number, offset: number): number {
  if (i < before) {
    const original = before + offset - 1;
    return original - Math.min(i, original - offset);
  }
  const j = i - before;
  if (j >= size) {
    const original = size - (1 + offset);
    return original - Math.min(j - size, original);
  }
  return j;
}

export function mirrorPad(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const inShape = input.type.shape;
  const p = ctx.numbers('paddings');
  const offset = ctx.string('mode') === 'REFLECT' ? 1 : 0;
  const strides = rowMajorStrides(inShape);
  return indexCopy(ctx, input, ctx.outType.shape, (coord) => {
    let flat = 0;
    for (let d = 0; d < coord.length; d++) flat += mirrorIndex(coord[d], p[2 * d], inShape[d], offset) * strides[d];
    return flat;
  });
}

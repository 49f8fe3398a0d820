/** RESIZE_NEAREST_NEIGHBOR as TFLite's reference kernel (source rows/columns from src/arith/resize.ts). */
import { nearestNeighborIndices } from '../../arith/resize';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements } from './indexMap';

export function resizeNearestNeighbor(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const align = ctx.boolean('align_corners', false);
  const half = ctx.boolean('half_pixel_centers', false);
  const [, inH, inW] = input.type.shape;
  const [, outH, outW] = ctx.outType.shape;
  const ys = nearestNeighborIndices(inH, outH, align, half);
  const xs = nearestNeighborIndices(inW, outW, align, half);
  return gatherElements(ctx, input, ([n, y, x, c]) => [n, ys[y], xs[x], c]);
}

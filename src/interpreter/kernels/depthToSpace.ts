/** DEPTH_TO_SPACE as TFLite's reference kernel (NHWC). */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements } from './indexMap';

export function depthToSpace(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const b = ctx.number('block_size');
  const outC = ctx.outType.shape[3];
  return gatherElements(ctx, input, ([n, h, w, c]) => [n, Math.floor(h / b), Math.floor(w / b), c + ((h % b) * b + (w % b)) * outC]);
}

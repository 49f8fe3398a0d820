/** SPACE_TO_DEPTH as TFLite's reference kernel (NHWC). */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements } from './indexMap';

export function spaceToDepth(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const b = ctx.number('block_size');
  const inC = input.type.shape[3];
  return gatherElements(ctx, input, ([n, h, w, d]) => {
    const k = Math.floor(d / inC);
    return [n, h * b + Math.floor(k / b), w * b + (k % b), d % inC];
  });
}

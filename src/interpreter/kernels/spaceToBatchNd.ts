/**
 * SPACE_TO_BATCH_ND as TFLite's reference kernel (4-d NHWC, or 3-d NHC as NH1C): output batch b reads input batch
 * b % N at block offset (b / N) (row-major over the block); positions in the padding get the
 * output zero point (0.0 for float).
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements, nhwcView } from './indexMap';

export function spaceToBatchNd(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const [bh, bw] = ctx.numbers('block_shape');
  const [top, , left] = ctx.numbers('paddings');
  const shapes = { input: nhwcView(input.type.shape), output: nhwcView(ctx.outType.shape) };
  const [inN, inH, inW] = shapes.input;
  const pad = ctx.outType.dtype === 'float32' || !ctx.outType.quant ? 0 : ctx.quant(ctx.outType, 'output').zeroPoint;
  return gatherElements(
    ctx,
    input,
    ([b, h, w, c]) => {
      const shift = Math.floor(b / inN);
      const y = h * bh + Math.floor(shift / bw) - top;
      const x = w * bw + (shift % bw) - left;
      return y < 0 || y >= inH || x < 0 || x >= inW ? null : [b % inN, y, x, c];
    },
    pad,
    shapes,
  );
}

/**
 * BATCH_TO_SPACE_ND as TFLite's reference kernel (4-d NHWC, or 3-d NHC as NH1C): input batch
 * `(spatial offset) * output batches + b` lands at row `in_h * block_h + offset / block_w -
 * crop_top` (and likewise for columns); read here in gather form.
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements, nhwcView } from './indexMap';

export function batchToSpaceNd(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const [bh, bw] = ctx.numbers('block_shape');
  const [top, , left] = ctx.numbers('crops');
  const outBatch = ctx.outType.shape[0];
  const shapes = { input: nhwcView(input.type.shape), output: nhwcView(ctx.outType.shape) };
  return gatherElements(
    ctx,
    input,
    ([n, h, w, c]) => {
      const y = h + top;
      const x = w + left;
      return [((y % bh) * bw + (x % bw)) * outBatch + n, Math.floor(y / bh), Math.floor(x / bw), c];
    },
    0,
    shapes,
  );
}

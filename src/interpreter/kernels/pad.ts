/** PAD/PADV2 (TFLite Micro pad.cc): the input copied into the middle, `pad_value` around it. */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { indexCopy, rowMajorStrides } from './indexCopy';

export function pad(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const inShape = input.type.shape;
  const p = ctx.numbers('paddings');
  const strides = rowMajorStrides(inShape);
  return indexCopy(
    ctx,
    input,
    ctx.outType.shape,
    (coord) => {
      let flat = 0;
      for (let d = 0; d < coord.length; d++) {
        const i = coord[d] - p[2 * d];
        if (i < 0 || i >= inShape[d]) return -1;
        flat += i * strides[d];
      }
      return flat;
    },
    ctx.number('pad_value', 0),
  );
}

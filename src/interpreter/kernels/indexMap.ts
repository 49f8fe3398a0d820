/** Data-movement kernels as "each output element copies one input element (or a pad value)". */
import { KernelContext } from '../kernel';
import { allocateTensorData, Tensor, TypedArray } from '../tensor';

/**
 * Walks the output row-major; `source` gives the input coordinate each output element reads,
 * or null for a padding element, which gets `pad`.
 */
export function gatherElements(ctx: KernelContext, input: Tensor, source: (out: readonly number[]) => readonly number[] | null, pad = 0): TypedArray {
  const outShape = ctx.outType.shape;
  const inShape = input.type.shape;
  const strides = new Array<number>(inShape.length).fill(1);
  for (let d = inShape.length - 2; d >= 0; d--) strides[d] = strides[d + 1] * inShape[d + 1];
  const out = allocateTensorData(ctx.outType);
  const coord = new Array<number>(outShape.length).fill(0);
  for (let i = 0; i < out.length; i++) {
    const src = source(coord);
    if (src === null) out[i] = pad;
    else {
      let flat = 0;
      src.forEach((c, d) => {
        if (c < 0 || c >= inShape[d]) throw ctx.fail(`reads input coordinate [${src}] outside [${inShape}]`);
        flat += c * strides[d];
      });
      out[i] = input.data[flat];
    }
    for (let d = outShape.length - 1; d >= 0; d--) {
      if (++coord[d] < outShape[d]) break;
      coord[d] = 0;
    }
  }
  return out;
}


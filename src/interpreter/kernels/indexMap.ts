/** Data-movement kernels as "each output element copies one input element (or a pad value)". */
import { KernelContext } from '../kernel';
import { allocateTensorData, Tensor, TypedArray } from '../tensor';

/**
 * Walks the output row-major; `source` gives the input coordinate each output element reads,
 * or null for a padding element, which gets `pad`.
 */
export function gatherElements(
  ctx: KernelContext,
  input: Tensor,
  source: (out: readonly number[]) => readonly number[] | null,
  pad = 0,
  /** Views of the same row-major elements (e.g. 3-d NHC as 4-d NH1C); default the tensors' shapes. */
  shapes?: { readonly input: readonly number[]; readonly output: readonly number[] },
): TypedArray {
  const outShape = shapes?.output ?? ctx.outType.shape;
  const inShape = shapes?.input ?? input.type.shape;
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

/** TFLite's batch/space kernels take NHC as NH1C: the 4-d view of a 3-d or 4-d shape. */
export function nhwcView(shape: readonly number[]): number[] {
  return shape.length === 3 ? [shape[0], shape[1], 1, shape[2]] : [...shape];
}


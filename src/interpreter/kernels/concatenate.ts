/**
 * CONCATENATION and PACK (TFLite Micro's reference Concatenation): for each outer index
 * (the axes before `axis`), each input's contiguous block follows the previous one.
 * Values are copied unchanged: TFLite Micro requires int8 inputs to share the output's scale
 * and zero point (checked at import).
 */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

function concatBlocks(ctx: KernelContext, outer: number): TypedArray {
  const inputs = ctx.call.args.map((_, i) => ctx.input(i, `input ${i}`));
  const out = allocateTensorData(ctx.outType);
  for (const t of inputs) {
    if (t.type.dtype !== ctx.outType.dtype) throw ctx.fail(`input dtype ${t.type.dtype} differs from output dtype ${ctx.outType.dtype}`);
  }
  const blocks = inputs.map((t) => t.data.length / outer);
  let o = 0;
  for (let k = 0; k < outer; k++) {
    inputs.forEach((t, i) => {
      (out as Int8Array).set((t.data as Int8Array).subarray(k * blocks[i], (k + 1) * blocks[i]), o);
      o += blocks[i];
    });
  }
  if (o !== out.length) throw ctx.fail(`inputs hold ${o} elements, the output ${out.length}`);
  return out;
}

function outerSize(shape: readonly number[], axis: number): number {
  return shape.slice(0, axis).reduce((a, b) => a * b, 1);
}

export function concatenate(ctx: KernelContext): TypedArray {
  return concatBlocks(ctx, outerSize(ctx.outType.shape, ctx.number('axis')));
}

export function pack(ctx: KernelContext): TypedArray {
  return concatBlocks(ctx, outerSize(ctx.outType.shape, ctx.number('axis')));
}

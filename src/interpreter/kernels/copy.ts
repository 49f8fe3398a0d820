/**
 * copy: identity data movement (a DMA transfer, an accelerator's input fetcher, a layout
 * transform that keeps the element order). The values pass through unchanged.
 */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';

export function copy(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const { shape, dtype } = ctx.outType;
  if (input.type.dtype !== dtype || input.type.shape.join(',') !== shape.join(',')) {
    throw ctx.fail(`cannot copy ${input.type.dtype}[${input.type.shape.join(', ')}] to ${dtype}[${shape.join(', ')}]`);
  }
  // Values are never mutated after a kernel returns, so sharing the elements is safe.
  return input.data;
}

/** RESHAPE: same elements, new shape (the call's output type). */
import { tensorElements } from '../../ir/graph/types';
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';

export function reshape(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const n = tensorElements(ctx.outType);
  if (input.data.length !== n || input.type.dtype !== ctx.outType.dtype) {
    throw ctx.fail(
      `cannot reshape ${input.type.dtype}[${input.type.shape.join(', ')}] to ${ctx.outType.dtype}[${ctx.outType.shape.join(', ')}]`,
    );
  }
  // Values are never mutated after a kernel returns, so sharing the elements is safe.
  return input.data;
}

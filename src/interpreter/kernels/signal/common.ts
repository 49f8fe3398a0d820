/** What the signal-library kernels share: typed inputs checked by dtype, as their Prepare does. */
import { DType } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';

export function typedInput<T extends TypedArray>(ctx: KernelContext, k: number, dtype: DType, role: string): T {
  const t = ctx.input(k, role);
  if (t.type.dtype !== dtype) throw ctx.unsupported(`${role} dtype ${t.type.dtype} (${ctx.op} takes ${dtype})`);
  return t.data as T;
}

/** signal_flag: element `index` of a packed int16 output is not 0 (a bool scalar). */
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFlag(ctx: KernelContext): TypedArray {
  const packed = typedInput<Int16Array>(ctx, 0, 'int16', 'packed');
  const index = ctx.number('index');
  if (index < 0 || index >= packed.length) throw ctx.fail(`index ${index} outside the packed output`);
  return Uint8Array.of(packed[index] !== 0 ? 1 : 0);
}

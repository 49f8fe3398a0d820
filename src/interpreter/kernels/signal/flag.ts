/** signal_flag: element `index` of a packed int16 (Stacker, Framer) or int8 (CIRCULAR_BUFFER) output is not 0 (a bool scalar). */
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';

export function signalFlag(ctx: KernelContext): TypedArray {
  const t = ctx.input(0, 'packed');
  if (t.type.dtype !== 'int16' && t.type.dtype !== 'int8') throw ctx.unsupported(`packed dtype ${t.type.dtype} (${ctx.op} takes int16 or int8)`);
  const packed = t.data as Int16Array | Int8Array;
  const index = ctx.number('index');
  if (index < 0 || index >= packed.length) throw ctx.fail(`index ${index} outside the packed output`);
  return Uint8Array.of(packed[index] !== 0 ? 1 : 0);
}

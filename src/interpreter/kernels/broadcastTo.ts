/** BROADCAST_TO: numpy broadcasting of the input to the output shape. */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { gatherElements } from './indexMap';

export function broadcastTo(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  const shape = input.type.shape;
  const lead = ctx.outType.shape.length - shape.length;
  if (lead < 0) throw ctx.fail(`input rank ${shape.length} exceeds output rank ${ctx.outType.shape.length}`);
  return gatherElements(ctx, input, (out) => shape.map((d, i) => (d === 1 ? 0 : out[lead + i])));
}

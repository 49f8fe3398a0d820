/**
 * BROADCAST_ARGS as TFLite Micro's kernel, on shapes read at run time (known ones were folded
 * at import). Shapes that do not broadcast are an error here; TFLite Micro aborts on them.
 */
import { broadcastShapeValues } from '../../ir/graph/miscTypes';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

/** A dimension as the reference kernel's C `int` sees it (an int64 one modulo 2^32). */
function dims(data: TypedArray): number[] {
  return Array.from(data as ArrayLike<number | bigint>, (v) => (typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : v));
}

export function broadcastArgs(ctx: KernelContext): TypedArray {
  const left = dims(ctx.input(0, 'shape1').data);
  const right = dims(ctx.input(1, 'shape2').data);
  const { values, conflict } = broadcastShapeValues(left, right);
  if (conflict) {
    throw ctx.fail(`shapes [${left}] and [${right}] do not broadcast: dimension ${conflict.index} is ${conflict.left} and ${conflict.right}`);
  }
  const out = allocateTensorData(ctx.outType);
  if (out.length !== values.length) throw ctx.fail(`output has ${out.length} elements, the broadcast shape ${values.length}`);
  values.forEach((v, i) => {
    if (out instanceof BigInt64Array) out[i] = BigInt(v);
    else out[i] = v;
  });
  return out;
}

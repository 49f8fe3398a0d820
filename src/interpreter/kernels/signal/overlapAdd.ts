/** SignalOverlapAdd (int16, float32) as TFLite Micro: the per-row buffers written back to the session. */
import { overlapAdd } from '../../../arith/signal';
import { tensorElements } from '../../../ir/graph/types';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';

export function signalOverlapAdd(ctx: KernelContext): TypedArray {
  const x = ctx.input(0, 'input');
  const s = ctx.input(1, 'state');
  const dtype = x.type.dtype;
  if ((dtype !== 'int16' && dtype !== 'float32') || s.type.dtype !== dtype) throw ctx.unsupported(`dtypes ${dtype}, state ${s.type.dtype} (int16 or float32, alike)`);
  const [frames, size] = x.type.shape.slice(-2);
  const state = dtype === 'int16' ? Int16Array.from(s.data as Int16Array) : Float32Array.from(s.data as Float32Array);
  const out = dtype === 'int16' ? new Int16Array(tensorElements(ctx.outType)) : new Float32Array(tensorElements(ctx.outType));
  overlapAdd(x.data as Int16Array | Float32Array, state, frames, size, ctx.number('frame_step'), out);
  ctx.updateVariable(1, state);
  return out;
}

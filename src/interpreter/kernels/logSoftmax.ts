/** LOG_SOFTMAX over the last axis, int8 as TFLite Micro (src/arith/logSoftmax.ts). */
import { logSoftmaxInt8Rows, logSoftmaxQuantParams } from '../../arith/logSoftmax';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

export function logSoftmax(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  if (input.type.dtype !== 'int8' || ctx.outType.dtype !== 'int8') throw ctx.unsupported(`dtype ${input.type.dtype} -> ${ctx.outType.dtype}`);
  const shape = input.type.shape;
  const depth = shape.length === 0 ? 1 : shape[shape.length - 1];
  const outer = depth === 0 ? 0 : input.data.length / depth;
  const out = allocateTensorData(ctx.outType);
  logSoftmaxInt8Rows(input.data as Int8Array, out as Int8Array, outer, depth, logSoftmaxQuantParams(ctx.quant(input.type, 'input').scale));
  return out;
}

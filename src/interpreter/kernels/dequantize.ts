/** DEQUANTIZE as TFLite: float(double(scale) * (q - zero_point)). */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

export function dequantize(ctx: KernelContext): TypedArray {
  const input = ctx.input(0, 'input');
  if (ctx.outType.dtype !== 'float32') throw ctx.unsupported(`output dtype ${ctx.outType.dtype}`);
  if (!['int8', 'uint8', 'int16'].includes(input.type.dtype)) throw ctx.unsupported(`input dtype ${input.type.dtype}`);
  const { scale, zeroPoint } = ctx.quant(input.type, 'input');
  const s = Math.fround(scale);
  const x = input.data as Int8Array | Uint8Array | Int16Array;
  const out = allocateTensorData(ctx.outType) as Float32Array;
  if (out.length !== x.length) throw ctx.fail('output and input element counts differ');
  for (let i = 0; i < x.length; i++) out[i] = s * (x[i] - zeroPoint);
  return out;
}

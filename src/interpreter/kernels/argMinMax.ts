/**
 * ARG_MAX / ARG_MIN as TFLite's reference ArgMinMax: along `axis`, the first index whose
 * value compares strictly greater (less) than the best so far; int32 or int64 indices.
 */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';

function argExtreme(kind: 'max' | 'min') {
  return (ctx: KernelContext): TypedArray => {
    const input = ctx.input(0, 'input');
    if (!['float32', 'int8', 'int16'].includes(input.type.dtype)) throw ctx.unsupported(`input dtype ${input.type.dtype}`);
    const shape = input.type.shape;
    const axis = ctx.number('axis');
    if (!Number.isInteger(axis) || axis < 0 || axis >= shape.length) throw ctx.fail(`axis ${axis} is out of range for shape [${shape}]`);
    const outer = shape.slice(0, axis).reduce((a, b) => a * b, 1);
    const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    const size = shape[axis];
    const out = allocateTensorData(ctx.outType);
    const x = input.data;
    for (let o = 0; o < outer; o++) {
      for (let i = 0; i < inner; i++) {
        let best = x[o * size * inner + i] as number;
        let index = 0;
        for (let k = 1; k < size; k++) {
          const v = x[(o * size + k) * inner + i] as number;
          if (kind === 'max' ? v > best : v < best) {
            best = v;
            index = k;
          }
        }
        if (out instanceof BigInt64Array) out[o * inner + i] = BigInt(index);
        else if (out instanceof Int32Array) out[o * inner + i] = index;
        else throw ctx.unsupported(`output dtype ${ctx.outType.dtype}`);
      }
    }
    return out;
  };
}

export const argMax = argExtreme('max');
export const argMin = argExtreme('min');

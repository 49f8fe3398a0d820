/**
 * REDUCE_MAX / REDUCE_MIN as TFLite Micro's ReduceGeneric: the output starts at the type's
 * lowest (max) or highest (min) value and takes each element that compares strictly
 * better. Quantized inputs must keep their scale and zero point (TFLite Micro checks it).
 */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { foldOutput, reductionPlan } from './reduceCommon';

const FLOAT_MAX = 3.4028234663852886e38;
const START: Readonly<Record<string, readonly [number, number]>> = {
  float32: [-FLOAT_MAX, FLOAT_MAX],
  int8: [-128, 127],
  int16: [-32768, 32767],
};

function reduceExtreme(kind: 'max' | 'min') {
  return (ctx: KernelContext): TypedArray => {
    const input = ctx.input(0, 'input');
    const dtype = ctx.outType.dtype;
    const start = START[dtype];
    if (!start || input.type.dtype !== dtype) throw ctx.unsupported(`reduce_${kind} from ${input.type.dtype} to ${dtype}`);
    if (dtype !== 'float32') {
      const qi = ctx.quant(input.type, 'input');
      const qo = ctx.quant(ctx.outType, 'output');
      if (qi.scale !== qo.scale || qi.zeroPoint !== qo.zeroPoint) throw ctx.unsupported('input and output quantization that differ');
    }
    const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
    const out = allocateTensorData(ctx.outType);
    const x = input.data as ArrayLike<number>;
    const better = kind === 'max' ? (acc: number, v: number) => (v > acc ? v : acc) : (acc: number, v: number) => (v < acc ? v : acc);
    for (let o = 0; o < plan.outputs; o++) out[o] = foldOutput(plan, x, o, kind === 'max' ? start[0] : start[1], better);
    return out;
  };
}

export const reduceMax = reduceExtreme('max');
export const reduceMin = reduceExtreme('min');

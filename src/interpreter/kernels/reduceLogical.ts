/**
 * REDUCE_ALL / REDUCE_ANY as TFLite's ReduceGeneric on bool: the output starts at true (all)
 * or false (any) and folds each element in with and / or, so an empty reduction keeps it.
 */
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { requireDtype } from './elementwise';
import { foldOutput, reductionPlan } from './reduceCommon';

function reduceLogical(kind: 'all' | 'any') {
  return (ctx: KernelContext): TypedArray => {
    const input = ctx.input(0, 'input');
    requireDtype(ctx, input.type.dtype, ['bool'], 'input');
    requireDtype(ctx, ctx.outType.dtype, ['bool'], 'output');
    const plan = reductionPlan(ctx, input.type.shape, ctx.numbers('axes'));
    const out = allocateTensorData(ctx.outType);
    const x = input.data as ArrayLike<number>;
    const step = kind === 'all' ? (acc: number, v: number) => (acc !== 0 && v !== 0 ? 1 : 0) : (acc: number, v: number) => (acc !== 0 || v !== 0 ? 1 : 0);
    for (let o = 0; o < plan.outputs; o++) out[o] = foldOutput(plan, x, o, kind === 'all' ? 1 : 0, step);
    return out;
  };
}

export const reduceAll = reduceLogical('all');
export const reduceAny = reduceLogical('any');

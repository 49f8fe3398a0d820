/**
 * What TFLite Micro's own kernels refuse where LiteRT runs the model (found by a differential
 * fuzz against LiteRT: int32 SUM, int8 EXP, REDUCE_PROD...). uma-ts computes what TFLite Micro
 * computes, so it refuses these too; the refusal says the gap is the target's, so nobody waits
 * for uma-ts to close it. Each list was read from the tflite-micro kernel file named with it.
 */
import { DType } from '../../../ir/graph/types';
import type { OperatorSite } from './common';

interface KernelDtypes {
  /** The dtypes TFLite Micro's kernel switches on (its Prepare/Eval); others fail there. */
  readonly dtypes: readonly DType[];
  /** tensorflow/lite/micro/kernels/<file> in tflite-micro. */
  readonly file: string;
  /** The converter's role names for the tensors whose dtype the kernel switches on. */
  readonly roles: readonly string[];
}

const REDUCE: Omit<KernelDtypes, 'roles'> = { dtypes: ['float32', 'int8', 'int16'], file: 'reduce_common.cc' };
const BINARY = ['input 0', 'input 1'];

/** By TFLite builtin name. uma-ts may take more than TFLite Micro (NEG int32, ARG_MAX int16): these lists only say why a refusal is one. */
export const TFLM_KERNEL_DTYPES: ReadonlyMap<string, KernelDtypes> = new Map<string, KernelDtypes>([
  ['MEAN', { ...REDUCE, roles: ['input'] }],
  ['SUM', { ...REDUCE, roles: ['input'] }],
  ['REDUCE_MAX', { ...REDUCE, roles: ['input'] }],
  ['REDUCE_MIN', { ...REDUCE, roles: ['input'] }],
  ['ARG_MAX', { dtypes: ['float32', 'int8'], file: 'arg_min_max.cc', roles: ['input'] }],
  ['ARG_MIN', { dtypes: ['float32', 'int8'], file: 'arg_min_max.cc', roles: ['input'] }],
  ['TRANSPOSE', { dtypes: ['float32', 'int8', 'int16'], file: 'transpose.cc', roles: ['input'] }],
  ['CUMSUM', { dtypes: ['float32', 'int8'], file: 'cumsum.cc', roles: ['input'] }],
  ['SELECT_V2', { dtypes: ['float32', 'int8', 'int16'], file: 'select.cc', roles: ['input 1'] }],
  ['FLOOR_DIV', { dtypes: ['float32'], file: 'floor_div.cc', roles: BINARY }],
  ['FLOOR_MOD', { dtypes: ['float32'], file: 'floor_mod.cc', roles: BINARY }],
  ['NEG', { dtypes: ['float32'], file: 'neg.cc', roles: ['input 0'] }],
  ['EXP', { dtypes: ['float32'], file: 'exp.cc', roles: ['input 0'] }],
  ['RESIZE_BILINEAR', { dtypes: ['float32', 'int8'], file: 'resize_bilinear.cc', roles: ['input'] }],
]);

/**
 * Builtins LiteRT runs that TFLite Micro has no kernel for (its MicroMutableOpResolver has no
 * Add method for them), with where TFLite Micro's nearest kernels are.
 */
export const NO_TFLM_KERNEL: ReadonlyMap<string, string> = new Map([
  ['REDUCE_PROD', 'its reduce kernels (reduce.cc) are MEAN, SUM, REDUCE_MAX and REDUCE_MIN'],
]);

/** Why TFLite Micro refuses `dtype` for `role` of the site's operator, or undefined where no kernel list above says it does. */
export function tflmDtypeRefusal(site: OperatorSite, role: string, dtype: DType): string | undefined {
  const kernel = TFLM_KERNEL_DTYPES.get(site.tfliteName);
  if (!kernel || !kernel.roles.includes(role) || kernel.dtypes.includes(dtype)) return undefined;
  return `TFLite Micro's ${site.tfliteName} kernel (${kernel.file}) does not support ${dtype} inputs`;
}

/** The sentence an unknown builtin's refusal ends with when TFLite Micro has no kernel for it. */
export function noTflmKernel(name: string): string | undefined {
  const nearest = NO_TFLM_KERNEL.get(name);
  return nearest === undefined ? undefined : `TFLite Micro has no ${name} kernel (${nearest})`;
}

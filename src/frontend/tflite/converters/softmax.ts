/** SOFTMAX → softmax (over the last axis). */
import { BuiltinOptionsType, SoftmaxOptions } from '../schema';
import { Converter, inputType, requiredOptions } from './common';

export const softmax: Converter = (site) => {
  inputType(site, 0, 'input');
  const opts = requiredOptions(site, BuiltinOptionsType.SoftmaxOptions, SoftmaxOptions);
  return { op: 'softmax', attrs: { beta: opts.beta }, argPositions: [0] };
};

/** ADD → add (broadcasting). */
import { AddOptions, BuiltinOptionsType } from '../schema';
import { activation, Converter, inputType, options } from './common';

export const add: Converter = (site) => {
  inputType(site, 0, 'lhs');
  inputType(site, 1, 'rhs');
  const opts = options(site, BuiltinOptionsType.AddOptions, AddOptions);
  return { op: 'add', attrs: { activation: activation(site, opts?.fusedActivation ?? 0) }, argPositions: [0, 1] };
};

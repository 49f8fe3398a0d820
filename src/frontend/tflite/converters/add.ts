/** ADD → add (broadcasting); operand and output dtypes are TFLite Micro's (`ELEMENTWISE_DTYPES.add`). */
import { AddOptions, BuiltinOptionsType } from '../schema';
import { quantizedActivation, Converter, inputType, options, requireAddRescale, requireDtype, requireRescaleQuantization } from './common';
import { ELEMENTWISE_DTYPES } from './elementwise';

export const add: Converter = (site) => {
  requireDtype(site, inputType(site, 0, 'lhs'), ELEMENTWISE_DTYPES.add, 'input 0');
  requireDtype(site, inputType(site, 1, 'rhs'), ELEMENTWISE_DTYPES.add, 'input 1');
  requireDtype(site, site.outputType, ELEMENTWISE_DTYPES.add, 'output');
  requireRescaleQuantization(site, 2);
  requireAddRescale(site);
  const opts = options(site, BuiltinOptionsType.AddOptions, AddOptions);
  return { op: 'add', attrs: { activation: quantizedActivation(site, opts?.fusedActivation ?? 0) }, argPositions: [0, 1] };
};

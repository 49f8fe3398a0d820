/** PACK → pack (inputs stacked along a new axis). */
import { BuiltinOptionsType, PackOptions } from '../schema';
import { Converter, formatError, inputType, options, positiveAxis, requireDtype } from './common';
import { COPY_DTYPES } from './dataMovement';

export const pack: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.PackOptions, PackOptions);
  const inputs = site.inputTypes.map((_, i) => inputType(site, i, `input ${i}`));
  // TFLite Micro's pack.cc also takes int64.
  inputs.forEach((t, i) => requireDtype(site, t, [...COPY_DTYPES, 'int64'], `input ${i}`));
  if (opts && opts.valuesCount !== 0 && opts.valuesCount !== inputs.length) {
    formatError(site, `values_count ${opts.valuesCount} but ${inputs.length} inputs`);
  }
  const axis = positiveAxis(site, opts?.axis ?? 0, inputs[0].shape.length + 1);
  return { op: 'pack', attrs: { axis }, argPositions: inputs.map((_, i) => i) };
};

/**
 * CONCATENATION → concatenate. TFLite Micro copies raw values: int8 inputs must share the
 * output's scale and zero point, int16 ones have zero point 0, no fused activation.
 */
import { BuiltinOptionsType, ConcatenationOptions } from '../schema';
import { activation, Converter, inputType, options, positiveAxis, requireDtype, unsupportedParameter } from './common';
import { COPY_DTYPES, requireSameQuantization } from './dataMovement';

export const concatenation: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.ConcatenationOptions, ConcatenationOptions);
  const act = activation(site, opts?.fusedActivation ?? 0);
  if (act !== 'NONE') unsupportedParameter(site, `fused activation ${act} (TFLite Micro concatenates without one)`);
  const inputs = site.inputTypes.map((_, i) => inputType(site, i, `input ${i}`));
  const out = site.outputType;
  inputs.forEach((t, i) => {
    requireDtype(site, t, [...COPY_DTYPES, 'int64', 'bool'], `input ${i}`);
    requireSameQuantization(site, t, out, `input ${i}`);
    if (t.dtype === 'int16' && t.quant && t.quant.zeroPoint[0] !== 0) unsupportedParameter(site, `int16 input ${i} with zero point ${t.quant.zeroPoint[0]}`);
  });
  if (out.dtype === 'int16' && out.quant && out.quant.zeroPoint[0] !== 0) unsupportedParameter(site, `int16 output with zero point ${out.quant.zeroPoint[0]}`);
  const axis = positiveAxis(site, opts?.axis ?? 0, out.shape.length);
  return { op: 'concatenate', attrs: { axis }, argPositions: inputs.map((_, i) => i) };
};

/** L2_NORMALIZATION → l2_normalization (float32, int8; no fused activation, as TFLite Micro). */
import { BuiltinOptionsType, L2NormOptions } from '../schema';
import { activation, Converter, inputType, options, unsupportedParameter, requireDtype } from './common';

export const l2Normalization: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  requireDtype(site, input, ['float32', 'int8'], 'input');
  if (site.outputType.dtype !== input.dtype) unsupportedParameter(site, `output dtype ${site.outputType.dtype}`);
  if (input.shape.length > 4) unsupportedParameter(site, `rank-${input.shape.length} input (at most 4)`);
  const act = activation(site, options(site, BuiltinOptionsType.L2NormOptions, L2NormOptions)?.fusedActivation ?? 0);
  if (act !== 'NONE') unsupportedParameter(site, `fused activation ${act}`);
  if (input.dtype === 'int8') {
    const q = site.outputType.quant;
    if (!q || q.zeroPoint[0] !== 0 || Math.fround(q.scale[0]) !== Math.fround(1 / 128)) {
      unsupportedParameter(site, `int8 output quantization (TFLite's kernel writes scale 1/128, zero point 0)`);
    }
  }
  return { op: 'l2_normalization', attrs: {}, argPositions: [0] };
};

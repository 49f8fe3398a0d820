/**
 * LOG_SOFTMAX → log_softmax. int8 only for now (the float kernel needs a logf intrinsic the
 * lowering does not have yet); TFLite Micro requires the int8 output scale 16/256, zero point 127.
 */
import { Converter, inputType, unsupportedParameter } from './common';

export const logSoftmax: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  if (input.dtype !== 'int8' || site.outputType.dtype !== 'int8') unsupportedParameter(site, `dtype ${input.dtype} -> ${site.outputType.dtype} (int8 only)`);
  const q = site.outputType.quant;
  if (!q || q.zeroPoint[0] !== 127 || Math.fround(q.scale[0]) !== Math.fround(16 / 256)) {
    unsupportedParameter(site, 'int8 output quantization (TFLite Micro needs scale 16/256, zero point 127)');
  }
  return { op: 'log_softmax', attrs: {}, argPositions: [0] };
};

/**
 * LOG_SOFTMAX → log_softmax (float32, int8). TFLite Micro requires the int8 output scale
 * 16/256 and zero point 127, and an input scale its Prepare can rescale (softmaxScalingProblem).
 */
import { softmaxScalingProblem } from '../../../arith/quant-params';
import { Converter, inputType, tensorQuant, unsupportedParameter } from './common';

export const logSoftmax: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const dtype = input.dtype;
  if ((dtype !== 'int8' && dtype !== 'float32') || site.outputType.dtype !== dtype) {
    unsupportedParameter(site, `dtype ${dtype} -> ${site.outputType.dtype} (float32 or int8)`);
  }
  if (dtype === 'int8') {
    const q = site.outputType.quant;
    if (!q || q.zeroPoint[0] !== 127 || Math.fround(q.scale[0]) !== Math.fround(16 / 256)) {
      unsupportedParameter(site, 'int8 output quantization (TFLite Micro needs scale 16/256, zero point 127)');
    }
    const scaling = softmaxScalingProblem(1, tensorQuant(site, input, 'input').scale, true);
    if (scaling !== undefined) unsupportedParameter(site, scaling);
  }
  return { op: 'log_softmax', attrs: {}, argPositions: [0] };
};

/**
 * SOFTMAX → softmax (over the last axis). The dtype pair and, for integer softmax, the
 * quantization TFLite Micro's Prepare demands are checked here, so `inspect` lists a model
 * the kernel would refuse instead of compile failing later.
 */
import { SOFTMAX_SIGNATURES, softmaxOutputQuantProblem, softmaxScalingProblem } from '../../../arith/quant-params';
import { softmaxInt16QuantProblem } from '../../../arith/softmaxInt16';
import { BuiltinOptionsType, SoftmaxOptions } from '../schema';
import { Converter, inputType, requiredOptions, tensorQuant, unsupportedParameter } from './common';

export const softmax: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const output = site.outputType;
  const opts = requiredOptions(site, BuiltinOptionsType.SoftmaxOptions, SoftmaxOptions);
  if (!SOFTMAX_SIGNATURES.some(([i, o]) => i === input.dtype && o === output.dtype)) {
    unsupportedParameter(site, `dtypes ${input.dtype} -> ${output.dtype} (supported: ${SOFTMAX_SIGNATURES.map(([i, o]) => `${i} -> ${o}`).join(', ')})`);
  }
  if (input.dtype !== 'float32') {
    const inQ = tensorQuant(site, input, 'input');
    const outQ = tensorQuant(site, output, 'output');
    const problem =
      input.dtype === 'int8' ? softmaxOutputQuantProblem(output.dtype, outQ.scale, outQ.zeroPoint) : softmaxInt16QuantProblem(inQ.zeroPoint, outQ.scale, outQ.zeroPoint);
    if (problem) unsupportedParameter(site, `quantization: ${problem}`);
    const scaling = input.dtype === 'int8' ? softmaxScalingProblem(opts.beta, inQ.scale) : undefined;
    if (scaling !== undefined) unsupportedParameter(site, scaling);
  }
  return { op: 'softmax', attrs: { beta: opts.beta }, argPositions: [0] };
};

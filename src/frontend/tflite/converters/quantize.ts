/**
 * QUANTIZE / DEQUANTIZE. QUANTIZE's input/output dtype pair must be one TFLite Micro's kernel
 * has (`QUANTIZE_SIGNATURES`: float → int8/int16/uint8, integer requantization, int32 ↔
 * int8/int16) and every integer side needs its scale and zero point; DEQUANTIZE takes a
 * quantized int8/uint8/int16 tensor to float32. `inspect` lists any other use instead of
 * compile failing later.
 */
import { quantizeSignatureProblem } from '../../../arith/quant-params';
import { Converter, inputType, requireDtype, tensorQuant, unsupportedParameter } from './common';

export const quantize: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const output = site.outputType;
  const problem = quantizeSignatureProblem(input.dtype, output.dtype);
  if (problem) unsupportedParameter(site, problem);
  if (input.dtype !== 'float32') tensorQuant(site, input, 'input');
  tensorQuant(site, output, 'output');
  return { op: 'quantize', attrs: {}, argPositions: [0] };
};

export const dequantize: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  requireDtype(site, input, ['int8', 'uint8', 'int16'], 'input');
  requireDtype(site, site.outputType, ['float32'], 'output');
  tensorQuant(site, input, 'input');
  // A constant per-channel input is folded at import (TFLite's per-channel dequantization); a computed one is not a TFLite Micro kernel's.
  if ((input.quant?.scale.length ?? 0) > 1) unsupportedParameter(site, `per-channel quantization (${input.quant!.scale.length} scales) of a computed input`);
  return { op: 'dequantize', attrs: {}, argPositions: [0] };
};

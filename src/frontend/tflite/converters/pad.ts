/**
 * PAD / PADV2 → pad. The border value is what TFLite Micro writes: PADV2's constant (raw; an
 * int8 one must carry the output's quantization), else the output zero point for int8 and 0
 * otherwise. The input's values are copied raw, as TFLite Micro does.
 */
import { BuiltinOptionsType, PadOptions, PadV2Options } from '../schema';
import { Converter, formatError, inputType, options, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';
import { COPY_DTYPES, requireSameQuantization } from './dataMovement';

function padValue(site: Parameters<Converter>[0]): number {
  const out = site.outputType;
  const constant = site.inputTypes[2];
  if (!constant) return out.dtype === 'int8' && out.quant ? out.quant.zeroPoint[0] : 0;
  if (constant.dtype !== out.dtype) formatError(site, `constant_values dtype ${constant.dtype} differs from the output's ${out.dtype}`);
  requireSameQuantization(site, constant, out, 'constant_values');
  const data = site.constantInput(2);
  if (!data) return unsupportedParameter(site, 'non-constant constant_values tensor (input 2)');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  switch (out.dtype) {
    case 'float32':
      return view.getFloat32(0, true);
    case 'int8':
      return view.getInt8(0);
    case 'int16':
      return view.getInt16(0, true);
    default:
      return view.getInt32(0, true);
  }
}

export const pad: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const v2 = site.inputTypes.length > 2;
  options(site, v2 ? BuiltinOptionsType.PadV2Options : BuiltinOptionsType.PadOptions, v2 ? PadV2Options : PadOptions);
  requireDtype(site, input, COPY_DTYPES, 'input');
  const p = constantInts(site, 1, 'paddings');
  if (p.length !== 2 * input.shape.length) formatError(site, `paddings has ${p.length} values for a rank-${input.shape.length} input`);
  if (p.some((x) => x < 0)) unsupportedParameter(site, `negative paddings [${p}]`);
  if (input.shape.length > 5) unsupportedParameter(site, `rank ${input.shape.length} input (TFLite Micro pads up to 5-d)`);
  return { op: 'pad', attrs: { paddings: p, pad_value: padValue(site) }, argPositions: [0] };
};

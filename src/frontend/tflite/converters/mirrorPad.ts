/** MIRROR_PAD → mirror_pad (REFLECT or SYMMETRIC). */
import { BuiltinOptionsType, MirrorPadOptions } from '../schema';
import { Converter, formatError, inputType, options, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';

export const mirrorPad: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const opts = options(site, BuiltinOptionsType.MirrorPadOptions, MirrorPadOptions);
  requireDtype(site, input, ['float32', 'int8'], 'input');
  const code = opts?.mode ?? 0;
  if (code !== 0 && code !== 1) unsupportedParameter(site, `mirror pad mode ${code}`);
  const mode = code === 0 ? 'REFLECT' : 'SYMMETRIC';
  const p = constantInts(site, 1, 'paddings');
  if (p.length !== 2 * input.shape.length) formatError(site, `paddings has ${p.length} values for a rank-${input.shape.length} input`);
  input.shape.forEach((d, i) => {
    const limit = mode === 'REFLECT' ? d - 1 : d;
    if (p[2 * i] < 0 || p[2 * i + 1] < 0 || p[2 * i] > limit || p[2 * i + 1] > limit) {
      unsupportedParameter(site, `paddings [${p[2 * i]}, ${p[2 * i + 1]}] of axis ${i} (${mode} of size ${d} allows 0..${limit})`);
    }
  });
  return { op: 'mirror_pad', attrs: { paddings: p, mode }, argPositions: [0] };
};

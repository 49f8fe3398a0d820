/** GATHER → gather (batch_dims 0; indices read at run time). */
import { BuiltinOptionsType, GatherOptions } from '../schema';
import { Converter, formatError, inputType, options, unsupportedParameter } from './common';

export const gather: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const indices = inputType(site, 1, 'indices');
  if (!['float32', 'int8', 'int16', 'int32'].includes(input.dtype)) unsupportedParameter(site, `input dtype ${input.dtype}`);
  if (indices.dtype !== 'int32' && indices.dtype !== 'int64') unsupportedParameter(site, `indices dtype ${indices.dtype}`);
  const opts = options(site, BuiltinOptionsType.GatherOptions, GatherOptions);
  const rank = input.shape.length;
  const raw = opts?.axis ?? 0;
  const axis = raw < 0 ? raw + rank : raw;
  if (axis < 0 || axis >= rank) formatError(site, `axis ${raw} is out of range for a rank-${rank} input`);
  if ((opts?.batchDims ?? 0) !== 0) unsupportedParameter(site, `batch_dims ${opts?.batchDims}`);
  return { op: 'gather', attrs: { axis }, argPositions: [0, 1] };
};

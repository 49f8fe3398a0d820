/** GATHER → gather (indices read at run time; batch_dims resolved to [0, axis] as TFLite Micro's Prepare). */
import { BuiltinOptionsType, GatherOptions } from '../schema';
import { Converter, formatError, inputType, options, unsupportedParameter, requireDtype } from './common';
import { constantInts } from './constants';

export const gather: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const indices = inputType(site, 1, 'indices');
  requireDtype(site, input, ['float32', 'int8', 'int16', 'int32'], 'input');
  if (indices.dtype !== 'int32' && indices.dtype !== 'int64') unsupportedParameter(site, `indices dtype ${indices.dtype}`);
  const opts = options(site, BuiltinOptionsType.GatherOptions, GatherOptions);
  const rank = input.shape.length;
  const raw = opts?.axis ?? 0;
  const axis = raw < 0 ? raw + rank : raw;
  if (axis < 0 || axis >= rank) formatError(site, `axis ${raw} is out of range for a rank-${rank} input`);
  const rawBatch = opts?.batchDims ?? 0;
  const batchDims = rawBatch < 0 ? rawBatch + indices.shape.length : rawBatch;
  if (batchDims < 0 || batchDims > axis || batchDims > indices.shape.length || batchDims >= rank) {
    formatError(site, `batch_dims ${rawBatch} is out of range for axis ${axis} and rank-${indices.shape.length} indices`);
  }
  for (let d = 0; d < batchDims; d++) {
    if (input.shape[d] !== indices.shape[d]) formatError(site, `batch_dims ${batchDims}: input and indices differ on axis ${d} (${input.shape[d]} vs ${indices.shape[d]})`);
  }
  // Constant indices (the usual case: a converter-folded selection) are known now. TFLite
  // Micro fails every invoke on one outside the axis, and the generated C clamps it: refuse
  // the model here instead of compiling code that answers what TFLite Micro never does.
  if (site.constantInput(1) !== null) {
    const bad = constantInts(site, 1, 'indices').find((i) => i < 0 || i >= input.shape[axis]);
    if (bad !== undefined) formatError(site, `constant index ${bad} is outside [0, ${input.shape[axis]}) on axis ${axis} (TFLite Micro fails every invoke)`);
  }
  const attrs: Record<string, number> = batchDims === 0 ? { axis } : { axis, batch_dims: batchDims };
  return { op: 'gather', attrs, argPositions: [0, 1] };
};

/**
 * DYNAMIC_UPDATE_SLICE → dynamic_update_slice(operand, update, start_indices): the operand
 * with the update written over it from start indices read at run time, each clamped into
 * [0, operand dim - update dim] as TFLite Micro's kernel clamps them (so no index is out of
 * range at run time). Types and shapes as its Prepare checks them; values are copied raw.
 */
import { DTYPES_OF_DYNAMIC_UPDATE_SLICE, MAX_DYNAMIC_UPDATE_SLICE_RANK } from '../../../ir/graph/miscTypes';
import { Converter, formatError, inputType, requireInputCount, unsupportedParameter } from './common';

export const dynamicUpdateSlice: Converter = (site) => {
  requireInputCount(site, 3);
  const operand = inputType(site, 0, 'operand');
  const update = inputType(site, 1, 'update');
  const indices = inputType(site, 2, 'start_indices');
  const out = site.outputType;
  if (update.dtype !== operand.dtype || out.dtype !== operand.dtype) formatError(site, `operand ${operand.dtype}, update ${update.dtype} and output ${out.dtype} must share one type`);
  if (!DTYPES_OF_DYNAMIC_UPDATE_SLICE.includes(operand.dtype)) unsupportedParameter(site, `type ${operand.dtype} (TFLite Micro's DYNAMIC_UPDATE_SLICE takes ${DTYPES_OF_DYNAMIC_UPDATE_SLICE.join(', ')})`);
  if (indices.dtype !== 'int32' && indices.dtype !== 'int64') formatError(site, `start_indices type ${indices.dtype}, expected int32 or int64`);
  const rank = operand.shape.length;
  if (indices.shape.length !== 1 || indices.shape[0] !== rank) formatError(site, `start_indices of shape [${indices.shape}], expected [${rank}]`);
  if (update.shape.length !== rank || update.shape.some((d, i) => d > operand.shape[i])) formatError(site, `update [${update.shape}] must have the operand's rank and fit in its [${operand.shape}]`);
  if (out.shape.join() !== operand.shape.join()) formatError(site, `output [${out.shape}], expected the operand's [${operand.shape}]`);
  // TFLite Micro keeps the clamped indices and strides in arrays of RuntimeShape's small size.
  if (rank > MAX_DYNAMIC_UPDATE_SLICE_RANK) unsupportedParameter(site, `rank ${rank} (TFLite Micro's kernel takes at most ${MAX_DYNAMIC_UPDATE_SLICE_RANK})`);
  return { op: 'dynamic_update_slice', attrs: {}, argPositions: [0, 1, 2] };
};

/**
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH, BATCH_TO_SPACE_ND, SPACE_TO_BATCH_ND, BROADCAST_TO: data
 * movement on NHWC tensors; block shapes, crops and paddings are constant inputs turned into
 * attributes.
 */
import { sameShape } from '../../../ir/graph/types';
import { BlockSizeOptions, BuiltinOptionsType } from '../schema';
import { Converter, formatError, inputType, OperatorSite, options, unsupportedParameter, requireDtype } from './common';
import { constantInts } from './constants';

const MOVABLE = ['float32', 'int8'];

function movable(site: OperatorSite, dtypes: readonly string[] = MOVABLE) {
  const input = inputType(site, 0, 'input');
  requireDtype(site, input, dtypes, 'input');
  if (site.outputType.dtype !== input.dtype) unsupportedParameter(site, `output dtype ${site.outputType.dtype} for a ${input.dtype} input`);
  const q = input.quant;
  const oq = site.outputType.quant;
  if (q && oq && (q.scale[0] !== oq.scale[0] || q.zeroPoint[0] !== oq.zeroPoint[0])) {
    unsupportedParameter(site, 'input and output quantization that differ');
  }
  return input;
}

function rank4(site: OperatorSite, shape: readonly number[]): void {
  if (shape.length !== 4) unsupportedParameter(site, `rank-${shape.length} input (only 4-d NHWC)`);
}

const blockConverter =
  (op: 'depth_to_space' | 'space_to_depth', type: number): Converter =>
  (site) => {
    rank4(site, movable(site).shape);
    const b = options(site, type, BlockSizeOptions)?.blockSize ?? 0;
    if (b < 1) formatError(site, `block_size ${b} must be >= 1`);
    return { op, attrs: { block_size: b }, argPositions: [0] };
  };

export const depthToSpace = blockConverter('depth_to_space', BuiltinOptionsType.DepthToSpaceOptions);
export const spaceToDepth = blockConverter('space_to_depth', BuiltinOptionsType.SpaceToDepthOptions);

const batchSpaceConverter =
  (op: 'batch_to_space_nd' | 'space_to_batch_nd', attr: 'crops' | 'paddings'): Converter =>
  (site) => {
    const shape = movable(site).shape;
    // TFLite takes a 3-d NHC input as NH1C with one block dimension: widen to the 4-d form.
    const spatial = shape.length === 3 ? 1 : 2;
    if (shape.length !== 3) rank4(site, shape);
    const block = constantInts(site, 1, 'block_shape');
    if (block.length !== spatial || block.some((b) => b < 1)) unsupportedParameter(site, `block_shape [${block}] (need ${spatial} values >= 1)`);
    const amounts = constantInts(site, 2, attr);
    if (amounts.length !== 2 * spatial || amounts.some((a) => a < 0)) unsupportedParameter(site, `${attr} [${amounts}] (need ${spatial}x2 values >= 0)`);
    const attrs = spatial === 1 ? { block_shape: [block[0], 1], [attr]: [...amounts, 0, 0] } : { block_shape: block, [attr]: amounts };
    return { op, attrs, argPositions: [0] };
  };

export const batchToSpaceNd = batchSpaceConverter('batch_to_space_nd', 'crops');
export const spaceToBatchNd = batchSpaceConverter('space_to_batch_nd', 'paddings');

/** TFLite Micro's BROADCAST_TO copies elements of any size: every graph-IR dtype. */
const BROADCASTABLE = ['float32', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool'];

/**
 * The output tensor's static shape is the target. A constant shape input must name that same
 * shape, as TFLite Micro's ValidateOutputTensor demands ("Output shape must match with expected
 * shape"): it was not read, and a model whose shape input said another shape compiled (fuzzed).
 */
export const broadcastTo: Converter = (site) => {
  movable(site, BROADCASTABLE);
  if (site.inputTypes[1] && site.constantInput(1) !== null) {
    const shape = constantInts(site, 1, 'shape');
    const out = site.outputType.shape;
    if (!sameShape(shape, out)) formatError(site, `shape [${shape}] differs from the output tensor's shape [${out}]`);
  }
  return { op: 'broadcast_to', attrs: {}, argPositions: [0] };
};

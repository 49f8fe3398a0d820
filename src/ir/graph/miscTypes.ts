/**
 * Type rules of the small structural and indexing operators: reverse, zeros_like, fill,
 * shape, gather_nd, embedding_lookup, l2_pool2d, cumsum, broadcast_args, circular_buffer,
 * basic_classifier and dynamic_update_slice.
 */
import { Attrs, DType, TensorType, tensorElements } from './types';
import { typeRuleFail as fail, intAttrOf as intAttr } from './typeRuleErrors';

function reverse(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input] = args;
  const axes = attrs.axes;
  const rank = input.shape.length;
  if (!Array.isArray(axes) || axes.length === 0 || axes.some((a, i) => typeof a !== 'number' || !Number.isInteger(a) || a < 0 || a >= rank || (i > 0 && a !== (axes[i - 1] as number) + 1))) {
    fail('reverse', `axes must be sorted contiguous axes in [0, ${rank}), got ${JSON.stringify(axes)}`, args);
  }
  return { shape: [...input.shape], dtype: input.dtype };
}

function zerosLike(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  return { shape: [...args[0].shape], dtype: args[0].dtype };
}

function fill(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [value] = args;
  if (tensorElements(value) !== 1) fail('fill', 'value must hold one element', args);
  if (!declared) fail('fill', 'needs the declared output type (the dims)', args);
  return { shape: [...declared.shape], dtype: value.dtype };
}

function shape(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  return { shape: [args[0].shape.length], dtype: 'int32' };
}

/** TFLite Micro's gather_nd indexes at most 5 leading axes. */
const MAX_INDICES_ND = 5;

function gatherNd(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [params, indices] = args;
  if (indices.dtype !== 'int32') fail('gather_nd', `indices dtype ${indices.dtype} is not int32`, args);
  if (params.shape.length < 1 || indices.shape.length < 1) fail('gather_nd', 'params and indices must be at least 1-d', args);
  const nd = indices.shape[indices.shape.length - 1];
  if (nd > params.shape.length || nd > MAX_INDICES_ND) {
    fail('gather_nd', `the indices' last axis (${nd}) exceeds the params rank ${params.shape.length} or ${MAX_INDICES_ND}`, args);
  }
  return { shape: [...indices.shape.slice(0, -1), ...params.shape.slice(nd)], dtype: params.dtype };
}

function embeddingLookup(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [params, ids] = args;
  if (ids.dtype !== 'int32' || ids.shape.length !== 1) fail('embedding_lookup', 'ids must be a 1-d int32 tensor', args);
  if (params.shape.length < 2) fail('embedding_lookup', 'params must be at least 2-d', args);
  // int8 rows may be dequantized to float32 (TFLite Micro's hybrid path); the call type says which.
  const dtype = params.dtype === 'int8' && declared?.dtype === 'float32' ? 'float32' : params.dtype;
  return { shape: [ids.shape[0], ...params.shape.slice(1)], dtype };
}

function cumsum(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input] = args;
  const axis = intAttr('cumsum', attrs, 'axis', args);
  if (axis < 0 || axis >= input.shape.length) fail('cumsum', `axis ${axis} is out of range for rank ${input.shape.length}`, args);
  return { shape: [...input.shape], dtype: input.dtype };
}

/** The slice geometry of gather_nd (TFLite Micro computes it at eval time): slices, their size, the stride of each indexed axis. */
export function gatherNdGeometry(params: readonly number[], indices: readonly number[]): { nd: number; slices: number; sliceSize: number; strides: number[] } {
  const nd = indices[indices.length - 1];
  const slices = indices.slice(0, -1).reduce((a, b) => a * b, 1);
  const sliceSize = params.slice(nd).reduce((a, b) => a * b, 1);
  const strides = params.slice(0, nd).map((_, j) => params.slice(j + 1).reduce((a, b) => a * b, 1));
  return { nd, slices, sliceSize, strides };
}

/** detection_postprocess: float32 box encodings [1, B, >=4], predictions [1, B, C], anchors [B, 4] → the packed output. */
function detectionPostprocess(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'detection_postprocess';
  const [boxes, scores, anchors] = args;
  if (args.some((t) => t.dtype !== 'float32')) fail(op, 'every input must be float32', args);
  const b = boxes.shape[1];
  if (boxes.shape.length !== 3 || boxes.shape[0] !== 1 || boxes.shape[2] < 4) fail(op, 'box encodings must be [1, boxes, >= 4]', args);
  if (scores.shape.length !== 3 || scores.shape[0] !== 1 || scores.shape[1] !== b) fail(op, 'class predictions must be [1, boxes, classes]', args);
  if (anchors.shape.length !== 2 || anchors.shape[0] !== b || anchors.shape[1] !== 4) fail(op, 'anchors must be [boxes, 4]', args);
  const rows = intAttr(op, attrs, 'output_rows', args);
  if (rows < 1) fail(op, `output_rows ${rows} must be positive`, args);
  return { shape: [6 * rows + 1], dtype: 'float32' };
}

function broadcastArgs(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [s0, s1] = args;
  if (s0.dtype !== s1.dtype || (s0.dtype !== 'int32' && s0.dtype !== 'int64')) fail('broadcast_args', 'the shapes must both be int32 or both int64', args);
  if (s0.shape.length !== 1 || s1.shape.length !== 1) fail('broadcast_args', 'the shapes must be 1-d', args);
  return { shape: [Math.max(s0.shape[0], s1.shape[0])], dtype: s0.dtype };
}

/** Where two shape vectors do not broadcast: the output position and the two dimensions there. */
export interface BroadcastConflict {
  readonly index: number;
  readonly left: number;
  readonly right: number;
}

/**
 * BROADCAST_ARGS as TFLite's reference kernel: the shapes are aligned at their last
 * dimension, a missing dimension is 1, and each output dimension is the one that is not 1 (the
 * left one when neither is). Dimensions are C `int`s there, so int64 ones are taken modulo
 * 2^32 first. A pair that is neither equal nor has a 1 is a conflict (TFLite Micro aborts).
 */
export function broadcastShapeValues(left: readonly number[], right: readonly number[]): { values: number[]; conflict?: BroadcastConflict } {
  const n = Math.max(left.length, right.length);
  const values: number[] = [];
  let conflict: BroadcastConflict | undefined;
  for (let i = 0; i < n; i++) {
    const l = i - (n - left.length) >= 0 ? left[i - (n - left.length)] | 0 : 1;
    const r = i - (n - right.length) >= 0 ? right[i - (n - right.length)] | 0 : 1;
    if (l !== r && l !== 1 && r !== 1 && conflict === undefined) conflict = { index: i, left: l, right: r };
    values.push(l === 1 ? r : l);
  }
  return conflict ? { values, conflict } : { values };
}

/**
 * circular_buffer(input, state): TFLite Micro's CIRCULAR_BUFFER; `state` is int32 [1 + n] (the
 * period counter, then the n values of the output buffer), the result int8 [n + 1]: the buffer,
 * then the ready flag. The shifted slots must fit the buffer and the input hold one slot.
 */
function circularBuffer(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'circular_buffer';
  const [input, state] = args;
  if (input.dtype !== 'int8') fail(op, 'input must be int8', args);
  if (state.dtype !== 'int32' || state.shape.length !== 1 || state.shape[0] < 1) fail(op, 'state must be a 1-d int32 [1 + buffer values]', args);
  const slots = intAttr(op, attrs, 'num_slots', args);
  const depth = intAttr(op, attrs, 'depth', args);
  const cyclesMax = intAttr(op, attrs, 'cycles_max', args);
  const values = state.shape[0] - 1;
  if (slots < 1 || depth < 0 || slots * depth > values || tensorElements(input) < depth) fail(op, `num_slots ${slots} of depth ${depth} must fit the input and the state's ${values} values`, args);
  if (cyclesMax < 1) fail(op, `cycles_max ${cyclesMax} must be at least 1`, args);
  return { shape: [values + 1], dtype: 'int8' };
}

/**
 * basic_classifier(input, target_indices, thresholds), all int32: attribute `output` 0 gives
 * the bool `detected` per target, 1 the int32 value read at each target index.
 */
function basicClassifier(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'basic_classifier';
  const [input, indices, thresholds] = args;
  if (args.some((t) => t.dtype !== 'int32')) fail(op, 'input, target_indices and thresholds must be int32', args);
  if (input.shape.length < 1 || input.shape.length > 2 || indices.shape.length !== 1 || thresholds.shape.length !== 1 || thresholds.shape[0] !== indices.shape[0]) {
    fail(op, 'input must be 1-d or 2-d, target_indices and thresholds 1-d of one length', args);
  }
  const out = intAttr(op, attrs, 'output', args);
  if (out !== 0 && out !== 1) fail(op, `output ${out} must be 0 (detected) or 1 (target_posteriors)`, args);
  return { shape: [indices.shape[0]], dtype: out === 0 ? 'bool' : 'int32' };
}

/** TFLite Micro's DYNAMIC_UPDATE_SLICE: its operand types and RuntimeShape's small size (its index arrays). */
export const DTYPES_OF_DYNAMIC_UPDATE_SLICE: readonly DType[] = ['float32', 'int8', 'int16', 'int32'];
export const MAX_DYNAMIC_UPDATE_SLICE_RANK = 6;

/** dynamic_update_slice(operand, update, start_indices): the operand's type. */
function dynamicUpdateSlice(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'dynamic_update_slice';
  const [operand, update, indices] = args;
  const rank = operand.shape.length;
  if (!DTYPES_OF_DYNAMIC_UPDATE_SLICE.includes(operand.dtype) || update.dtype !== operand.dtype) fail(op, 'operand and update must share a float32, int8, int16 or int32 type', args);
  if ((indices.dtype !== 'int32' && indices.dtype !== 'int64') || indices.shape.length !== 1 || indices.shape[0] !== rank) fail(op, `start_indices must be int32 or int64 [${rank}]`, args);
  if (rank > MAX_DYNAMIC_UPDATE_SLICE_RANK || update.shape.length !== rank || update.shape.some((d, i) => d > operand.shape[i])) fail(op, 'update must have the operand rank (at most 6) and fit in it', args);
  return { shape: [...operand.shape], dtype: operand.dtype };
}

export const MISC_RULES = {
  dynamic_update_slice: dynamicUpdateSlice,
  basic_classifier: basicClassifier,
  circular_buffer: circularBuffer,
  reverse,
  zeros_like: zerosLike,
  fill,
  shape,
  gather_nd: gatherNd,
  embedding_lookup: embeddingLookup,
  cumsum,
  detection_postprocess: detectionPostprocess,
  broadcast_args: broadcastArgs,
};

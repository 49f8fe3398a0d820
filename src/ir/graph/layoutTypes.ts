/**
 * Type rules of the layout operators: depth/space and batch/space rearrangements,
 * broadcast_to, gather and the resizes.
 */
import { bilinearIntegerAxis } from '../../arith/resize';
import { Attrs, DType, TensorType } from './types';
import { typeRuleFail as fail } from './typeRuleErrors';

function ints(op: string, attrs: Attrs, name: string, length: number, args: readonly TensorType[], min = 0): number[] {
  const v = attrs[name];
  if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < min)) {
    fail(op, `attribute ${name} must be ${length} integers >= ${min}, got ${JSON.stringify(v)}`, args);
  }
  return v as number[];
}

function nhwc(op: string, t: TensorType, args: readonly TensorType[]): [number, number, number, number] {
  if (t.shape.length !== 4) fail(op, 'input must be 4-d NHWC', args);
  return t.shape as unknown as [number, number, number, number];
}

function block(op: string, attrs: Attrs, args: readonly TensorType[]): number {
  const b = attrs.block_size;
  if (typeof b !== 'number' || !Number.isInteger(b) || b < 1) fail(op, `block_size must be a positive integer, got ${JSON.stringify(b)}`, args);
  return b;
}

function depthToSpace(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [n, h, w, c] = nhwc('depth_to_space', args[0], args);
  const b = block('depth_to_space', attrs, args);
  if (c % (b * b) !== 0) fail('depth_to_space', `depth ${c} is not a multiple of block_size^2 = ${b * b}`, args);
  return { shape: [n, h * b, w * b, c / (b * b)], dtype: args[0].dtype };
}

function spaceToDepth(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [n, h, w, c] = nhwc('space_to_depth', args[0], args);
  const b = block('space_to_depth', attrs, args);
  if (h % b !== 0 || w % b !== 0) fail('space_to_depth', `height ${h} and width ${w} must be multiples of block_size ${b}`, args);
  return { shape: [n, h / b, w / b, c * b * b], dtype: args[0].dtype };
}

/** 3-d NHC inputs of the batch/space ops are NH1C to TFLite; the result drops the 1 again. */
function nh1c(op: string, t: TensorType, args: readonly TensorType[]): [number, number, number, number] {
  if (t.shape.length === 3) return [t.shape[0], t.shape[1], 1, t.shape[2]];
  return nhwc(op, t, args);
}

function fromNh1c(shape: number[], rank: number): number[] {
  return rank === 3 ? [shape[0], shape[1], shape[3]] : shape;
}

function batchToSpace(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'batch_to_space_nd';
  const [n, h, w, c] = nh1c(op, args[0], args);
  const [bh, bw] = ints(op, attrs, 'block_shape', 2, args, 1);
  const [top, bottom, left, right] = ints(op, attrs, 'crops', 4, args);
  if (n % (bh * bw) !== 0) fail(op, `batch ${n} is not a multiple of ${bh * bw}`, args);
  const oh = h * bh - top - bottom;
  const ow = w * bw - left - right;
  if (oh < 1 || ow < 1) fail(op, `crops leave no output ([${oh}, ${ow}])`, args);
  return { shape: fromNh1c([n / (bh * bw), oh, ow, c], args[0].shape.length), dtype: args[0].dtype };
}

function spaceToBatch(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'space_to_batch_nd';
  const [n, h, w, c] = nh1c(op, args[0], args);
  const [bh, bw] = ints(op, attrs, 'block_shape', 2, args, 1);
  const [top, bottom, left, right] = ints(op, attrs, 'paddings', 4, args);
  const ph = h + top + bottom;
  const pw = w + left + right;
  if (ph % bh !== 0 || pw % bw !== 0) fail(op, `padded size [${ph}, ${pw}] is not a multiple of block_shape [${bh}, ${bw}]`, args);
  return { shape: fromNh1c([n * bh * bw, ph / bh, pw / bw, c], args[0].shape.length), dtype: args[0].dtype };
}

function broadcastTo(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [input] = args;
  if (!declared) fail('broadcast_to', 'needs the declared output type', args);
  const out = declared.shape;
  const lead = out.length - input.shape.length;
  if (lead < 0 || input.shape.some((d, i) => d !== 1 && d !== out[lead + i])) {
    fail('broadcast_to', `[${input.shape}] does not broadcast to [${out}]`, args);
  }
  return { shape: [...out], dtype: input.dtype };
}

const INDEX_DTYPES: readonly DType[] = ['int32', 'int64'];

function gather(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input, indices] = args;
  const axis = attrs.axis;
  if (typeof axis !== 'number' || !Number.isInteger(axis) || axis < 0 || axis >= input.shape.length) {
    fail('gather', `axis must be in [0, ${input.shape.length}), got ${JSON.stringify(axis)}`, args);
  }
  if (!INDEX_DTYPES.includes(indices.dtype)) fail('gather', `indices dtype ${indices.dtype} is not int32 or int64`, args);
  const batchDims = attrs.batch_dims ?? 0;
  if (typeof batchDims !== 'number' || !Number.isInteger(batchDims) || batchDims < 0 || batchDims > axis || batchDims > indices.shape.length) {
    fail('gather', `batch_dims must be in [0, min(axis ${axis}, indices rank ${indices.shape.length})], got ${JSON.stringify(batchDims)}`, args);
  }
  for (let d = 0; d < batchDims; d++) {
    if (input.shape[d] !== indices.shape[d]) fail('gather', `batch axis ${d} differs: input ${input.shape[d]}, indices ${indices.shape[d]}`, args);
  }
  return { shape: [...input.shape.slice(0, axis), ...indices.shape.slice(batchDims), ...input.shape.slice(axis + 1)], dtype: input.dtype };
}

function resize(op: string) {
  return (attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType => {
    const [n, h, w, c] = nhwc(op, args[0], args);
    if (!declared || declared.shape.length !== 4 || declared.shape[1] < 1 || declared.shape[2] < 1) {
      fail(op, 'needs a declared 4-d output type (the new size)', args);
    }
    if (op === 'resize_bilinear' && args[0].dtype !== 'float32') {
      integerBilinearInBounds(op, attrs, args, h, declared.shape[1], 'row');
      integerBilinearInBounds(op, attrs, args, w, declared.shape[2], 'column');
    }
    return { shape: [n, declared.shape[1], declared.shape[2], c], dtype: args[0].dtype };
  };
}

/**
 * TFLite's integer bilinear kernel rounds its Q10 scale, clamps the upper source row to the
 * input but not the lower one: where the rounding carries the lower row past the input, it
 * reads outside it (fuzzed: int8 1x1 to 1x2000; the C read past its buffer, the interpreter 0).
 */
function integerBilinearInBounds(op: string, attrs: Attrs, args: readonly TensorType[], inSize: number, outSize: number, what: string): void {
  if (inSize < 1) return;
  const axis = bilinearIntegerAxis(inSize, outSize, attrs.align_corners === true, attrs.half_pixel_centers === true);
  const past = axis.lower.findIndex((l) => l > inSize - 1);
  if (past >= 0) {
    fail(op, `TFLite's integer kernel reads source ${what} ${axis.lower[past]} for output ${what} ${past}, past the input's ${inSize} ${what}s (its Q10 scale rounds up)`, args);
  }
}

function sameAsInput(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  return { shape: [...args[0].shape], dtype: args[0].dtype };
}

export const LAYOUT_RULES = {
  l2_normalization: sameAsInput,
  log_softmax: sameAsInput,
  depth_to_space: depthToSpace,
  space_to_depth: spaceToDepth,
  batch_to_space_nd: batchToSpace,
  space_to_batch_nd: spaceToBatch,
  broadcast_to: broadcastTo,
  gather,
  resize_nearest_neighbor: resize('resize_nearest_neighbor'),
  resize_bilinear: resize('resize_bilinear'),
};

/**
 * Shape and dtype inference for every operator of `ops.ts`, and a checker that an
 * imported (or transformed) function's declared types agree with it.
 *
 * Quantization parameters are data of the model, not something to infer, so the inferred
 * type carries none and the checker compares shape and dtype only. Two ops cannot infer
 * everything from their inputs and take the rest from the call's declared type:
 * `reshape` (its new shape; `attrs.newshape` is used when present), `quantize`
 * (its output dtype) and `softmax` (int8 input may produce int8 or int16).
 */
import { accumulatorDType16x8, quantizeSignatureProblem } from '../../arith/quant-params';
import { TypeInferenceError } from '../../errors';
import { isKnownOp, OPS } from './ops';
import { Attrs, CallNode, DType, GraphFunction, IRModule, sameShape, TensorType, tensorElements } from './types';
import { nodeByName } from './graph';
import { REDUCE_RULES } from './reduceTypes';
import { COMPUTE_RULES } from './computeTypes';
import { LAYOUT_RULES } from './layoutTypes';
import { broadcastAll } from './broadcast';
import { MISC_RULES } from './miscTypes';
import { SIGNAL_RULES } from './signalTypes';
import { LOGIC_RULES } from './logicTypes';
import { VARIABLE_RULES } from './variableTypes';
import { typeRuleFail as fail, formatTensorType as fmt } from './typeRuleErrors';

function pair(op: string, attrs: Attrs, name: string, fallback?: [number, number]): [number, number] {
  const v = attrs[name] ?? fallback;
  if (!Array.isArray(v) || v.length !== 2 || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 1)) {
    throw new TypeInferenceError(`${op}: attribute ${name} must be two positive integers, got ${JSON.stringify(v)}`, { op });
  }
  return [v[0] as number, v[1] as number];
}

function padding(op: string, attrs: Attrs): [number, number, number, number] {
  const v = attrs.padding;
  if (!Array.isArray(v) || v.length !== 4 || v.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 0)) {
    throw new TypeInferenceError(`${op}: attribute padding must be [top, left, bottom, right], got ${JSON.stringify(v)}`, {
      op,
    });
  }
  return v as unknown as [number, number, number, number];
}

function rank(op: string, role: string, t: TensorType, r: number, args: readonly TensorType[]): void {
  if (t.shape.length !== r) fail(op, `${role} must be ${r}-d, got [${t.shape.join(', ')}]`, args);
}

function arity(op: string, args: readonly TensorType[]): void {
  const roles = OPS[op].args;
  const required = roles.filter((r) => !r.endsWith('?')).length;
  if (roles.length > 0 && roles[roles.length - 1].endsWith('...')) {
    if (args.length < required) fail(op, `takes at least ${required} arguments, got ${args.length}`, args);
    return;
  }
  if (args.length < required || args.length > roles.length) {
    fail(op, `takes ${required === roles.length ? required : `${required}-${roles.length}`} arguments, got ${args.length}`, args);
  }
}

const QUANTIZED_WEIGHTS: readonly DType[] = ['int8'];
const QUANTIZED_BIAS: readonly DType[] = ['int32', 'int64'];

/**
 * Weight/bias dtypes must fit the input: float input with float32 or int8 weights (TFLite's
 * hybrid, weights-only quantization, e.g. kws_ref_model_float32) and a float32 bias, or an
 * int8 input with int8 weights and an int32 bias, or int16 (16x8) with int8 weights and a wide
 * integer bias, as TFLite Micro's kernels (int4 weights arrive unpacked to int8).
 */
function checkWeightDtypes(op: string, args: readonly TensorType[]): void {
  const [input, weight, bias] = args;
  const float = input.dtype === 'float32';
  if (!float && input.dtype !== 'int8' && input.dtype !== 'int16') {
    fail(op, `input dtype ${input.dtype} is not float32, int8 or int16 (TFLite Micro's kernels)`, args);
  }
  if (input.dtype === 'int8' && bias && bias.dtype !== 'int32') {
    fail(op, `bias dtype ${bias.dtype} does not fit input dtype int8: an int8 input takes an int32 bias`, args);
  }
  const weightOk = float ? weight.dtype === 'float32' || weight.dtype === 'int8' : QUANTIZED_WEIGHTS.includes(weight.dtype);
  if (!weightOk) {
    const wanted = float ? 'float32 or int8 (weights-only quantization)' : QUANTIZED_WEIGHTS.join(' or ');
    fail(op, `weight dtype ${weight.dtype} does not fit input dtype ${input.dtype}: a ${input.dtype} input takes ${wanted} weights`, args);
  }
  if (bias && (float ? bias.dtype !== 'float32' : !QUANTIZED_BIAS.includes(bias.dtype))) {
    const wanted = float ? 'a float32' : `an ${QUANTIZED_BIAS.join(' or ')}`;
    fail(op, `bias dtype ${bias.dtype} does not fit input dtype ${input.dtype}: a ${input.dtype} input takes ${wanted} bias`, args);
  }
}

function checkBias(op: string, args: readonly TensorType[], channels: number): void {
  const bias = args[2];
  if (bias && tensorElements(bias) !== channels) {
    fail(op, `bias has ${tensorElements(bias)} elements, expected ${channels} (one per output channel)`, args);
  }
}

/** Output extent of a window op along one axis with explicit padding. */
function windowOut(op: string, args: readonly TensorType[], input: number, before: number, after: number, filter: number, stride: number, dilation: number): number {
  const effective = (filter - 1) * dilation + 1;
  const span = input + before + after - effective;
  if (span < 0) fail(op, `window ${effective} is larger than the padded input ${input + before + after}`, args);
  return Math.floor(span / stride) + 1;
}

/**
 * `coordinatesInInt32`: the padded extent and dilated window must fit int32 (convolutions).
 * Pools need not: their C visits only the window's taps inside the input (pool.ts, windowSpan).
 */
function spatialOut(op: string, attrs: Attrs, args: readonly TensorType[], kh: number, kw: number, dilation: [number, number], coordinatesInInt32 = true): [number, number] {
  const [, h, w] = args[0].shape;
  const strides = pair(op, attrs, 'strides');
  const [top, left, bottom, right] = padding(op, attrs);
  const axes: [string, number, number, number, number, number][] = [
    ['height', h, top, bottom, kh, dilation[0]],
    ['width', w, left, right, kw, dilation[1]],
  ];
  for (const [axis, input, before, after, filter, d] of coordinatesInInt32 ? axes : []) {
    // The generated C computes each tap's input coordinate, origin + k * dilation, in int32, as
    // TFLite Micro's kernels do (fuzzed: a dilation of 2^31-1 overflowed, and the C read
    // elsewhere than the interpreter).
    const extent = input + before + after + (filter - 1) * d;
    if (extent > INT32_MAX) {
      fail(op, `the padded ${axis} and the dilated window reach ${extent}, past 2^31-1: coordinates are 32-bit integers in the generated C`, args);
    }
  }
  return [
    windowOut(op, args, h, top, bottom, kh, strides[0], dilation[0]),
    windowOut(op, args, w, left, right, kw, strides[1], dilation[1]),
  ];
}

const INT32_MAX = 2 ** 31 - 1;

function conv2d(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input, weight] = args;
  rank('conv2d', 'input', input, 4, args);
  rank('conv2d', 'weight (OHWI)', weight, 4, args);
  const [n, , , c] = input.shape;
  const [o, kh, kw, i] = weight.shape;
  // Grouped convolution, as TFLite's: groups = input depth / filter depth, each group a whole
  // number of the filters.
  if (i < 1 || c % i !== 0) fail('conv2d', `input has ${c} channels but the weight expects ${i} (or a multiple of it, grouped)`, args);
  if (o === 0) fail('conv2d', 'weight has no filters (shape [0, kh, kw, in])', args);
  if (o % (c / i) !== 0) fail('conv2d', `${o} filters do not split into ${c / i} groups (input ${c} channels, filter depth ${i})`, args);
  checkWeightDtypes('conv2d', args);
  checkBias('conv2d', args, o);
  const [oh, ow] = spatialOut('conv2d', attrs, args, kh, kw, pair('conv2d', attrs, 'dilation', [1, 1]));
  return { shape: [n, oh, ow, o], dtype: input.dtype };
}

function depthwiseConv2d(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'depthwise_conv2d';
  const [input, weight] = args;
  rank(op, 'input', input, 4, args);
  rank(op, 'weight (1HWC)', weight, 4, args);
  const [n, , , c] = input.shape;
  const [one, kh, kw, oc] = weight.shape;
  const multiplier = attrs.depth_multiplier ?? 1;
  if (one !== 1) fail(op, `weight must have a leading 1, got ${one}`, args);
  if (typeof multiplier !== 'number' || oc !== c * multiplier) {
    fail(op, `weight has ${oc} channels, expected input channels ${c} x depth_multiplier ${multiplier}`, args);
  }
  checkWeightDtypes(op, args);
  // Refused here, not by the interpreter at run time after import and compile took it (fuzzed):
  // TFLite Micro has no 16x8 depthwise kernel for such a bias.
  if (input.dtype === 'int16' && args[2] && accumulatorDType16x8('depthwise_conv2d', args[2].dtype) === undefined) {
    fail(op, `bias dtype ${args[2].dtype} does not fit input dtype int16: a 16x8 depthwise convolution takes an int64 bias`, args);
  }
  checkBias(op, args, oc);
  const [oh, ow] = spatialOut(op, attrs, args, kh, kw, pair(op, attrs, 'dilation', [1, 1]));
  return { shape: [n, oh, ow, oc], dtype: input.dtype };
}

function dense(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input, weight] = args;
  rank('dense', 'weight [units, in]', weight, 2, args);
  const [units, inFeatures] = weight.shape;
  const elements = tensorElements(input);
  // No output units, or no rows: the quantized kernels read a first channel's multiplier that
  // is not there (fuzzed: a TypeError in the strategy, a DMA copy from nowhere).
  if (units === 0) fail('dense', 'weight has no output units (shape [0, in])', args);
  if (elements === 0) fail('dense', `input of shape [${input.shape}] has no elements`, args);
  // Said as what they are: both fell into the rows check below, which then claimed a scalar
  // "of 1 elements is not a whole number of rows of 1" (fuzzed: a tensor's shape field dropped).
  if (input.shape.length === 0) fail('dense', 'input is a scalar (shape []): it needs at least one dimension to hold rows', args);
  if (inFeatures === 0) fail('dense', `weight has no input features (shape [${units}, 0])`, args);
  if (elements % inFeatures !== 0) {
    fail('dense', `input of ${elements} elements is not a whole number of rows of ${inFeatures}`, args);
  }
  checkWeightDtypes('dense', args);
  checkBias('dense', args, units);
  if (attrs.keep_num_dims === true) {
    if (input.shape[input.shape.length - 1] !== inFeatures) {
      fail('dense', `keep_num_dims needs the input's last dimension to be ${inFeatures}`, args);
    }
    return { shape: [...input.shape.slice(0, -1), units], dtype: input.dtype };
  }
  return { shape: [elements / inFeatures, units], dtype: input.dtype };
}

/** NumPy broadcasting of two shapes. */
export function broadcastShapes(a: readonly number[], b: readonly number[]): number[] | null {
  return broadcastAll([a, b]);
}

function add(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [lhs, rhs] = args;
  if (lhs.dtype !== rhs.dtype) fail('add', `operand dtypes differ`, args);
  const shape = broadcastShapes(lhs.shape, rhs.shape);
  if (!shape) fail('add', `shapes do not broadcast`, args);
  return { shape, dtype: lhs.dtype };
}

function pool(op: string) {
  return (attrs: Attrs, args: readonly TensorType[]): TensorType => {
    const [input] = args;
    rank(op, 'input', input, 4, args);
    const [kh, kw] = pair(op, attrs, 'pool_size');
    const [oh, ow] = spatialOut(op, attrs, args, kh, kw, [1, 1], false);
    return { shape: [input.shape[0], oh, ow, input.shape[3]], dtype: input.dtype };
  };
}

function reshape(attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [input] = args;
  const newshape = attrs.newshape;
  const shape = Array.isArray(newshape) ? (newshape as number[]) : declared?.shape;
  if (!shape) fail('reshape', 'needs attrs.newshape or the declared output type', args);
  const elements = shape.reduce((x, y) => x * y, 1);
  if (elements !== tensorElements(input)) {
    fail('reshape', `cannot reshape ${tensorElements(input)} elements to [${shape.join(', ')}]`, args);
  }
  return { shape: [...shape], dtype: input.dtype };
}

/** copy moves data without changing it: same shape, same dtype. */
function copy(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  return { shape: args[0].shape, dtype: args[0].dtype };
}

/** TFLite's int8 softmax may write int16 (a finer output); the declared type decides. */
function softmax(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [input] = args;
  if (input.shape.length === 0) fail('softmax', 'input must have at least one axis', args);
  const widened = input.dtype === 'int8' && declared?.dtype === 'int16';
  return { shape: input.shape, dtype: widened ? 'int16' : input.dtype };
}

const QUANTIZED: readonly DType[] = ['int8', 'uint8', 'int16'];

/** The dtype pairs are TFLite Micro's (`QUANTIZE_SIGNATURES`), int32 <-> int8/int16 requantization included. */
function quantize(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [input] = args;
  const dtype = declared?.dtype ?? (input.dtype === 'float32' || input.dtype === 'int32' ? 'int8' : input.dtype);
  const problem = quantizeSignatureProblem(input.dtype, dtype);
  if (problem) fail('quantize', problem, args);
  return { shape: input.shape, dtype };
}

function dequantize(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input] = args;
  if (!QUANTIZED.includes(input.dtype)) fail('dequantize', `input dtype ${input.dtype} is not quantized`, args);
  return { shape: input.shape, dtype: 'float32' };
}

function svdf(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input, feature, time] = args;
  const bias = args.length === 5 ? args[3] : undefined;
  const state = args[args.length - 1];
  rank('svdf', 'input [batch, input_size]', input, 2, args);
  rank('svdf', 'weights_feature [filters, input_size]', feature, 2, args);
  rank('svdf', 'weights_time [filters, memory]', time, 2, args);
  const [batch, inputSize] = input.shape;
  const [filters, featureSize] = feature.shape;
  const [timeFilters, memory] = time.shape;
  const r = attrs.rank;
  if (typeof r !== 'number' || r < 1 || filters % r !== 0) fail('svdf', `rank ${r} does not divide ${filters} filters`, args);
  if (featureSize !== inputSize) fail('svdf', `weights_feature expects input size ${featureSize}, got ${inputSize}`, args);
  if (timeFilters !== filters) fail('svdf', `weights_time has ${timeFilters} filters, weights_feature ${filters}`, args);
  const units = filters / r;
  if (bias && tensorElements(bias) !== units) fail('svdf', `bias has ${tensorElements(bias)} elements, expected ${units}`, args);
  if (tensorElements(state) !== batch * memory * filters) {
    fail('svdf', `state has ${tensorElements(state)} elements, expected batch x memory x filters = ${batch * memory * filters}`, args);
  }
  return { shape: [batch, units], dtype: input.dtype };
}

function intList(op: string, attrs: Attrs, name: string, length: number): number[] {
  const v = attrs[name];
  if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
    throw new TypeInferenceError(`${op}: attribute ${name} must be ${length} integers, got ${JSON.stringify(v)}`, { op });
  }
  return v as number[];
}

function padded(op: string) {
  return (attrs: Attrs, args: readonly TensorType[]): TensorType => {
    const [input] = args;
    const r = input.shape.length;
    const p = intList(op, attrs, 'paddings', 2 * r);
    if (p.some((x) => x < 0)) fail(op, `paddings must be non-negative, got [${p}]`, args);
    if (op === 'mirror_pad') {
      const symmetric = attrs.mode === 'SYMMETRIC';
      if (attrs.mode !== 'REFLECT' && !symmetric) fail(op, `mode must be REFLECT or SYMMETRIC, got ${JSON.stringify(attrs.mode)}`, args);
      input.shape.forEach((d, i) => {
        const limit = symmetric ? d : d - 1;
        if (p[2 * i] > limit || p[2 * i + 1] > limit) fail(op, `padding of axis ${i} exceeds ${limit} (${attrs.mode} of size ${d})`, args);
      });
    }
    return { shape: input.shape.map((d, i) => d + p[2 * i] + p[2 * i + 1]), dtype: input.dtype };
  };
}

function transpose(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input] = args;
  const perm = intList('transpose', attrs, 'perm', input.shape.length);
  if ([...perm].sort((a, b) => a - b).some((x, i) => x !== i)) fail('transpose', `perm [${perm}] is not a permutation`, args);
  return { shape: perm.map((p) => input.shape[p]), dtype: input.dtype };
}

function axisAttr(op: string, attrs: Attrs, rank: number, args: readonly TensorType[]): number {
  const axis = attrs.axis;
  if (typeof axis !== 'number' || !Number.isInteger(axis) || axis < 0 || axis >= rank) {
    fail(op, `axis must be an integer in [0, ${rank}), got ${JSON.stringify(axis)}`, args);
  }
  return axis;
}

function sameDtypes(op: string, args: readonly TensorType[]): void {
  if (args.some((a) => a.dtype !== args[0].dtype)) fail(op, 'input dtypes differ', args);
}

function concatenate(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const first = args[0];
  const axis = axisAttr('concatenate', attrs, first.shape.length, args);
  sameDtypes('concatenate', args);
  let total = 0;
  for (const a of args) {
    if (a.shape.length !== first.shape.length || a.shape.some((d, i) => i !== axis && d !== first.shape[i])) {
      fail('concatenate', `inputs must match except on axis ${axis}`, args);
    }
    total += a.shape[axis];
  }
  return { shape: first.shape.map((d, i) => (i === axis ? total : d)), dtype: first.dtype };
}

function pack(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const first = args[0];
  const axis = axisAttr('pack', attrs, first.shape.length + 1, args);
  sameDtypes('pack', args);
  if (args.some((a) => !sameShape(a.shape, first.shape))) fail('pack', 'inputs must have the same shape', args);
  const shape = [...first.shape];
  shape.splice(axis, 0, args.length);
  return { shape, dtype: first.dtype };
}

function stridedSlice(attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const op = 'strided_slice';
  const [input] = args;
  const r = input.shape.length;
  const begin = intList(op, attrs, 'begin', r);
  const strides = intList(op, attrs, 'strides', r);
  const sizes = intList(op, attrs, 'sizes', r);
  input.shape.forEach((d, i) => {
    if (strides[i] === 0 || sizes[i] < 0) fail(op, `axis ${i}: stride ${strides[i]}, size ${sizes[i]}`, args);
    const last = begin[i] + (sizes[i] - 1) * strides[i];
    if (sizes[i] > 0 && (begin[i] < 0 || begin[i] >= d || last < 0 || last >= d)) {
      fail(op, `axis ${i}: elements ${begin[i]}..${last} leave the input extent ${d}`, args);
    }
  });
  const elements = sizes.reduce((a, b) => a * b, 1);
  if (declared && tensorElements(declared) === elements) return { shape: [...declared.shape], dtype: input.dtype };
  return { shape: sizes, dtype: input.dtype };
}

function unidirectionalSequenceLstm(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'unidirectional_sequence_lstm';
  const [input, ...rest] = args;
  rank(op, 'input', input, 3, args);
  const timeMajor = attrs.time_major === true;
  const [d0, d1, inputSize] = input.shape;
  const [time, batch] = timeMajor ? [d0, d1] : [d1, d0];
  const inputWeights = rest.slice(0, 4);
  const recurrentWeights = rest.slice(4, 8);
  const biases = rest.slice(8, 12);
  const [outputState, cellState] = rest.slice(12, 14);
  const units = inputWeights[0].shape[0];
  for (const w of inputWeights) {
    rank(op, 'input weights [units, in]', w, 2, args);
    if (w.shape[0] !== units || w.shape[1] !== inputSize) fail(op, `input weights must be [${units}, ${inputSize}], got [${w.shape}]`, args);
  }
  for (const w of recurrentWeights) {
    rank(op, 'recurrent weights [units, units]', w, 2, args);
    if (w.shape[0] !== units || w.shape[1] !== units) fail(op, `recurrent weights must be [${units}, ${units}], got [${w.shape}]`, args);
  }
  for (const bias of biases) if (tensorElements(bias) !== units) fail(op, `gate bias has ${tensorElements(bias)} elements, expected ${units}`, args);
  if (tensorElements(outputState) !== batch * units || tensorElements(cellState) !== batch * units) {
    fail(op, `output and cell state must hold batch x units = ${batch * units} elements`, args);
  }
  if (outputState.dtype !== input.dtype) fail(op, `output state dtype ${outputState.dtype} differs from input ${input.dtype}`, args);
  return { shape: timeMajor ? [time, batch, units] : [batch, time, units], dtype: input.dtype };
}

/** A broadcasting binary elementwise op: both operands of one dtype, numpy shapes. */
function binaryElementwise(op: string) {
  return (_attrs: Attrs, args: readonly TensorType[]): TensorType => {
    const [lhs, rhs] = args;
    if (lhs.dtype !== rhs.dtype) fail(op, `operand dtypes differ`, args);
    const shape = broadcastShapes(lhs.shape, rhs.shape);
    if (!shape) fail(op, `shapes do not broadcast`, args);
    return { shape, dtype: lhs.dtype };
  };
}

/**
 * prelu: input and alpha broadcast against each other, the output takes the common shape (as
 * TFLite's Prepare and TFLite Micro's BroadcastPrelu4DSlow: an alpha [2, 3] over an input [1, 3]
 * gives [2, 3]); int16 takes an int8 alpha (TFLM).
 */
function prelu(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const [input, alpha] = args;
  const alphaDtype = input.dtype === 'int16' ? 'int8' : input.dtype;
  if (alpha.dtype !== alphaDtype) fail('prelu', `alpha dtype ${alpha.dtype} does not go with input ${input.dtype} (needs ${alphaDtype})`, args);
  const shape = broadcastShapes(input.shape, alpha.shape);
  if (!shape) fail('prelu', `alpha ${JSON.stringify(alpha.shape)} and input ${JSON.stringify(input.shape)} do not broadcast`, args);
  return { shape: shape!, dtype: input.dtype };
}

/** add_n: two or more inputs of one shape and dtype, which the output keeps (no broadcasting). */
function addN(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  if (args.length < 2) fail('add_n', `needs at least 2 inputs, got ${args.length}`, args);
  for (const t of args) {
    if (t.dtype !== args[0].dtype || !sameShape(t.shape, args[0].shape)) fail('add_n', 'inputs differ in shape or dtype', args);
  }
  return { shape: args[0].shape, dtype: args[0].dtype };
}

/** A unary elementwise op: same shape and dtype out. */
function unaryElementwise(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  return { shape: args[0].shape, dtype: args[0].dtype };
}

const CASTABLE: readonly DType[] = ['float32', 'int8', 'uint8', 'int16', 'int32', 'uint32', 'bool'];

/** cast keeps the shape; the declared type gives the output dtype. */
function castRule(_attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  const [input] = args;
  const dtype = declared?.dtype ?? input.dtype;
  if (!CASTABLE.includes(input.dtype) || !CASTABLE.includes(dtype)) fail('cast', `cannot cast ${input.dtype} to ${dtype}`, args);
  return { shape: input.shape, dtype };
}

type Rule = (attrs: Attrs, args: readonly TensorType[], declared?: TensorType) => TensorType;

const RULES: Readonly<Record<string, Rule>> = {
  conv2d,
  depthwise_conv2d: depthwiseConv2d,
  dense,
  add,
  avg_pool2d: pool('avg_pool2d'),
  max_pool2d: pool('max_pool2d'),
  reshape,
  copy,
  softmax,
  quantize,
  dequantize,
  svdf,
  pad: padded('pad'),
  mirror_pad: padded('mirror_pad'),
  transpose,
  concatenate,
  pack,
  strided_slice: stridedSlice,
  sub: binaryElementwise('sub'),
  mul: binaryElementwise('mul'),
  div: binaryElementwise('div'),
  maximum: binaryElementwise('maximum'),
  minimum: binaryElementwise('minimum'),
  squared_difference: binaryElementwise('squared_difference'),
  prelu,
  relu: unaryElementwise,
  relu6: unaryElementwise,
  relu_n1_to_1: unaryElementwise,
  leaky_relu: unaryElementwise,
  hard_swish: unaryElementwise,
  logistic: unaryElementwise,
  tanh: unaryElementwise,
  elu: unaryElementwise,
  abs: unaryElementwise,
  neg: unaryElementwise,
  sqrt: unaryElementwise,
  rsqrt: unaryElementwise,
  exp: unaryElementwise,
  log: unaryElementwise,
  cast: castRule,
  ...REDUCE_RULES,
  ...COMPUTE_RULES,
  ...LAYOUT_RULES,
  unidirectional_sequence_lstm: unidirectionalSequenceLstm,
  floor: unaryElementwise,
  ceil: unaryElementwise,
  round: unaryElementwise,
  sin: unaryElementwise,
  cos: unaryElementwise,
  square: unaryElementwise,
  floor_div: binaryElementwise('floor_div'),
  floor_mod: binaryElementwise('floor_mod'),
  add_n: addN,
  ...MISC_RULES,
  ...SIGNAL_RULES,
  l2_pool2d: pool('l2_pool2d'),
  ...LOGIC_RULES,
  ...VARIABLE_RULES,
};

/**
 * The output type of primitive `op` applied to `argTypes`. `declared` (the call's own type)
 * supplies what cannot be inferred: reshape's new shape, quantize's and softmax's output dtype.
 */
export function inferCallType(op: string, attrs: Attrs, argTypes: readonly TensorType[], declared?: TensorType): TensorType {
  const rule = RULES[op];
  if (!isKnownOp(op) || !rule) throw new TypeInferenceError(`no type rule for unknown operator '${op}'`, { op });
  arity(op, argTypes);
  const type = rule(attrs, argTypes, declared);
  const data = OPS[op].args.findIndex((role) => DATA_ROLES.has(role));
  if (data >= 0 && argTypes[data] && tensorElements(argTypes[data]) === 0 && tensorElements(type) > 0 && !FROM_NOTHING.has(op)) {
    fail(op, `computes ${fmt(type)} from ${OPS[op].args[data]} ${fmt(argTypes[data])}, which has no elements to read`, argTypes);
  }
  return type;
}

/** The argument an operator reads its output's elements from (the first of these it has). */
const DATA_ROLES: ReadonlySet<string> = new Set(['input', 'params', 'lhs']);
/**
 * Operators whose output is defined without reading that argument: concatenation's other
 * inputs, PAD's pad value, SHAPE, and reductions that start from a value of their own (a
 * SUM of nothing is 0, a REDUCE_MAX the type's lowest, a REDUCE_ALL true: TFLite's ReduceGeneric). Every other
 * operator with elements to write and none to read was refused nowhere and went wrong
 * everywhere (fuzzed: ARG_MAX over an axis of length 0 made ill-formed TIR, GATHER and
 * RESIZE from an empty tensor read out of bounds in the C).
 */
const FROM_NOTHING: ReadonlySet<string> = new Set(['concatenate', 'pack', 'pad', 'shape', 'sum', 'reduce_max', 'reduce_min', 'reduce_all', 'reduce_any']);

function outputTypeOf(fn: GraphFunction): TensorType | undefined {
  if (fn.outputs.length !== 1) return undefined;
  return fn.nodes.find((n) => n.name === fn.outputs[0])?.type;
}

/** Infers a call's type: primitive ops by rule, function calls from the callee's output. */
function inferNode(call: CallNode, argTypes: TensorType[], module?: IRModule): TensorType | undefined {
  if (call.callee.kind === 'op') return inferCallType(call.callee.op, call.attrs, argTypes, call.type);
  const callee = module?.functions.get(call.callee.name);
  if (!callee) return undefined;
  const params = nodeByName(callee);
  callee.params.forEach((p, i) => {
    const expected = params.get(p)?.type;
    const got = argTypes[i];
    if (!expected || !got || !sameShape(expected.shape, got.shape) || expected.dtype !== got.dtype) {
      throw new TypeInferenceError(
        `call to @${callee.name}: argument ${i} is ${got ? fmt(got) : 'missing'}, parameter '${p}' is ${expected ? fmt(expected) : 'missing'}`,
        { func: callee.name },
      );
    }
  });
  return outputTypeOf(callee);
}

/**
 * Checks that every call's declared type has the inferred shape and dtype. Calls to other
 * functions are checked against the callee's signature when `module` is given.
 */
export function checkFunctionTypes(fn: GraphFunction, module?: IRModule): void {
  const nodes = nodeByName(fn);
  for (const node of fn.nodes) {
    if (node.kind !== 'call') continue;
    const argTypes = node.args.map((a) => {
      const t = nodes.get(a)?.type;
      if (!t) throw new TypeInferenceError(`${fn.name}: '${node.name}' uses unknown node '${a}'`, { func: fn.name, op: node.name });
      return t;
    });
    const opName = node.callee.kind === 'op' ? node.callee.op : `@${node.callee.name}`;
    let inferred: TensorType | undefined;
    try {
      inferred = inferNode(node, argTypes, module);
    } catch (e) {
      if (!(e instanceof TypeInferenceError)) throw e;
      throw new TypeInferenceError(`${fn.name}: '${node.name}': ${e.message}`, { ...e.context, func: fn.name, op: opName });
    }
    if (inferred && (!sameShape(inferred.shape, node.type.shape) || inferred.dtype !== node.type.dtype)) {
      throw new TypeInferenceError(
        `${fn.name}: ${opName} '${node.name}' declares ${fmt(node.type)} but its arguments give ${fmt(inferred)}`,
        { func: fn.name, op: opName },
      );
    }
  }
}

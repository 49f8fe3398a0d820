/**
 * The canonical operator set of the graph IR and the attributes each carries.
 * The importer produces exactly these; the interpreter, lowering and patterns consume them.
 *
 * Shared attribute conventions:
 * - `strides`: [h, w]; `dilation`: [h, w]
 * - `padding`: explicit [top, left, bottom, right] (TFLite SAME/VALID resolved at import)
 * - `activation`: fused activation, one of FUSED_ACTIVATIONS; for quantized ops the kernel
 *   turns it into an output clamp range exactly as TFLite does
 */
import type { GraphNode } from './types';

export const FUSED_ACTIVATIONS = ['NONE', 'RELU', 'RELU_N1_TO_1', 'RELU6'] as const;
export type FusedActivation = (typeof FUSED_ACTIVATIONS)[number];

/**
 * How an operator may reuse the buffer of an input that dies at it (`src/ir/graph/inplace.ts`):
 * - `view`: the output is the input's bytes reinterpreted (a pure reshape); no code runs.
 * - `elementwise`: output element i depends on input element i only and its strategy reads
 *   element i before writing it, so the output may be written over an input of the same
 *   shape and dtype (not a broadcast one). A new elementwise op opts in with this flag.
 */
export type InplaceKind = 'view' | 'elementwise';

/**
 * The role of an argument that only orders the call after its producer (a resource
 * variable's previous access) and carries no data: lowering passes no buffer for it.
 */
export const ORDERING_ROLE = 'after?';

export interface OpSpec {
  /**
   * Argument roles in order; a trailing `?` marks an optional argument, a trailing `...`
   * a last role that takes one or more arguments (concatenate's inputs); `ORDERING_ROLE`
   * an ordering-only argument.
   */
  readonly args: readonly string[];
  /** Attribute names the op carries. */
  readonly attrs: readonly string[];
  readonly doc: string;
  readonly inplace?: InplaceKind;
  /**
   * The call's output is variable argument `updatesVariable` (a ConstantNode marked
   * `variable`) after the call, written in place: lowering binds the output to that
   * variable's persistent buffer (no tensor of its own), the interpreter writes it back. Such
   * a call is a side effect: it runs even though nothing reads its value.
   */
  readonly updatesVariable?: number;
}

export const OPS: Readonly<Record<string, OpSpec>> = {
  conv2d: {
    args: ['input', 'weight', 'bias?'],
    attrs: ['strides', 'dilation', 'padding', 'activation'],
    doc: 'NHWC input, OHWI weight, int32 (int8) or float bias',
  },
  depthwise_conv2d: {
    args: ['input', 'weight', 'bias?'],
    attrs: ['strides', 'dilation', 'padding', 'activation', 'depth_multiplier'],
    doc: 'NHWC input, 1HW(C*M) weight',
  },
  dense: {
    args: ['input', 'weight', 'bias?'],
    attrs: ['activation', 'keep_num_dims'],
    doc: 'TFLite FULLY_CONNECTED: weight [units, in]',
  },
  add: { args: ['lhs', 'rhs'], attrs: ['activation'], doc: 'broadcasting add', inplace: 'elementwise' },
  avg_pool2d: { args: ['input'], attrs: ['pool_size', 'strides', 'padding', 'activation'], doc: 'NHWC' },
  max_pool2d: { args: ['input'], attrs: ['pool_size', 'strides', 'padding', 'activation'], doc: 'NHWC' },
  reshape: { args: ['input'], attrs: [], doc: 'new shape is the output type', inplace: 'view' },
  copy: {
    args: ['input'],
    attrs: ['kind'],
    doc: 'identity data movement; `kind` names what it models (accel_input_fetcher, dma_in, layout_transform, ...)',
  },
  softmax: { args: ['input'], attrs: ['beta'], doc: 'over the last axis' },
  quantize: { args: ['input'], attrs: [], doc: 'float->int8 or int8->int8 requantize', inplace: 'elementwise' },
  dequantize: { args: ['input'], attrs: [], doc: 'int8->float' },
  svdf: {
    args: ['input', 'weights_feature', 'weights_time', 'bias?', 'state'],
    attrs: ['rank', 'activation'],
    doc: 'TFLite SVDF; `state` is a variable tensor that persists across invocations',
  },
  // Data movement: values are copied unchanged (no requantization), any dtype.
  pad: {
    args: ['input'],
    attrs: ['paddings', 'pad_value'],
    doc: 'PAD/PADV2: `paddings` = [before0, after0, before1, after1, ...] per axis; `pad_value` the stored value of the border (int8: the raw quantized value)',
  },
  mirror_pad: {
    args: ['input'],
    attrs: ['paddings', 'mode'],
    doc: 'MIRROR_PAD: `mode` REFLECT (edge not repeated) or SYMMETRIC (edge repeated)',
  },
  transpose: { args: ['input'], attrs: ['perm'], doc: 'output axis d is input axis perm[d]' },
  concatenate: {
    args: ['inputs...'],
    attrs: ['axis'],
    doc: 'CONCATENATION: inputs of equal rank joined along `axis` (non-negative)',
  },
  pack: {
    args: ['inputs...'],
    attrs: ['axis'],
    doc: 'PACK: equal-shaped inputs stacked along a new axis `axis` (non-negative)',
  },
  strided_slice: {
    args: ['input'],
    attrs: ['begin', 'strides', 'sizes'],
    doc:
      'STRIDED_SLICE/SLICE and each output of SPLIT/SPLIT_V/UNPACK: element j of input axis d is begin[d] + j*strides[d], ' +
      'j < sizes[d]; the output shape is the declared type (same element count: shrunk axes dropped)',
  },
  // Elementwise binary operators (numpy broadcasting; int8/int16 as TFLite Micro's kernels).
  sub: { args: ['lhs', 'rhs'], attrs: ['activation'], doc: 'broadcasting lhs - rhs', inplace: 'elementwise' },
  mul: { args: ['lhs', 'rhs'], attrs: ['activation'], doc: 'broadcasting lhs * rhs', inplace: 'elementwise' },
  div: { args: ['lhs', 'rhs'], attrs: ['activation'], doc: 'broadcasting lhs / rhs (float32)', inplace: 'elementwise' },
  maximum: { args: ['lhs', 'rhs'], attrs: [], doc: 'broadcasting max on stored values', inplace: 'elementwise' },
  minimum: { args: ['lhs', 'rhs'], attrs: [], doc: 'broadcasting min on stored values', inplace: 'elementwise' },
  squared_difference: { args: ['lhs', 'rhs'], attrs: [], doc: 'broadcasting (lhs - rhs)^2', inplace: 'elementwise' },
  prelu: { args: ['input', 'alpha'], attrs: [], doc: 'x >= 0 ? x : alpha * x, alpha broadcast to the input', inplace: 'elementwise' },
  // Elementwise unary operators.
  relu: { args: ['input'], attrs: [], doc: 'max(x, 0), requantized to the output (quantized)', inplace: 'elementwise' },
  relu6: { args: ['input'], attrs: [], doc: 'clamp(x, 0, 6) on the input scale (quantized)', inplace: 'elementwise' },
  relu_n1_to_1: { args: ['input'], attrs: [], doc: 'clamp(x, -1, 1), requantized to the output (quantized)', inplace: 'elementwise' },
  leaky_relu: { args: ['input'], attrs: ['alpha'], doc: 'x >= 0 ? x : alpha * x', inplace: 'elementwise' },
  hard_swish: { args: ['input'], attrs: [], doc: 'x * relu6(x + 3) / 6', inplace: 'elementwise' },
  logistic: { args: ['input'], attrs: [], doc: '1 / (1 + exp(-x)); int8 output written at scale 1/256 (zero point must be -128)', inplace: 'elementwise' },
  tanh: { args: ['input'], attrs: [], doc: 'tanh(x); int8 output written at scale 1/128, zero point 0', inplace: 'elementwise' },
  elu: { args: ['input'], attrs: [], doc: 'x < 0 ? exp(x) - 1 : x', inplace: 'elementwise' },
  abs: { args: ['input'], attrs: [], doc: '|x|', inplace: 'elementwise' },
  neg: { args: ['input'], attrs: [], doc: '-x', inplace: 'elementwise' },
  sqrt: { args: ['input'], attrs: [], doc: 'square root (float32)', inplace: 'elementwise' },
  rsqrt: { args: ['input'], attrs: [], doc: '1 / sqrt(x) (float32)', inplace: 'elementwise' },
  exp: { args: ['input'], attrs: [], doc: 'e^x (float32)', inplace: 'elementwise' },
  log: { args: ['input'], attrs: [], doc: 'natural logarithm (float32)', inplace: 'elementwise' },
  cast: { args: ['input'], attrs: [], doc: 'type conversion (C static_cast); the output dtype is the call type', inplace: 'elementwise' },
  mean: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'mean over `axes` (non-negative, distinct); keep_dims keeps them as 1' },
  sum: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'sum over `axes`' },
  reduce_max: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'maximum over `axes`' },
  reduce_min: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'minimum over `axes`' },
  reduce_all: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'logical and (bool) over `axes`; true over no elements' },
  reduce_any: { args: ['input'], attrs: ['axes', 'keep_dims'], doc: 'logical or (bool) over `axes`; false over no elements' },
  arg_max: { args: ['input'], attrs: ['axis'], doc: 'index of the first maximum along `axis` (removed); int32 or int64 output' },
  arg_min: { args: ['input'], attrs: ['axis'], doc: 'index of the first minimum along `axis` (removed); int32 or int64 output' },
  transpose_conv2d: {
    args: ['input', 'weight', 'bias?'],
    attrs: ['strides', 'pad_before', 'output_shape', 'activation'],
    doc: 'TFLite TRANSPOSE_CONV: NHWC input, OHWI weight; `pad_before` [top, left] as TFLite derives it from the output size; `output_shape` NHWC',
  },
  batch_matmul: {
    args: ['lhs', 'rhs'],
    attrs: ['adj_x', 'adj_y'],
    doc: 'TFLite BATCH_MATMUL: matrices in the last two axes (transposed when adj_x / adj_y), batch axes broadcast',
  },
  depth_to_space: { args: ['input'], attrs: ['block_size'], doc: 'NHWC, TFLite DEPTH_TO_SPACE' },
  space_to_depth: { args: ['input'], attrs: ['block_size'], doc: 'NHWC, TFLite SPACE_TO_DEPTH' },
  batch_to_space_nd: { args: ['input'], attrs: ['block_shape', 'crops'], doc: 'NHWC (or NHC as NH1C); block_shape [h, w], crops [top, bottom, left, right]' },
  space_to_batch_nd: {
    args: ['input'],
    attrs: ['block_shape', 'paddings'],
    doc: 'NHWC (or NHC as NH1C); block_shape [h, w], paddings [top, bottom, left, right] filled with the output zero point (0.0 for float)',
  },
  broadcast_to: { args: ['input'], attrs: [], doc: 'numpy broadcast to the output type' },
  gather: { args: ['input', 'indices'], attrs: ['axis', 'batch_dims'], doc: 'TFLite GATHER: indices int32/int64, read at run time; batch_dims (default 0) leading axes shared by input and indices' },
  resize_nearest_neighbor: { args: ['input'], attrs: ['align_corners', 'half_pixel_centers'], doc: 'NHWC; size is the output type' },
  resize_bilinear: { args: ['input'], attrs: ['align_corners', 'half_pixel_centers'], doc: 'NHWC; size is the output type' },
  l2_normalization: { args: ['input'], attrs: [], doc: 'over the last axis; int8 output scale 1/128' },
  log_softmax: { args: ['input'], attrs: [], doc: 'over the last axis; int8 output scale 16/256, zero point 127' },
  unidirectional_sequence_lstm: {
    args: [
      'input',
      'input_to_input_weights',
      'input_to_forget_weights',
      'input_to_cell_weights',
      'input_to_output_weights',
      'recurrent_to_input_weights',
      'recurrent_to_forget_weights',
      'recurrent_to_cell_weights',
      'recurrent_to_output_weights',
      'input_gate_bias',
      'forget_gate_bias',
      'cell_gate_bias',
      'output_gate_bias',
      'output_state',
      'cell_state',
    ],
    attrs: ['activation', 'cell_clip', 'time_major'],
    doc:
      'TFLite UNIDIRECTIONAL_SEQUENCE_LSTM without peephole, projection or layer norm (as TFLite Micro): input ' +
      '[time, batch, in] (time_major) or [batch, time, in], output the hidden state of every step; ' +
      '`output_state` [batch, units] and `cell_state` [batch, units] are variable tensors that persist',
  },
  floor: { args: ['input'], attrs: [], doc: 'round toward -inf (float32)', inplace: 'elementwise' },
  ceil: { args: ['input'], attrs: [], doc: 'round toward +inf (float32)', inplace: 'elementwise' },
  round: { args: ['input'], attrs: [], doc: 'round half to even as TFLite (float32; -0.3 gives +0)', inplace: 'elementwise' },
  sin: { args: ['input'], attrs: [], doc: 'sine (float32)', inplace: 'elementwise' },
  cos: { args: ['input'], attrs: [], doc: 'cosine (float32)', inplace: 'elementwise' },
  square: { args: ['input'], attrs: [], doc: 'x * x (float32)', inplace: 'elementwise' },
  floor_div: { args: ['lhs', 'rhs'], attrs: [], doc: 'broadcasting floor(lhs / rhs), the quotient in double (float32)', inplace: 'elementwise' },
  add_n: {
    args: ['inputs...'],
    attrs: [],
    doc: 'ADD_N: sum of two or more inputs of one shape; int8 inputs share one quantization, summed as TFLite Micro (from the rescaled -zero point)',
    inplace: 'elementwise',
  },
  floor_mod: { args: ['lhs', 'rhs'], attrs: [], doc: 'broadcasting remainder with the sign of rhs, fmod-based as TFLite (float32)', inplace: 'elementwise' },
  // Small structural and indexing operators (any dtype TFLite Micro's kernel takes; values copied unchanged).
  reverse: { args: ['input'], attrs: ['axes'], doc: 'REVERSE_V2: the input flipped along `axes` (sorted, contiguous, as TFLite Micro requires)' },
  zeros_like: { args: ['input'], attrs: [], doc: 'ZEROS_LIKE: zeros (the stored value 0) of the input type' },
  fill: { args: ['value'], attrs: [], doc: 'FILL: the one-element `value` (stored value, not requantized) repeated over the output type' },
  shape: { args: ['input'], attrs: [], doc: "SHAPE: the input's (static) dimensions as int32" },
  gather_nd: {
    args: ['params', 'indices'],
    attrs: [],
    doc: 'GATHER_ND: int32 indices (read at run time) whose last axis indexes the leading params axes; output indices.shape[:-1] + params.shape[nd:]',
  },
  embedding_lookup: {
    args: ['params', 'ids'],
    attrs: [],
    doc: 'EMBEDDING_LOOKUP: rows of params picked by 1-d int32 ids (read at run time); int8 params with a float32 output are dequantized (zero point 0)',
  },
  l2_pool2d: { args: ['input'], attrs: ['pool_size', 'strides', 'padding', 'activation'], doc: 'L2_POOL_2D: NHWC, sqrt(mean of the squares) over the clipped window (float32)' },
  cumsum: { args: ['input'], attrs: ['axis', 'exclusive', 'reverse'], doc: 'CUMSUM along `axis` (non-negative); int8 as TFLite Micro (2^20 fixed point)' },
  // Comparisons, logical operators and select (bool results; numpy broadcasting).
  equal: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs == rhs, bool output; int8/int16 compare after rescaling both to a common scale', inplace: 'elementwise' },
  not_equal: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs != rhs, bool output (as equal)', inplace: 'elementwise' },
  less: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs < rhs, bool output (as equal)', inplace: 'elementwise' },
  less_equal: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs <= rhs, bool output (as equal)', inplace: 'elementwise' },
  greater: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs > rhs, bool output (as equal)', inplace: 'elementwise' },
  greater_equal: { args: ['lhs', 'rhs'], attrs: [], doc: 'lhs >= rhs, bool output (as equal)', inplace: 'elementwise' },
  logical_and: { args: ['lhs', 'rhs'], attrs: [], doc: 'bool lhs && rhs', inplace: 'elementwise' },
  logical_or: { args: ['lhs', 'rhs'], attrs: [], doc: 'bool lhs || rhs', inplace: 'elementwise' },
  logical_not: { args: ['input'], attrs: [], doc: 'bool !x', inplace: 'elementwise' },
  select: {
    args: ['condition', 'x', 'y'],
    attrs: [],
    doc: 'TFLite SELECT_V2: condition ? x : y with the bool condition, x and y broadcast together; values copied unchanged',
    inplace: 'elementwise',
  },
  detection_postprocess: {
    args: ['box_encodings', 'class_predictions', 'anchors'],
    attrs: [
      'max_detections',
      'max_classes_per_detection',
      'detections_per_class',
      'use_regular_nms',
      'nms_score_threshold',
      'nms_iou_threshold',
      'num_classes',
      'y_scale',
      'x_scale',
      'h_scale',
      'w_scale',
      'output_rows',
    ],
    doc:
      "custom TFLite_Detection_PostProcess (float32, TFLite Micro's kernel): one packed [6 * output_rows + 1] output, " +
      'boxes [rows, 4] then classes, scores and the count; the importer slices the four TFLite outputs out of it',
  },
  // TFLite Micro's signal library (custom operators Signal*, the micro_speech audio front end;
  // src/arith/signal.ts). Integer tensors (unsigned ones uint32/uint64), and float32 for the FFTs and overlap-add.
  signal_window: { args: ['input', 'weights'], attrs: ['shift'], doc: 'SignalWindow: int16 input times the int16 weights over its last axis, >> shift, saturated' },
  signal_fft_auto_scale: { args: ['input'], attrs: [], doc: 'SignalFftAutoScale output 0: the 1-d int16 input shifted left as far as its largest magnitude allows' },
  signal_fft_auto_scale_bits: { args: ['input'], attrs: [], doc: 'SignalFftAutoScale output 1: the int32 scalar shift output 0 got' },
  signal_rfft: { args: ['input'], attrs: ['fft_length'], doc: 'SignalRfft (int16, int32, float32): kissfft real FFT of each zero-padded row; fft_length + 2 values (re, im) per row' },
  signal_irfft: { args: ['input'], attrs: ['fft_length'], doc: 'SignalIrfft (int16, int32, float32): kissfft inverse real FFT of each row of fft_length / 2 + 1 complex bins; fft_length values per row' },
  signal_energy: { args: ['input'], attrs: ['start_index', 'end_index'], doc: 'SignalEnergy: uint32 re^2 + im^2 of the complex int16 bins [start, end), other bins 0' },
  signal_filter_bank: {
    args: ['input', 'weights', 'unweights', 'channel_frequency_starts', 'channel_weight_starts', 'channel_widths'],
    attrs: ['num_channels'],
    doc: 'SignalFilterBank: uint64 weighted sums of the uint32 input per channel (int16 constant tables)',
  },
  signal_filter_bank_square_root: { args: ['input', 'scale_bits'], attrs: [], doc: 'SignalFilterBankSquareRoot: uint32 Sqrt64(x) >> scale_bits (an int32 scalar read at run time)' },
  signal_filter_bank_spectral_subtraction: {
    args: ['input', 'state'],
    attrs: [
      'num_channels',
      'smoothing',
      'one_minus_smoothing',
      'alternate_smoothing',
      'alternate_one_minus_smoothing',
      'min_signal_remaining',
      'smoothing_bits',
      'spectral_subtraction_bits',
      'clamping',
    ],
    doc:
      'SignalFilterBankSpectralSubtraction: `state` (a variable uint32 [channels], the noise estimate kept across invocations) ' +
      'updated in place; one packed uint32 [2 * channels] output, the noise-reduced channels then the new estimate',
  },
  signal_pcan: { args: ['input', 'noise_estimate', 'gain_lut'], attrs: ['snr_shift'], doc: 'SignalPCAN: uint32 per-channel gain control by the noise estimate through the int16 gain table' },
  signal_delay: { args: ['input', 'state'], attrs: ['delay_length'], doc: 'SignalDelay: each int16 row delayed by delay_length samples; `state` (variable, int16 [rows * delay_length]) updated in place' },
  signal_overlap_add: {
    args: ['input', 'state'],
    attrs: ['frame_step'],
    doc: 'SignalOverlapAdd (int16 or float32): [..., frames, frame_size] overlap-added into `state` (variable [rows * frame_size]), frame_step values per frame out',
  },
  signal_stacker: {
    args: ['input', 'state'],
    attrs: ['num_channels', 'stacker_left_context', 'stacker_right_context', 'stacker_step'],
    doc: 'SignalStacker: `state` (variable int32: available, first frame seen, queue) updated in place; packed int16 [stacked frame, output_valid]',
  },
  signal_framer: {
    args: ['input', 'state'],
    attrs: ['frame_size', 'frame_step'],
    doc: 'SignalFramer: `state` (variable int32, per row: available, queue) updated in place; packed int16 [frames, output_valid]',
  },
  signal_flag: { args: ['packed'], attrs: ['index'], doc: 'a bool scalar: element `index` of a packed int16 or int8 output is not 0 (Stacker/Framer output_valid, CIRCULAR_BUFFER ready)' },
  dynamic_update_slice: {
    args: ['operand', 'update', 'start_indices'],
    attrs: [],
    doc: 'DYNAMIC_UPDATE_SLICE: the operand with `update` written from `start_indices` (read at run time, each clamped into [0, operand dim - update dim])',
  },
  basic_classifier: {
    args: ['input', 'target_indices', 'thresholds'],
    attrs: ['output'],
    doc: "BasicClassifier (TFLite Micro's custom op), one output per call: `output` 0 = input[target_indices[i]] >= thresholds[i] (bool), 1 = input[target_indices[i]] (the input read flat)",
  },
  circular_buffer: {
    args: ['input', 'state'],
    attrs: ['num_slots', 'depth', 'cycles_max'],
    doc:
      "CIRCULAR_BUFFER (TFLite Micro's custom op): `state` (variable int32: the period counter, then the output buffer's values) updated in place, " +
      'the oldest of num_slots slots of depth values dropped and the input appended; packed int8 [buffer, ready]',
  },
  signal_filter_bank_log: { args: ['input'], attrs: ['output_scale', 'input_correction_bits'], doc: 'SignalFilterBankLog: int16 Log32(x << input_correction_bits, output_scale), at most INT16_MAX' },
  // Resource variables (TFLite VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE): `variable` is a
  // variable ConstantNode; `after` is the previous access of the same variable, so every
  // dataflow order keeps TFLite's order of reads and assignments.
  read_variable: {
    args: ['variable', ORDERING_ROLE],
    attrs: [],
    doc: "READ_VARIABLE: a copy of the variable's current value",
  },
  assign_variable: {
    args: ['variable', 'value', ORDERING_ROLE],
    attrs: [],
    doc: 'ASSIGN_VARIABLE: `value` (same shape and dtype) becomes the variable, seen by later reads and the next invocation',
    updatesVariable: 0,
  },
  broadcast_args: {
    args: ['shape1', 'shape2'],
    attrs: [],
    doc: 'BROADCAST_ARGS: the broadcast of two 1-d int32 (or int64) shape vectors read at run time (the importer folds known ones to a constant)',
  },
};

/**
 * True for a call whose output is a variable updated in place (`updatesVariable`, e.g.
 * assign_variable): a side effect, not a tensor of its own.
 */
export function isVariableUpdate(node: GraphNode): boolean {
  return node.kind === 'call' && node.callee.kind === 'op' && OPS[node.callee.op]?.updatesVariable !== undefined;
}

/** True when argument `k` of `node` only orders the call (`ORDERING_ROLE`) and carries no data. */
export function isOrderingArgument(node: GraphNode, k: number): boolean {
  return node.kind === 'call' && node.callee.kind === 'op' && OPS[node.callee.op]?.args[k] === ORDERING_ROLE;
}

export function isKnownOp(op: string): boolean {
  return Object.prototype.hasOwnProperty.call(OPS, op);
}

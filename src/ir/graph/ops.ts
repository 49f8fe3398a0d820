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
export const FUSED_ACTIVATIONS = ['NONE', 'RELU', 'RELU_N1_TO_1', 'RELU6'] as const;
export type FusedActivation = (typeof FUSED_ACTIVATIONS)[number];

export interface OpSpec {
  /** Argument roles in order; a trailing `?` marks an optional argument. */
  readonly args: readonly string[];
  /** Attribute names the op carries. */
  readonly attrs: readonly string[];
  readonly doc: string;
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
  add: { args: ['lhs', 'rhs'], attrs: ['activation'], doc: 'broadcasting add' },
  avg_pool2d: { args: ['input'], attrs: ['pool_size', 'strides', 'padding', 'activation'], doc: 'NHWC' },
  max_pool2d: { args: ['input'], attrs: ['pool_size', 'strides', 'padding', 'activation'], doc: 'NHWC' },
  reshape: { args: ['input'], attrs: [], doc: 'new shape is the output type' },
  copy: {
    args: ['input'],
    attrs: ['kind'],
    doc: 'identity data movement; `kind` names what it models (accel_input_fetcher, dma_in, layout_transform, ...)',
  },
  softmax: { args: ['input'], attrs: ['beta'], doc: 'over the last axis' },
  quantize: { args: ['input'], attrs: [], doc: 'float->int8 or int8->int8 requantize' },
  dequantize: { args: ['input'], attrs: [], doc: 'int8->float' },
  svdf: {
    args: ['input', 'weights_feature', 'weights_time', 'bias?', 'state'],
    attrs: ['rank', 'activation'],
    doc: 'TFLite SVDF; `state` is a variable tensor that persists across invocations',
  },
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
};

export function isKnownOp(op: string): boolean {
  return Object.prototype.hasOwnProperty.call(OPS, op);
}

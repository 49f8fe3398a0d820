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

/**
 * How an operator may reuse the buffer of an input that dies at it (`src/ir/graph/inplace.ts`):
 * - `view`: the output is the input's bytes reinterpreted (a pure reshape); no code runs.
 * - `elementwise`: output element i depends on input element i only and its strategy reads
 *   element i before writing it, so the output may be written over an input of the same
 *   shape and dtype (not a broadcast one). A new elementwise op opts in with this flag.
 */
export type InplaceKind = 'view' | 'elementwise';

export interface OpSpec {
  /** Argument roles in order; a trailing `?` marks an optional argument. */
  readonly args: readonly string[];
  /** Attribute names the op carries. */
  readonly attrs: readonly string[];
  readonly doc: string;
  readonly inplace?: InplaceKind;
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
};

export function isKnownOp(op: string): boolean {
  return Object.prototype.hasOwnProperty.call(OPS, op);
}

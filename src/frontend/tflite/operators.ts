/**
 * One converter per supported TFLite builtin: reads the operator's options and yields the
 * canonical graph-IR op (`src/ir/graph/ops.ts`), its attributes and which TFLite inputs
 * become call arguments.
 */
import { TypeInferenceError, UnsupportedOperatorError } from '../../errors';
import { FUSED_ACTIVATIONS, FusedActivation } from '../../ir/graph/ops';
import { AttrValue, TensorType } from '../../ir/graph/types';
import { BuiltinOperatorCode } from './builtinOperators';
import { PaddingMode, resolvePadding } from './padding';
import {
  ACTIVATION_NAMES,
  AddOptions,
  BuiltinOptionsType,
  Conv2DOptions,
  DepthwiseConv2DOptions,
  FullyConnectedOptions,
  Operator,
  PaddingCode,
  Pool2DOptions,
  SoftmaxOptions,
  SVDFOptions,
} from './schema';
import { CheckedBuffer, modelFormatError } from './flatbuf';

export interface OperatorSite {
  /** Operator index in the subgraph. */
  readonly index: number;
  /** TFLite builtin name, e.g. `CONV_2D`. */
  readonly tfliteName: string;
  readonly operator: Operator;
  /** Types of the TFLite inputs in order; null for an omitted optional input (-1). */
  readonly inputTypes: readonly (TensorType | null)[];
  readonly outputType: TensorType;
  readonly source: string;
}

export interface ConvertedOperator {
  readonly op: string;
  readonly attrs: Record<string, AttrValue>;
  /** Positions (into the TFLite inputs) that become call args, in order; -1 inputs are dropped. */
  readonly argPositions: readonly number[];
}

type Converter = (site: OperatorSite) => ConvertedOperator;

function where(site: OperatorSite): string {
  return `${site.tfliteName} at operator #${site.index} in ${site.source}`;
}

function formatError(site: OperatorSite, problem: string): never {
  throw modelFormatError(site.source, site.operator.pos, `${problem} (${site.tfliteName} at operator #${site.index})`);
}

type OptionsCtor<T> = new (buf: CheckedBuffer, pos: number, what: string) => T;

/** The options table, or null when the operator carries none (all defaults). */
function options<T>(site: OperatorSite, expected: number, ctor: OptionsCtor<T>): T | null {
  const type = site.operator.builtinOptionsType;
  if (type === BuiltinOptionsType.NONE) return null;
  if (type !== expected) {
    formatError(site, `builtin_options has union type ${type}, expected ${ctor.name} (${expected})`);
  }
  return site.operator.builtinOptions(ctor);
}

function requiredOptions<T>(site: OperatorSite, expected: number, ctor: OptionsCtor<T>): T {
  return options(site, expected, ctor) ?? formatError(site, `missing ${ctor.name}`);
}

function activation(site: OperatorSite, code: number): FusedActivation {
  const name = ACTIVATION_NAMES[code];
  if (name === undefined || !(FUSED_ACTIVATIONS as readonly string[]).includes(name)) {
    throw new UnsupportedOperatorError(
      `unsupported fused activation ${name ?? code} on ${where(site)}`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return name as FusedActivation;
}

function paddingMode(site: OperatorSite, code: number): PaddingMode {
  if (code === PaddingCode.SAME) return 'SAME';
  if (code === PaddingCode.VALID) return 'VALID';
  return formatError(site, `unknown padding ${code}`);
}

function positive(site: OperatorSite, what: string, values: readonly number[]): [number, number] {
  if (values.some((v) => !Number.isInteger(v) || v < 1)) formatError(site, `${what} must be >= 1, got [${values}]`);
  return [values[0], values[1]];
}

function inputType(site: OperatorSite, position: number, role: string): TensorType {
  const type = site.inputTypes[position];
  if (!type) formatError(site, `missing ${role} input`);
  return type;
}

/** [H, W] of an NHWC tensor; shape errors are reported by op and shape. */
function spatial(site: OperatorSite, type: TensorType, role: string): [number, number] {
  if (type.shape.length !== 4) {
    throw new TypeInferenceError(
      `${site.tfliteName} expects a 4-d NHWC ${role}, got shape [${type.shape}] (${where(site)})`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return [type.shape[1], type.shape[2]];
}

/** Keeps every present input among the first `count` positions. */
function presentInputs(site: OperatorSite, count: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < Math.min(count, site.inputTypes.length); i++) if (site.inputTypes[i]) kept.push(i);
  return kept;
}

function convLike(site: OperatorSite, opts: Conv2DOptions | DepthwiseConv2DOptions) {
  const input = inputType(site, 0, 'input');
  const weight = inputType(site, 1, 'weight');
  const strides = positive(site, 'strides', [opts.strideH, opts.strideW]);
  const dilation = positive(site, 'dilation', [opts.dilationH, opts.dilationW]);
  const padding = resolvePadding(paddingMode(site, opts.padding), {
    input: spatial(site, input, 'input'),
    filter: spatial(site, weight, 'weight'),
    strides,
    dilation,
  });
  return { input, weight, strides, dilation, padding, activation: activation(site, opts.fusedActivation) };
}

const conv2d: Converter = (site) => {
  const c = convLike(site, requiredOptions(site, BuiltinOptionsType.Conv2DOptions, Conv2DOptions));
  return {
    op: 'conv2d',
    attrs: { strides: c.strides, dilation: c.dilation, padding: c.padding, activation: c.activation },
    argPositions: presentInputs(site, 3),
  };
};

const depthwiseConv2d: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.DepthwiseConv2DOptions, DepthwiseConv2DOptions);
  const c = convLike(site, opts);
  // Recent TFLite kernels ignore the stored depth_multiplier (converters may leave it 0)
  // and derive it from the channel counts; so do we.
  const inChannels = c.input.shape[3];
  const outChannels = c.weight.shape[3];
  if (inChannels <= 0 || outChannels % inChannels !== 0) {
    throw new TypeInferenceError(
      `DEPTHWISE_CONV_2D weight channels ${outChannels} are not a multiple of input channels ${inChannels} (${where(site)})`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return {
    op: 'depthwise_conv2d',
    attrs: {
      strides: c.strides,
      dilation: c.dilation,
      padding: c.padding,
      activation: c.activation,
      depth_multiplier: outChannels / inChannels,
    },
    argPositions: presentInputs(site, 3),
  };
};

const dense: Converter = (site) => {
  const opts = options(site, BuiltinOptionsType.FullyConnectedOptions, FullyConnectedOptions);
  if (opts && opts.weightsFormat !== 0) {
    throw new UnsupportedOperatorError(
      `unsupported FULLY_CONNECTED weights_format ${opts.weightsFormat} (only DEFAULT) on ${where(site)}`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return {
    op: 'dense',
    attrs: { activation: activation(site, opts?.fusedActivation ?? 0), keep_num_dims: opts?.keepNumDims ?? false },
    argPositions: presentInputs(site, 3),
  };
};

const add: Converter = (site) => {
  inputType(site, 0, 'lhs');
  inputType(site, 1, 'rhs');
  const opts = options(site, BuiltinOptionsType.AddOptions, AddOptions);
  return { op: 'add', attrs: { activation: activation(site, opts?.fusedActivation ?? 0) }, argPositions: [0, 1] };
};

function pool(op: string): Converter {
  return (site) => {
    const opts = requiredOptions(site, BuiltinOptionsType.Pool2DOptions, Pool2DOptions);
    const poolSize = positive(site, 'pool size', [opts.filterHeight, opts.filterWidth]);
    const strides = positive(site, 'strides', [opts.strideH, opts.strideW]);
    const padding = resolvePadding(paddingMode(site, opts.padding), {
      input: spatial(site, inputType(site, 0, 'input'), 'input'),
      filter: poolSize,
      strides,
      dilation: [1, 1],
    });
    return {
      op,
      attrs: { pool_size: poolSize, strides, padding, activation: activation(site, opts.fusedActivation) },
      argPositions: [0],
    };
  };
}

// The optional second input of RESHAPE (the shape tensor) is dropped: the output type
// already carries the new shape.
const reshape: Converter = (site) => {
  inputType(site, 0, 'input');
  return { op: 'reshape', attrs: {}, argPositions: [0] };
};

const softmax: Converter = (site) => {
  inputType(site, 0, 'input');
  const opts = requiredOptions(site, BuiltinOptionsType.SoftmaxOptions, SoftmaxOptions);
  return { op: 'softmax', attrs: { beta: opts.beta }, argPositions: [0] };
};

const unary =
  (op: string): Converter =>
  (site) => {
    inputType(site, 0, 'input');
    return { op, attrs: {}, argPositions: [0] };
  };

// SVDF inputs: input, weights_feature, weights_time, bias (optional, -1), state. Without a
// bias the call has four args and `state` is the fourth.
const svdf: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.SVDFOptions, SVDFOptions);
  if (site.inputTypes.length !== 5 || !site.inputTypes[4]) formatError(site, 'SVDF needs 5 inputs with a state tensor');
  if (opts.rank < 1) formatError(site, `SVDF rank must be >= 1, got ${opts.rank}`);
  return {
    op: 'svdf',
    attrs: { rank: opts.rank, activation: activation(site, opts.fusedActivation) },
    argPositions: presentInputs(site, 5),
  };
};

const CONVERTERS: ReadonlyMap<number, Converter> = new Map<number, Converter>([
  [BuiltinOperatorCode.CONV_2D, conv2d],
  [BuiltinOperatorCode.DEPTHWISE_CONV_2D, depthwiseConv2d],
  [BuiltinOperatorCode.FULLY_CONNECTED, dense],
  [BuiltinOperatorCode.ADD, add],
  [BuiltinOperatorCode.AVERAGE_POOL_2D, pool('avg_pool2d')],
  [BuiltinOperatorCode.MAX_POOL_2D, pool('max_pool2d')],
  [BuiltinOperatorCode.RESHAPE, reshape],
  [BuiltinOperatorCode.SOFTMAX, softmax],
  [BuiltinOperatorCode.QUANTIZE, unary('quantize')],
  [BuiltinOperatorCode.DEQUANTIZE, unary('dequantize')],
  [BuiltinOperatorCode.SVDF, svdf],
]);

export function isSupportedBuiltin(code: number): boolean {
  return CONVERTERS.has(code);
}

/** Converts one operator; the caller has checked `isSupportedBuiltin`. */
export function convertOperator(builtin: number, site: OperatorSite): ConvertedOperator {
  const converter = CONVERTERS.get(builtin);
  if (!converter) throw new Error(`no converter for builtin ${builtin}`);
  return converter(site);
}

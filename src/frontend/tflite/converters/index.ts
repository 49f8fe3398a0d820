/**
 * The converter of every supported TFLite builtin, one file an operator: each reads the
 * operator's options and yields the canonical graph-IR op (`src/ir/graph/ops.ts`), its
 * attributes and which TFLite inputs become call arguments.
 */
import { BuiltinOperatorCode } from '../builtinOperators';
import { add } from './add';
import { addN } from './addN';
import { argMinMax } from './argMinMax';
import { batchMatmul } from './batchMatmul';
import { ConvertedOperator, Converter, OperatorSite, requireInputCount } from './common';
import { MAX_INPUT_SLOTS } from './inputSlots';
import { conv2d } from './conv2d';
import { dense } from './dense';
import { depthwiseConv2d } from './depthwiseConv2d';
import { gather } from './gather';
import { l2Normalization } from './l2Normalization';
import { logSoftmax } from './logSoftmax';
import { batchToSpaceNd, broadcastTo, depthToSpace, spaceToBatchNd, spaceToDepth } from './layout';
import { pool } from './pool';
import { dequantize, quantize } from './quantize';
import { reduce } from './reduce';
import { reshape } from './reshape';
import { resizeBilinear, resizeNearestNeighbor } from './resize';
import { softmax } from './softmax';
import { svdf } from './svdf';
import { concatenation } from './concatenation';
import { mirrorPad } from './mirrorPad';
import { pack } from './pack';
import { pad } from './pad';
import { slice } from './slice';
import { split, splitV, unpack } from './split';
import { expandDims, squeeze } from './squeeze';
import { stridedSlice } from './stridedSlice';
import { transpose } from './transpose';
import { arithmetic, binary, leakyRelu, unary } from './elementwise';
import { BuiltinOptionsType } from '../schema';
import { RESOURCE_VARIABLE_BUILTINS } from '../resourceVariables';
import { CONTROL_FLOW_BUILTINS } from '../controlFlow';
import { transposeConv } from './transposeConv';
import { unidirectionalSequenceLstm } from './unidirectionalSequenceLstm';
import { reverseV2 } from './reverseV2';
import { zerosLike } from './zerosLike';
import { fill } from './fill';
import { shape } from './shape';
import { SIGNAL_CONVERTERS } from './signal';
import { CIRCULAR_BUFFER_CODE, circularBuffer } from './circularBuffer';
import { BASIC_CLASSIFIER_CODE, basicClassifier } from './basicClassifier';
import { dynamicUpdateSlice } from './dynamicUpdateSlice';
import { broadcastArgs } from './broadcastArgs';
import { gatherNd } from './gatherNd';
import { embeddingLookup } from './embeddingLookup';
import { l2Pool2d } from './l2Pool';
import { cumsum } from './cumsum';
import { comparison } from './comparison';
import { logical } from './logical';
import { selectV2 } from './select';
import { DETECTION_POSTPROCESS_CODE, detectionPostprocess } from './detectionPostprocess';

export type { ConvertedOperator, Converter, OperatorSite } from './common';

const CONVERTERS: ReadonlyMap<number, Converter> = new Map<number, Converter>([
  [BuiltinOperatorCode.CONV_2D, conv2d],
  [BuiltinOperatorCode.DEPTHWISE_CONV_2D, depthwiseConv2d],
  [BuiltinOperatorCode.FULLY_CONNECTED, dense],
  [BuiltinOperatorCode.ADD, add],
  [BuiltinOperatorCode.AVERAGE_POOL_2D, pool('avg_pool2d')],
  [BuiltinOperatorCode.MAX_POOL_2D, pool('max_pool2d')],
  [BuiltinOperatorCode.RESHAPE, reshape],
  [BuiltinOperatorCode.SOFTMAX, softmax],
  [BuiltinOperatorCode.QUANTIZE, quantize],
  [BuiltinOperatorCode.DEQUANTIZE, dequantize],
  [BuiltinOperatorCode.SVDF, svdf],
  [BuiltinOperatorCode.PAD, pad],
  [BuiltinOperatorCode.PADV2, pad],
  [BuiltinOperatorCode.MIRROR_PAD, mirrorPad],
  [BuiltinOperatorCode.TRANSPOSE, transpose],
  [BuiltinOperatorCode.CONCATENATION, concatenation],
  [BuiltinOperatorCode.PACK, pack],
  [BuiltinOperatorCode.SQUEEZE, squeeze],
  [BuiltinOperatorCode.EXPAND_DIMS, expandDims],
  [BuiltinOperatorCode.STRIDED_SLICE, stridedSlice],
  [BuiltinOperatorCode.SLICE, slice],
  [BuiltinOperatorCode.SPLIT, split],
  [BuiltinOperatorCode.SPLIT_V, splitV],
  [BuiltinOperatorCode.UNPACK, unpack],
  [BuiltinOperatorCode.SUB, arithmetic('sub', BuiltinOptionsType.SubOptions)],
  [BuiltinOperatorCode.MUL, arithmetic('mul', BuiltinOptionsType.MulOptions)],
  [BuiltinOperatorCode.DIV, arithmetic('div', BuiltinOptionsType.DivOptions)],
  [BuiltinOperatorCode.MAXIMUM, binary('maximum')],
  [BuiltinOperatorCode.MINIMUM, binary('minimum')],
  [BuiltinOperatorCode.SQUARED_DIFFERENCE, binary('squared_difference')],
  [BuiltinOperatorCode.PRELU, binary('prelu')],
  [BuiltinOperatorCode.RELU, unary('relu')],
  [BuiltinOperatorCode.RELU6, unary('relu6')],
  [BuiltinOperatorCode.RELU_N1_TO_1, unary('relu_n1_to_1')],
  [BuiltinOperatorCode.LEAKY_RELU, leakyRelu],
  [BuiltinOperatorCode.HARD_SWISH, unary('hard_swish')],
  [BuiltinOperatorCode.LOGISTIC, unary('logistic')],
  [BuiltinOperatorCode.TANH, unary('tanh')],
  [BuiltinOperatorCode.ELU, unary('elu')],
  [BuiltinOperatorCode.ABS, unary('abs')],
  [BuiltinOperatorCode.NEG, unary('neg')],
  [BuiltinOperatorCode.SQRT, unary('sqrt')],
  [BuiltinOperatorCode.RSQRT, unary('rsqrt')],
  [BuiltinOperatorCode.EXP, unary('exp')],
  [BuiltinOperatorCode.LOG, unary('log')],
  [BuiltinOperatorCode.CAST, unary('cast')],
  [BuiltinOperatorCode.MEAN, reduce('mean')],
  [BuiltinOperatorCode.SUM, reduce('sum')],
  [BuiltinOperatorCode.REDUCE_MAX, reduce('reduce_max')],
  [BuiltinOperatorCode.REDUCE_MIN, reduce('reduce_min')],
  [BuiltinOperatorCode.REDUCE_ALL, reduce('reduce_all')],
  [BuiltinOperatorCode.REDUCE_ANY, reduce('reduce_any')],
  [BuiltinOperatorCode.ARG_MAX, argMinMax('arg_max')],
  [BuiltinOperatorCode.ARG_MIN, argMinMax('arg_min')],
  [BuiltinOperatorCode.TRANSPOSE_CONV, transposeConv],
  [BuiltinOperatorCode.BATCH_MATMUL, batchMatmul],
  [BuiltinOperatorCode.DEPTH_TO_SPACE, depthToSpace],
  [BuiltinOperatorCode.SPACE_TO_DEPTH, spaceToDepth],
  [BuiltinOperatorCode.BATCH_TO_SPACE_ND, batchToSpaceNd],
  [BuiltinOperatorCode.SPACE_TO_BATCH_ND, spaceToBatchNd],
  [BuiltinOperatorCode.BROADCAST_TO, broadcastTo],
  [BuiltinOperatorCode.GATHER, gather],
  [BuiltinOperatorCode.RESIZE_NEAREST_NEIGHBOR, resizeNearestNeighbor],
  [BuiltinOperatorCode.RESIZE_BILINEAR, resizeBilinear],
  [BuiltinOperatorCode.L2_NORMALIZATION, l2Normalization],
  [BuiltinOperatorCode.LOG_SOFTMAX, logSoftmax],
  [BuiltinOperatorCode.UNIDIRECTIONAL_SEQUENCE_LSTM, unidirectionalSequenceLstm],
  [BuiltinOperatorCode.FLOOR, unary('floor')],
  [BuiltinOperatorCode.CEIL, unary('ceil')],
  [BuiltinOperatorCode.ROUND, unary('round')],
  [BuiltinOperatorCode.SIN, unary('sin')],
  [BuiltinOperatorCode.COS, unary('cos')],
  [BuiltinOperatorCode.SQUARE, unary('square')],
  [BuiltinOperatorCode.FLOOR_DIV, binary('floor_div')],
  [BuiltinOperatorCode.FLOOR_MOD, binary('floor_mod')],
  [BuiltinOperatorCode.ADD_N, addN],
  [BuiltinOperatorCode.REVERSE_V2, reverseV2],
  [BuiltinOperatorCode.ZEROS_LIKE, zerosLike],
  [BuiltinOperatorCode.FILL, fill],
  [BuiltinOperatorCode.SHAPE, shape],
  [BuiltinOperatorCode.DYNAMIC_UPDATE_SLICE, dynamicUpdateSlice],
  [BuiltinOperatorCode.GATHER_ND, gatherNd],
  [BuiltinOperatorCode.EMBEDDING_LOOKUP, embeddingLookup],
  [BuiltinOperatorCode.L2_POOL_2D, l2Pool2d],
  [BuiltinOperatorCode.CUMSUM, cumsum],
  [BuiltinOperatorCode.EQUAL, comparison('equal')],
  [BuiltinOperatorCode.NOT_EQUAL, comparison('not_equal')],
  [BuiltinOperatorCode.LESS, comparison('less')],
  [BuiltinOperatorCode.LESS_EQUAL, comparison('less_equal')],
  [BuiltinOperatorCode.GREATER, comparison('greater')],
  [BuiltinOperatorCode.GREATER_EQUAL, comparison('greater_equal')],
  [BuiltinOperatorCode.LOGICAL_AND, logical('logical_and')],
  [BuiltinOperatorCode.LOGICAL_OR, logical('logical_or')],
  [BuiltinOperatorCode.LOGICAL_NOT, logical('logical_not')],
  [BuiltinOperatorCode.SELECT_V2, selectV2],
  [BuiltinOperatorCode.BROADCAST_ARGS, broadcastArgs],
]);

/** Builtins taking any number of inputs: the others' counts are in MAX_INPUT_SLOTS. */
export const VARIADIC_BUILTINS: ReadonlySet<number> = new Set([BuiltinOperatorCode.CONCATENATION, BuiltinOperatorCode.PACK, BuiltinOperatorCode.ADD_N]);

/** Converted builtins (for checks over all of them). */
export function convertedBuiltins(): number[] {
  return [...CONVERTERS.keys()];
}

export function isSupportedBuiltin(code: number): boolean {
  // The resource-variable builtins have no converter: the importer handles them itself.
  return CONVERTERS.has(code) || RESOURCE_VARIABLE_BUILTINS.has(code) || CONTROL_FLOW_BUILTINS.has(code);
}

/** Converts one operator; the caller has checked `isSupportedBuiltin`. */
export function convertOperator(builtin: number, site: OperatorSite): ConvertedOperator {
  const converter = CONVERTERS.get(builtin);
  if (!converter) throw new Error(`no converter for builtin ${builtin}`);
  const slots = MAX_INPUT_SLOTS.get(builtin);
  if (slots !== undefined) requireInputCount(site, slots);
  return converter(site);
}

/** Converters of custom operators (BuiltinOperator CUSTOM), by custom code. */
const CUSTOM_CONVERTERS: ReadonlyMap<string, Converter> = new Map<string, Converter>([
  [DETECTION_POSTPROCESS_CODE, detectionPostprocess],
  [CIRCULAR_BUFFER_CODE, circularBuffer],
  [BASIC_CLASSIFIER_CODE, basicClassifier],
  ...SIGNAL_CONVERTERS,
]);

/** Every supported custom code (docs/operators.md lists them). */
export function supportedCustomCodes(): string[] {
  return [...CUSTOM_CONVERTERS.keys()];
}

export function isSupportedCustom(customCode: string | null): boolean {
  return customCode !== null && CUSTOM_CONVERTERS.has(customCode);
}

/** Converts one custom operator; the caller has checked `isSupportedCustom`. */
export function convertCustomOperator(customCode: string, site: OperatorSite): ConvertedOperator {
  const converter = CUSTOM_CONVERTERS.get(customCode);
  if (!converter) throw new Error(`no converter for custom operator ${customCode}`);
  return converter(site);
}

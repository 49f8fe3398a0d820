/**
 * How many input slots each converted builtin may have, optional (-1) slots included: the
 * counts TFLite Micro's kernels accept in Prepare. A converter reads the inputs it knows by
 * position, so a slot past these was ignored: a fuzzed ADD with a third input compiled as if it
 * had two. Operators taking any number of inputs (CONCATENATION, PACK, ADD_N) are not listed.
 */
import { BuiltinOperatorCode as Op } from '../builtinOperators';

const ONE = [Op.ABS, Op.AVERAGE_POOL_2D, Op.CAST, Op.CEIL, Op.COS, Op.DEPTH_TO_SPACE, Op.DEQUANTIZE, Op.ELU, Op.EXP, Op.FLOOR, Op.HARD_SWISH,
  Op.L2_NORMALIZATION, Op.L2_POOL_2D, Op.LEAKY_RELU, Op.LOG, Op.LOGICAL_NOT, Op.LOGISTIC, Op.LOG_SOFTMAX, Op.MAX_POOL_2D, Op.NEG, Op.QUANTIZE,
  Op.RELU, Op.RELU6, Op.RELU_N1_TO_1, Op.ROUND, Op.RSQRT, Op.SHAPE, Op.SIN, Op.SOFTMAX, Op.SPACE_TO_DEPTH, Op.SQRT, Op.SQUARE, Op.SQUEEZE,
  Op.TANH, Op.UNPACK, Op.ZEROS_LIKE];
const TWO = [Op.ADD, Op.ARG_MAX, Op.ARG_MIN, Op.BATCH_MATMUL, Op.BROADCAST_ARGS, Op.BROADCAST_TO, Op.CUMSUM, Op.DIV, Op.EMBEDDING_LOOKUP,
  Op.EQUAL, Op.EXPAND_DIMS, Op.FILL, Op.FLOOR_DIV, Op.FLOOR_MOD, Op.GATHER, Op.GATHER_ND, Op.GREATER, Op.GREATER_EQUAL, Op.LESS, Op.LESS_EQUAL,
  Op.LOGICAL_AND, Op.LOGICAL_OR, Op.MAXIMUM, Op.MEAN, Op.MINIMUM, Op.MIRROR_PAD, Op.MUL, Op.NOT_EQUAL, Op.PRELU, Op.REDUCE_ALL, Op.REDUCE_ANY, Op.REDUCE_MAX, Op.REDUCE_MIN,
  Op.RESHAPE, Op.RESIZE_BILINEAR, Op.RESIZE_NEAREST_NEIGHBOR, Op.REVERSE_V2, Op.SPLIT, Op.SQUARED_DIFFERENCE, Op.SUB, Op.SUM, Op.TRANSPOSE];
// PAD shares PADV2's kernel in TFLite Micro, which reads an optional third (the pad value).
const THREE = [Op.BATCH_TO_SPACE_ND, Op.CONV_2D, Op.DEPTHWISE_CONV_2D, Op.DYNAMIC_UPDATE_SLICE, Op.FULLY_CONNECTED, Op.PAD, Op.PADV2, Op.SELECT_V2, Op.SLICE,
  Op.SPACE_TO_BATCH_ND, Op.SPLIT_V];
const FOUR = [Op.STRIDED_SLICE, Op.TRANSPOSE_CONV];

export const MAX_INPUT_SLOTS: ReadonlyMap<number, number> = new Map<number, number>([
  ...ONE.map((op): [number, number] => [op, 1]),
  ...TWO.map((op): [number, number] => [op, 2]),
  ...THREE.map((op): [number, number] => [op, 3]),
  ...FOUR.map((op): [number, number] => [op, 4]),
  [Op.SVDF, 5],
  [Op.UNIDIRECTIONAL_SEQUENCE_LSTM, 24],
]);

/** The default CPU (target `c`) strategy of every graph operator, by op name. */
import { OperatorStrategy } from '../strategy';
import { addStrategy } from './add';
import { detectionPostprocessStrategy } from './detectionPostprocess';
import { argMaxStrategy, argMinStrategy } from './argMinMax';
import { batchMatmulStrategy } from './batchMatmul';
import { batchToSpaceNdStrategy, spaceToBatchNdStrategy } from './batchToSpaceNd';
import { broadcastToStrategy } from './broadcastTo';
import { depthToSpaceStrategy, spaceToDepthStrategy } from './depthToSpace';
import { gatherStrategy } from './gather';
import { l2NormalizationStrategy } from './l2Normalization';
import { logSoftmaxStrategy } from './logSoftmax';
import { resizeBilinearStrategy } from './resizeBilinear';
import { resizeNearestNeighborStrategy } from './resizeNearestNeighbor';
import { conv2dStrategy } from './conv2d';
export { makeConv2dStrategy } from './conv2d';
export { makeDepthwiseConv2dStrategy } from './depthwiseConv2d';
export type { ConvStrategyOptions, PaddingMode } from './convCommon';
import { copyStrategy } from './copy';
import { denseStrategy } from './dense';
import { depthwiseConv2dStrategy } from './depthwiseConv2d';
import { avgPool2dStrategy, maxPool2dStrategy } from './pool';
import { meanStrategy } from './mean';
import { dequantizeStrategy, quantizeStrategy } from './quantize';
import { reduceAllStrategy, reduceAnyStrategy } from './reduceLogical';
import { reduceMaxStrategy, reduceMinStrategy } from './reduceMinMax';
import { reshapeStrategy } from './reshape';
import { softmaxStrategy } from './softmax';
import { sumStrategy } from './sum';
import { svdfStrategy } from './svdf';
import { concatenateStrategy } from './concatenate';
import { mirrorPadStrategy } from './mirrorPad';
import { padStrategy } from './pad';
import { stridedSliceStrategy } from './stridedSlice';
import { transposeStrategy } from './transpose';
import { castStrategy } from './cast';
import { divStrategy } from './div';
import { maximumStrategy, minimumStrategy } from './minmax';
import { mulStrategy } from './mul';
import { preluStrategy } from './prelu';
import { squaredDifferenceStrategy } from './squaredDifference';
import { subStrategy } from './sub';
import { UNARY_STRATEGIES } from './unary';
import { transposeConv2dStrategy } from './transposeConv2d';
import { unidirectionalSequenceLstmStrategy } from './unidirectionalSequenceLstm';
import { floorDivStrategy } from './floorDiv';
import { floorModStrategy } from './floorMod';
import { addNStrategy } from './addN';
import { reverseStrategy } from './reverse';
import { fillStrategy } from './fill';
import { shapeStrategy } from './shape';
import { zerosLikeStrategy } from './zerosLike';
import { gatherNdStrategy } from './gatherNd';
import { embeddingLookupStrategy } from './embeddingLookup';
import { l2Pool2dStrategy } from './l2Pool2d';
import { cumsumStrategy } from './cumsum';
import { comparisonStrategy } from './comparison';
import { logicalAndStrategy, logicalNotStrategy, logicalOrStrategy } from './logical';
import { selectStrategy } from './select';
import { assignVariableStrategy, readVariableStrategy } from './resourceVariable';
import { broadcastArgsStrategy } from './broadcastArgs';
import { SIGNAL_STRATEGIES } from './signal';
import { circularBufferStrategy } from './circularBuffer';
import { basicClassifierStrategy } from './basicClassifier';
import { dynamicUpdateSliceStrategy } from './dynamicUpdateSlice';

export const CPU_STRATEGIES: ReadonlyMap<string, OperatorStrategy> = new Map<string, OperatorStrategy>([
  ['conv2d', conv2dStrategy],
  ['depthwise_conv2d', depthwiseConv2dStrategy],
  ['dense', denseStrategy],
  ['add', addStrategy],
  ['avg_pool2d', avgPool2dStrategy],
  ['max_pool2d', maxPool2dStrategy],
  ['reshape', reshapeStrategy],
  ['copy', copyStrategy],
  ['softmax', softmaxStrategy],
  ['quantize', quantizeStrategy],
  ['dequantize', dequantizeStrategy],
  ['svdf', svdfStrategy],
  ['pad', padStrategy],
  ['mirror_pad', mirrorPadStrategy],
  ['transpose', transposeStrategy],
  ['concatenate', concatenateStrategy],
  ['pack', concatenateStrategy],
  ['strided_slice', stridedSliceStrategy],
  ['sub', subStrategy],
  ['mul', mulStrategy],
  ['div', divStrategy],
  ['maximum', maximumStrategy],
  ['minimum', minimumStrategy],
  ['squared_difference', squaredDifferenceStrategy],
  ['prelu', preluStrategy],
  ['cast', castStrategy],
  ...UNARY_STRATEGIES,
  ['mean', meanStrategy],
  ['sum', sumStrategy],
  ['reduce_max', reduceMaxStrategy],
  ['reduce_min', reduceMinStrategy],
  ['reduce_all', reduceAllStrategy],
  ['reduce_any', reduceAnyStrategy],
  ['arg_max', argMaxStrategy],
  ['arg_min', argMinStrategy],
  ['transpose_conv2d', transposeConv2dStrategy],
  ['batch_matmul', batchMatmulStrategy],
  ['depth_to_space', depthToSpaceStrategy],
  ['space_to_depth', spaceToDepthStrategy],
  ['batch_to_space_nd', batchToSpaceNdStrategy],
  ['space_to_batch_nd', spaceToBatchNdStrategy],
  ['broadcast_to', broadcastToStrategy],
  ['gather', gatherStrategy],
  ['resize_nearest_neighbor', resizeNearestNeighborStrategy],
  ['resize_bilinear', resizeBilinearStrategy],
  ['l2_normalization', l2NormalizationStrategy],
  ['log_softmax', logSoftmaxStrategy],
  ['unidirectional_sequence_lstm', unidirectionalSequenceLstmStrategy],
  ['floor_div', floorDivStrategy],
  ['floor_mod', floorModStrategy],
  ['add_n', addNStrategy],
  ['reverse', reverseStrategy],
  ['zeros_like', zerosLikeStrategy],
  ['fill', fillStrategy],
  ['shape', shapeStrategy],
  ['gather_nd', gatherNdStrategy],
  ['embedding_lookup', embeddingLookupStrategy],
  ['l2_pool2d', l2Pool2dStrategy],
  ['cumsum', cumsumStrategy],
  ['equal', comparisonStrategy('equal')],
  ['not_equal', comparisonStrategy('not_equal')],
  ['less', comparisonStrategy('less')],
  ['less_equal', comparisonStrategy('less_equal')],
  ['greater', comparisonStrategy('greater')],
  ['greater_equal', comparisonStrategy('greater_equal')],
  ['logical_and', logicalAndStrategy],
  ['logical_or', logicalOrStrategy],
  ['logical_not', logicalNotStrategy],
  ['select', selectStrategy],
  ['detection_postprocess', detectionPostprocessStrategy],
  ['circular_buffer', circularBufferStrategy],
  ['basic_classifier', basicClassifierStrategy],
  ['dynamic_update_slice', dynamicUpdateSliceStrategy],
  ['read_variable', readVariableStrategy],
  ['assign_variable', assignVariableStrategy],
  ['broadcast_args', broadcastArgsStrategy],
  ...SIGNAL_STRATEGIES,
]);

export { EXTERN_KERNELS, SOFTMAX_INT8 } from './externKernels';
export { LOWERING_EXTERN_SIMULATIONS } from './externSim';
export type { ExternKernel } from './externKernels';

/** The reference kernel of every graph operator the interpreter runs. */
import { detectionPostprocess } from './detectionPostprocess';
import { Kernel } from '../kernel';
import { add } from './add';
import { argMax, argMin } from './argMinMax';
import { batchMatmul } from './batchMatmul';
import { batchToSpaceNd } from './batchToSpaceNd';
import { broadcastTo } from './broadcastTo';
import { depthToSpace } from './depthToSpace';
import { gather } from './gather';
import { l2Normalization } from './l2Normalization';
import { logSoftmax } from './logSoftmax';
import { resizeBilinear } from './resizeBilinear';
import { resizeNearestNeighbor } from './resizeNearestNeighbor';
import { spaceToBatchNd } from './spaceToBatchNd';
import { spaceToDepth } from './spaceToDepth';
import { conv2d } from './conv2d';
import { copy } from './copy';
import { dense } from './dense';
import { depthwiseConv2d } from './depthwise-conv2d';
import { dequantize } from './dequantize';
import { avgPool2d, maxPool2d } from './pool2d';
import { mean } from './mean';
import { quantize } from './quantize';
import { reduceAll, reduceAny } from './reduceLogical';
import { reduceMax, reduceMin } from './reduceMinMax';
import { reshape } from './reshape';
import { softmax } from './softmax';
import { sum } from './sum';
import { svdf } from './svdf';
import { concatenate, pack } from './concatenate';
import { mirrorPad } from './mirror-pad';
import { pad } from './pad';
import { stridedSlice } from './strided-slice';
import { transpose } from './transpose';
import { cast } from './cast';
import { div } from './div';
import { maximum, minimum } from './minmax';
import { mul } from './mul';
import { prelu } from './prelu';
import { squaredDifference } from './squaredDifference';
import { sub } from './sub';
import { UNARY_KERNELS } from './unary';
import { transposeConv2d } from './transposeConv2d';
import { unidirectionalSequenceLstm } from './unidirectionalSequenceLstm';
import { floorDiv } from './floorDiv';
import { floorMod } from './floorMod';
import { addN } from './addN';
import { reverse } from './reverse';
import { zerosLike } from './zerosLike';
import { fill } from './fill';
import { shape } from './shape';
import { gatherNd } from './gatherNd';
import { embeddingLookup } from './embeddingLookup';
import { l2Pool2d } from './l2Pool2d';
import { cumsum } from './cumsum';
import { comparison } from './comparison';
import { logicalAnd, logicalNot, logicalOr } from './logical';
import { select } from './select';
import { readVariable, assignVariable } from './resourceVariable';
import { broadcastArgs } from './broadcastArgs';
import { SIGNAL_KERNELS } from './signal';
import { circularBuffer } from './circularBuffer';
import { basicClassifier } from './basicClassifier';
import { dynamicUpdateSlice } from './dynamicUpdateSlice';

export const KERNELS: ReadonlyMap<string, Kernel> = new Map<string, Kernel>([
  ['conv2d', conv2d],
  ['depthwise_conv2d', depthwiseConv2d],
  ['dense', dense],
  ['add', add],
  ['avg_pool2d', avgPool2d],
  ['max_pool2d', maxPool2d],
  ['reshape', reshape],
  ['copy', copy],
  ['softmax', softmax],
  ['quantize', quantize],
  ['dequantize', dequantize],
  ['svdf', svdf],
  ['pad', pad],
  ['mirror_pad', mirrorPad],
  ['transpose', transpose],
  ['concatenate', concatenate],
  ['pack', pack],
  ['strided_slice', stridedSlice],
  ['sub', sub],
  ['mul', mul],
  ['div', div],
  ['maximum', maximum],
  ['minimum', minimum],
  ['squared_difference', squaredDifference],
  ['prelu', prelu],
  ['cast', cast],
  ...UNARY_KERNELS,
  ['mean', mean],
  ['sum', sum],
  ['reduce_max', reduceMax],
  ['reduce_min', reduceMin],
  ['reduce_all', reduceAll],
  ['reduce_any', reduceAny],
  ['arg_max', argMax],
  ['arg_min', argMin],
  ['transpose_conv2d', transposeConv2d],
  ['batch_matmul', batchMatmul],
  ['depth_to_space', depthToSpace],
  ['space_to_depth', spaceToDepth],
  ['batch_to_space_nd', batchToSpaceNd],
  ['space_to_batch_nd', spaceToBatchNd],
  ['broadcast_to', broadcastTo],
  ['gather', gather],
  ['resize_nearest_neighbor', resizeNearestNeighbor],
  ['resize_bilinear', resizeBilinear],
  ['l2_normalization', l2Normalization],
  ['log_softmax', logSoftmax],
  ['unidirectional_sequence_lstm', unidirectionalSequenceLstm],
  ['floor_div', floorDiv],
  ['floor_mod', floorMod],
  ['add_n', addN],
  ['reverse', reverse],
  ['zeros_like', zerosLike],
  ['fill', fill],
  ['shape', shape],
  ['gather_nd', gatherNd],
  ['embedding_lookup', embeddingLookup],
  ['l2_pool2d', l2Pool2d],
  ['cumsum', cumsum],
  ['equal', comparison('equal')],
  ['not_equal', comparison('not_equal')],
  ['less', comparison('less')],
  ['less_equal', comparison('less_equal')],
  ['greater', comparison('greater')],
  ['greater_equal', comparison('greater_equal')],
  ['logical_and', logicalAnd],
  ['logical_or', logicalOr],
  ['logical_not', logicalNot],
  ['select', select],
  ['detection_postprocess', detectionPostprocess],
  ['circular_buffer', circularBuffer],
  ['basic_classifier', basicClassifier],
  ['dynamic_update_slice', dynamicUpdateSlice],
  ['read_variable', readVariable],
  ['assign_variable', assignVariable],
  ['broadcast_args', broadcastArgs],
  ...SIGNAL_KERNELS,
]);

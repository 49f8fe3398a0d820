/** The default CPU (target `c`) strategy of every graph operator, by op name. */
import { OperatorStrategy } from '../strategy';
import { addStrategy } from './add';
import { conv2dStrategy } from './conv2d';
export { makeConv2dStrategy } from './conv2d';
export { makeDepthwiseConv2dStrategy } from './depthwiseConv2d';
export type { ConvStrategyOptions, PaddingMode } from './convCommon';
import { copyStrategy } from './copy';
import { denseStrategy } from './dense';
import { depthwiseConv2dStrategy } from './depthwiseConv2d';
import { avgPool2dStrategy, maxPool2dStrategy } from './pool';
import { dequantizeStrategy, quantizeStrategy } from './quantize';
import { reshapeStrategy } from './reshape';
import { softmaxStrategy } from './softmax';
import { svdfStrategy } from './svdf';

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
]);

export { EXTERN_KERNELS, SOFTMAX_INT8 } from './externKernels';
export { LOWERING_EXTERN_SIMULATIONS } from './externSim';
export type { ExternKernel } from './externKernels';

/** The reference kernel of every graph operator the interpreter runs. */
import { Kernel } from '../kernel';
import { add } from './add';
import { conv2d } from './conv2d';
import { copy } from './copy';
import { dense } from './dense';
import { depthwiseConv2d } from './depthwise-conv2d';
import { dequantize } from './dequantize';
import { avgPool2d, maxPool2d } from './pool2d';
import { quantize } from './quantize';
import { reshape } from './reshape';
import { softmax } from './softmax';
import { svdf } from './svdf';
import { unidirectionalSequenceLstm } from './unidirectionalSequenceLstm';

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
  ['unidirectional_sequence_lstm', unidirectionalSequenceLstm],
]);

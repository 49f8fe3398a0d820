/**
 * The converter of every supported TFLite builtin, one file an operator: each reads the
 * operator's options and yields the canonical graph-IR op (`src/ir/graph/ops.ts`), its
 * attributes and which TFLite inputs become call arguments.
 */
import { BuiltinOperatorCode } from '../builtinOperators';
import { add } from './add';
import { ConvertedOperator, Converter, OperatorSite, unaryConverter } from './common';
import { conv2d } from './conv2d';
import { dense } from './dense';
import { depthwiseConv2d } from './depthwiseConv2d';
import { pool } from './pool';
import { reshape } from './reshape';
import { softmax } from './softmax';
import { svdf } from './svdf';
import { unidirectionalSequenceLstm } from './unidirectionalSequenceLstm';

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
  [BuiltinOperatorCode.QUANTIZE, unaryConverter('quantize')],
  [BuiltinOperatorCode.DEQUANTIZE, unaryConverter('dequantize')],
  [BuiltinOperatorCode.SVDF, svdf],
  [BuiltinOperatorCode.UNIDIRECTIONAL_SEQUENCE_LSTM, unidirectionalSequenceLstm],
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

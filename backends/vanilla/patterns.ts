/**
 * What the vanilla accelerator runs: int8 conv2d and dense whose weights (and bias, when
 * present) are constants, as TVM's template `conv2d_pattern` (conv2d, optional bias_add;
 * our conv2d/dense carry bias as an optional third argument and fuse the activation).
 */
import { DFPattern, isConstant, isOp, optionalArg, wildcard } from '../../src';

export function conv2dPattern(): DFPattern {
  return isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant())).hasDtype('int8');
}

export function densePattern(): DFPattern {
  return isOp('dense')(wildcard(), isConstant(), optionalArg(isConstant())).hasDtype('int8');
}

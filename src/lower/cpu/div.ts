/** Broadcasting float32 div clamped to the fused activation, as the interpreter's. */
import { binary } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { floatOutputStage } from './convCommon';
import { elementwiseNest, requireDtypes } from './elementwise';

export const divStrategy: OperatorStrategy = (input) => {
  requireDtypes(input, ['float32'], 'div');
  const finish = floatOutputStage(activationAttr(input.call));
  return elementwiseNest(input, ([a, b]) => finish(binary('Div', a, b)));
};

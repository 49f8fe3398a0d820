/**
 * Broadcasting add: float32 clamp(a + b), int32 clamp(a + b), int8/int16 TFLite's general
 * rescaling (`addSubQuantizedNest`), exactly as the interpreter's add.
 */
import { add } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { floatOutputStage } from './convCommon';
import { addSubQuantizedNest, elementwiseNest, int32ActivationStage, requireDtypes } from './elementwise';

export const addStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'add');
  if (dtype === 'float32') {
    const finish = floatOutputStage(activationAttr(input.call));
    return elementwiseNest(input, ([a, b]) => finish(add(a, b)));
  }
  if (dtype === 'int32') {
    const finish = int32ActivationStage(activationAttr(input.call));
    return elementwiseNest(input, ([a, b]) => finish(add(a, b)));
  }
  return addSubQuantizedNest(input, 1);
};

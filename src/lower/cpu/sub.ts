/** Broadcasting sub, exactly as the interpreter's: float32 clamp(a - b), int32 clamp(a - b), int8/int16 TFLite's general rescaling. */
import { sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { activationAttr } from './attrs';
import { floatOutputStage } from './convCommon';
import { addSubQuantizedNest, elementwiseNest, int32ActivationStage, requireDtypes } from './elementwise';

export const subStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'sub');
  const activation = activationAttr(input.call);
  if (dtype === 'float32') {
    const finish = floatOutputStage(activation);
    return elementwiseNest(input, ([a, b]) => finish(sub(a, b)));
  }
  if (dtype === 'int32') {
    const finish = int32ActivationStage(activation);
    return elementwiseNest(input, ([a, b]) => finish(sub(a, b)));
  }
  return addSubQuantizedNest(input, -1);
};

/** Broadcasting sub, exactly as the interpreter's: float32 clamp(a - b), int32 clamp(a - b), int8/int16 TFLite's general rescaling. */
import { sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { addSubQuantizedNest, requireDtypes, unquantizedBinaryNest } from './elementwise';

export const subStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'sub');
  return unquantizedBinaryNest(input, dtype, sub) ?? addSubQuantizedNest(input, -1);
};

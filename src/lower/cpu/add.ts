/**
 * Broadcasting add: float32 clamp(a + b), int32 clamp(a + b), int8/int16 TFLite's general
 * rescaling (`addSubQuantizedNest`), exactly as the interpreter's add.
 */
import { add } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { addSubQuantizedNest, requireDtypes, unquantizedBinaryNest } from './elementwise';

export const addStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'add');
  return unquantizedBinaryNest(input, dtype, add) ?? addSubQuantizedNest(input, 1);
};

/**
 * Broadcasting add: float32 clamp(a + b), int32 clamp(a + b) wrapping, int8/int16 TFLite's general
 * rescaling (`addSubQuantizedNest`), exactly as the interpreter's add.
 */
import { add } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { addSubQuantizedNest, requireDtypes, unquantizedBinaryNest } from './elementwise';
import { wrapI32 } from './tirHelpers';

export const addStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'add');
  // int32 wraps as TFLite's int32 add does in practice (a C signed overflow is undefined).
  return unquantizedBinaryNest(input, dtype, dtype === 'int32' ? wrapI32(add) : add) ?? addSubQuantizedNest(input, 1);
};

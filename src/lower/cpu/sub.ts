/** Broadcasting sub, exactly as the interpreter's: float32 clamp(a - b), int32 clamp(a - b) wrapping, int8/int16 TFLite's general rescaling. */
import { sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { addSubQuantizedNest, requireDtypes, unquantizedBinaryNest } from './elementwise';
import { wrapI32 } from './tirHelpers';

export const subStrategy: OperatorStrategy = (input) => {
  const dtype = requireDtypes(input, ['float32', 'int32', 'int8', 'int16'], 'sub');
  // int32 wraps as TFLite's int32 sub does in practice (a C signed overflow is undefined).
  return unquantizedBinaryNest(input, dtype, dtype === 'int32' ? wrapI32(sub) : sub) ?? addSubQuantizedNest(input, -1);
};

/** signal_flag: out = packed[index] != 0 (one store). */
import { bufferLoad, bufferStore, cast, intImm } from '../../../ir/tir/builder';
import { OperatorStrategy } from '../../strategy';
import { reshapedView } from '../tirHelpers';
import { intAttr } from './common';

export const signalFlagStrategy: OperatorStrategy = (input) =>
  bufferStore(reshapedView(input.out, [1]), cast('bool', bufferLoad(input.args[0], [intImm(intAttr(input, 'index'))])), [intImm(0)]);

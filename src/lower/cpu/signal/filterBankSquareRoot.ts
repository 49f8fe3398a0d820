/** signal_filter_bank_square_root → uma_ref_signal_filter_bank_sqrt(input, scale_bits, out, size). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_FILTER_BANK_SQRT } from '../externKernels';
import { elementsOf, kernelCall } from './common';

export const signalFilterBankSquareRootStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_FILTER_BANK_SQRT, [input.args[0].data, input.args[1].data, input.out.data, elementsOf(input, 0)]);

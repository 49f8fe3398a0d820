/** signal_filter_bank_log → uma_ref_signal_filter_bank_log(input, out, size, output_scale, input_correction_bits). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_FILTER_BANK_LOG } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';

export const signalFilterBankLogStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_FILTER_BANK_LOG, [input.args[0].data, input.out.data, elementsOf(input, 0), intAttr(input, 'output_scale'), intAttr(input, 'input_correction_bits')]);

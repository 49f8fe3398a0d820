/** signal_filter_bank → uma_ref_signal_filter_bank(input, 5 int16 tables, out, num_channels). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_FILTER_BANK } from '../externKernels';
import { intAttr, kernelCall } from './common';

export const signalFilterBankStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_FILTER_BANK, [...input.args.map((a) => a.data), input.out.data, intAttr(input, 'num_channels')]);

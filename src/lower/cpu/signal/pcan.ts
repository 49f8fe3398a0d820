/** signal_pcan → uma_ref_signal_pcan(input, noise_estimate, gain_lut, out, size, snr_shift). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_PCAN } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';

export const signalPcanStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_PCAN, [input.args[0].data, input.args[1].data, input.args[2].data, input.out.data, elementsOf(input, 0), intAttr(input, 'snr_shift')]);

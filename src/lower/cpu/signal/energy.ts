/** signal_energy → uma_ref_signal_energy(input, out, bins, start, end). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_ENERGY } from '../externKernels';
import { intAttr, kernelCall } from './common';

export const signalEnergyStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_ENERGY, [input.args[0].data, input.out.data, input.call.type.shape[0], intAttr(input, 'start_index'), intAttr(input, 'end_index')]);

/** signal_window → uma_ref_signal_window(input, weights, out, size, weight_size, shift). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_WINDOW } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';

export const signalWindowStrategy: OperatorStrategy = (input) =>
  kernelCall(SIGNAL_WINDOW, [input.args[0].data, input.args[1].data, input.out.data, elementsOf(input, 0), elementsOf(input, 1), intAttr(input, 'shift')]);

/** signal_stacker → uma_ref_signal_stacker(input, state, packed out, channels, left, right, step), the state in place. */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_STACKER } from '../externKernels';
import { intAttr, kernelCall } from './common';
import { withState } from './stateful';

export const signalStackerStrategy: OperatorStrategy = (input) =>
  withState(input, 1, (state) =>
    kernelCall(SIGNAL_STACKER, [input.args[0].data, state.data, input.out.data, ...['num_channels', 'stacker_left_context', 'stacker_right_context', 'stacker_step'].map((k) => intAttr(input, k))]),
  );

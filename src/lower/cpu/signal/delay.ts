/** signal_delay → uma_ref_signal_delay(input, state, out, rows, frame, delay_length), the state in place. */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_DELAY } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';
import { withState } from './stateful';

export const signalDelayStrategy: OperatorStrategy = (input) => {
  const shape = input.argTypes[0].shape;
  const frame = shape[shape.length - 1];
  const rows = frame === 0 ? 0 : elementsOf(input, 0) / frame;
  return withState(input, 1, (state) => kernelCall(SIGNAL_DELAY, [input.args[0].data, state.data, input.out.data, rows, frame, intAttr(input, 'delay_length')]));
};

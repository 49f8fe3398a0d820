/** signal_framer → uma_ref_signal_framer(input, state, packed out, rows, frames, frame_size, frame_step, capacity), the state in place. */
import { framerCapacity } from '../../../arith/signal';
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_FRAMER } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';
import { withState } from './stateful';

export const signalFramerStrategy: OperatorStrategy = (input) => {
  const size = intAttr(input, 'frame_size');
  const step = intAttr(input, 'frame_step');
  const shape = input.argTypes[0].shape;
  const last = shape[shape.length - 1];
  const rows = elementsOf(input, 0) / last;
  return withState(input, 1, (state) => kernelCall(SIGNAL_FRAMER, [input.args[0].data, state.data, input.out.data, rows, last / step, size, step, framerCapacity(size, step)]));
};

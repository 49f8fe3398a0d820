/** signal_overlap_add → uma_ref_signal_overlap_add_int16 / _float(input, state, out, rows, frames, frame_size, frame_step). */
import { OperatorStrategy } from '../../strategy';
import { loweringFail } from '../attrs';
import { SIGNAL_OVERLAP_ADD_FLOAT, SIGNAL_OVERLAP_ADD_INT16 } from '../externKernels';
import { elementsOf, intAttr, kernelCall } from './common';
import { withState } from './stateful';

export const signalOverlapAddStrategy: OperatorStrategy = (input) => {
  const dtype = input.argTypes[0].dtype;
  if (dtype !== 'int16' && dtype !== 'float32') loweringFail(input.call, `signal_overlap_add: dtype ${dtype}`);
  const [frames, size] = input.argTypes[0].shape.slice(-2);
  const rows = frames * size === 0 ? 0 : elementsOf(input, 0) / (frames * size);
  const kernel = dtype === 'int16' ? SIGNAL_OVERLAP_ADD_INT16 : SIGNAL_OVERLAP_ADD_FLOAT;
  return withState(input, 1, (state) => kernelCall(kernel, [input.args[0].data, state.data, input.out.data, rows, frames, size, intAttr(input, 'frame_step')]));
};

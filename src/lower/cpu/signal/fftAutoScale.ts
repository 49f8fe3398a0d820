/** signal_fft_auto_scale(_bits) → uma_ref_signal_fft_auto_scale(input, out, size) / ..._bits(input, bits, size). */
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_FFT_AUTO_SCALE, SIGNAL_FFT_AUTO_SCALE_BITS } from '../externKernels';
import { elementsOf, kernelCall } from './common';

export const signalFftAutoScaleStrategy: OperatorStrategy = (input) => kernelCall(SIGNAL_FFT_AUTO_SCALE, [input.args[0].data, input.out.data, elementsOf(input, 0)]);

export const signalFftAutoScaleBitsStrategy: OperatorStrategy = (input) => kernelCall(SIGNAL_FFT_AUTO_SCALE_BITS, [input.args[0].data, input.out.data, elementsOf(input, 0)]);

/**
 * signal_rfft (int16) → uma_ref_signal_rfft_int16 with what TFLite Micro's Init computes as
 * operator constants (`<tensor>_twiddles`: the complex FFT's and kiss_fftr's twiddles,
 * `<tensor>_factors`) and its work area as planned scratch (`<tensor>_scratch`, 2 * fft_length int16).
 */
import { rfftLengthProblem, rfftTables } from '../../../arith/signal';
import { sanitizeName } from '../../names';
import { OperatorStrategy } from '../../strategy';
import { loweringFail } from '../attrs';
import { requireDType } from '../convCommon';
import { SIGNAL_RFFT_INT16 } from '../externKernels';
import { withConstTable, withInt16Table, withScratch } from '../tirHelpers';
import { elementsOf, intAttr, kernelCall } from './common';

export const signalRfftStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  requireDType(call, [input.argTypes[0], call.type], ['int16'], 'signal_rfft');
  const fftLength = intAttr(input, 'fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) loweringFail(call, `signal_rfft: ${problem}`);
  const shape = input.argTypes[0].shape;
  const inputLength = shape[shape.length - 1];
  const rows = inputLength === 0 ? 0 : elementsOf(input, 0) / inputLength;
  const tables = rfftTables(fftLength);
  const prefix = sanitizeName(call.name);
  return withInt16Table(`${prefix}_twiddles`, tables.twiddles, (twiddles) =>
    withConstTable(`${prefix}_factors`, 'int32', Array.from(tables.factors), (factors) =>
      withScratch(`${prefix}_scratch`, 'int16', [2 * fftLength], 'global', (scratch) =>
        kernelCall(SIGNAL_RFFT_INT16, [input.args[0].data, input.out.data, scratch.data, twiddles.data, factors.data, rows, inputLength, fftLength]),
      ),
    ),
  );
};

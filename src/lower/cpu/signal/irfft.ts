/**
 * signal_irfft (int16) → uma_ref_signal_irfft_int16 with the inverse transform's tables as
 * operator constants (`<tensor>_twiddles`, `<tensor>_factors`) and planned scratch
 * (`<tensor>_scratch`, fft_length int16: kiss_fftri's complex input).
 */
import { rfftLengthProblem, rfftTables } from '../../../arith/signal';
import { sanitizeName } from '../../names';
import { OperatorStrategy } from '../../strategy';
import { loweringFail } from '../attrs';
import { requireDType } from '../convCommon';
import { SIGNAL_IRFFT_INT16 } from '../externKernels';
import { withConstTable, withInt16Table, withScratch } from '../tirHelpers';
import { elementsOf, intAttr, kernelCall } from './common';

export const signalIrfftStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  requireDType(call, [input.argTypes[0], call.type], ['int16'], 'signal_irfft');
  const fftLength = intAttr(input, 'fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) loweringFail(call, `signal_irfft: ${problem}`);
  const rows = elementsOf(input, 0) / (fftLength + 2);
  const tables = rfftTables(fftLength, true);
  const prefix = sanitizeName(call.name);
  return withInt16Table(`${prefix}_twiddles`, tables.twiddles, (twiddles) =>
    withConstTable(`${prefix}_factors`, 'int32', Array.from(tables.factors), (factors) =>
      withScratch(`${prefix}_scratch`, 'int16', [fftLength], 'global', (scratch) =>
        kernelCall(SIGNAL_IRFFT_INT16, [input.args[0].data, input.out.data, scratch.data, twiddles.data, factors.data, rows, fftLength]),
      ),
    ),
  );
};

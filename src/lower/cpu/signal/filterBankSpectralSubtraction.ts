/**
 * signal_filter_bank_spectral_subtraction → uma_ref_signal_spectral_subtraction writing the
 * noise estimate in place into its `state` argument: the variable's persistent buffer (main's
 * `state_<n>`), so the estimate carries over to the next run. A plain constant state is copied
 * into operator scratch first and stays as it is. The new estimate is then copied after the
 * channels in the packed output.
 */
import { add, bufferLoad, bufferStore, seq } from '../../../ir/tir/builder';
import { Buffer } from '../../../ir/tir/nodes';
import { sanitizeName } from '../../names';
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_SPECTRAL_SUBTRACTION } from '../externKernels';
import { loopNest, reshapedView, withScratch } from '../tirHelpers';
import { intAttr, kernelCall } from './common';

export const signalFilterBankSpectralSubtractionStrategy: OperatorStrategy = (input) => {
  const n = intAttr(input, 'num_channels');
  const keys = ['smoothing', 'one_minus_smoothing', 'alternate_smoothing', 'alternate_one_minus_smoothing', 'min_signal_remaining', 'smoothing_bits', 'spectral_subtraction_bits'];
  const out = reshapedView(input.out, [2 * n]);
  const body = (state: Buffer) =>
    seq([
      kernelCall(SIGNAL_SPECTRAL_SUBTRACTION, [input.args[0].data, state.data, input.out.data, n, ...keys.map((k) => intAttr(input, k)), input.call.attrs.clamping === true ? 1 : 0]),
      loopNest(['i'], [n], ([i]) => bufferStore(out, bufferLoad(state, [i]), [add(i, n)])),
    ]);
  if (input.constants.get(1)?.variable === true) return body(reshapedView(input.args[1], [n]));
  return withScratch(`${sanitizeName(input.call.name)}_state`, 'uint32', [n], 'global', (state) =>
    seq([loopNest(['i'], [n], ([i]) => bufferStore(state, bufferLoad(reshapedView(input.args[1], [n]), [i]), [i])), body(state)]),
  );
};

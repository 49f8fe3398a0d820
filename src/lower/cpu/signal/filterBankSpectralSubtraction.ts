/**
 * signal_filter_bank_spectral_subtraction → uma_ref_signal_spectral_subtraction writing the
 * noise estimate in place into its `state` argument (stateful.ts: the variable's persistent
 * buffer, so the estimate carries over to the next run), then the new estimate copied after
 * the channels in the packed output.
 */
import { add, bufferLoad, bufferStore, seq } from '../../../ir/tir/builder';
import { OperatorStrategy } from '../../strategy';
import { SIGNAL_SPECTRAL_SUBTRACTION } from '../externKernels';
import { loopNest, reshapedView } from '../tirHelpers';
import { intAttr, kernelCall } from './common';
import { withState } from './stateful';

export const signalFilterBankSpectralSubtractionStrategy: OperatorStrategy = (input) => {
  const n = intAttr(input, 'num_channels');
  const keys = ['smoothing', 'one_minus_smoothing', 'alternate_smoothing', 'alternate_one_minus_smoothing', 'min_signal_remaining', 'smoothing_bits', 'spectral_subtraction_bits'];
  const out = reshapedView(input.out, [2 * n]);
  return withState(input, 1, (state) =>
    seq([
      kernelCall(SIGNAL_SPECTRAL_SUBTRACTION, [input.args[0].data, state.data, input.out.data, n, ...keys.map((k) => intAttr(input, k)), input.call.attrs.clamping === true ? 1 : 0]),
      loopNest(['i'], [n], ([i]) => bufferStore(out, bufferLoad(state, [i]), [add(i, n)])),
    ]),
  );
};

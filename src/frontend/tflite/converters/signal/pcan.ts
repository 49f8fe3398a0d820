/** SignalPCAN → signal_pcan: per-channel automatic gain control by the noise estimate (snr_shift). */
import { PCAN_GAIN_LUT_ENTRIES } from '../../../../arith/signal';
import { Converter, formatError, unsupportedParameter } from '../common';
import { input, output, requireCounts, requireShift, signalOptions } from './common';

export const SIGNAL_PCAN_CODE = 'SignalPCAN';

export const signalPcan: Converter = (site) => {
  requireCounts(site, 3, 1);
  const x = input(site, 0, 'uint32', 1, 'input');
  const noise = input(site, 1, 'uint32', 1, 'noise_estimate');
  const lut = input(site, 2, 'int16', 1, 'gain_lut');
  const out = output(site, 0, 'uint32', 1, 'output');
  if (x.shape[0] === 0 || noise.shape[0] !== x.shape[0] || out.shape[0] !== x.shape[0]) {
    formatError(site, `input, noise estimate and output of ${x.shape[0]}, ${noise.shape[0]}, ${out.shape[0]} channels (equal and non-zero, as TFLite Micro's Prepare requires)`);
  }
  if (lut.shape[0] < PCAN_GAIN_LUT_ENTRIES) unsupportedParameter(site, `gain_lut of ${lut.shape[0]} entries (the gain function reads up to ${PCAN_GAIN_LUT_ENTRIES})`);
  const snrShift = requireShift(site, 'snr_shift', signalOptions(site, ['snr_shift']).int('snr_shift'), 63);
  return { op: 'signal_pcan', attrs: { snr_shift: snrShift }, argPositions: [0, 1, 2] };
};

/**
 * SignalFilterBankSpectralSubtraction → signal_filter_bank_spectral_subtraction: stateful. The
 * noise estimate TFLite Micro keeps in a persistent buffer (reset to 0 at Prepare) is a
 * variable tensor of uint32 [num_channels] the importer adds (`state`), updated in place and
 * kept across invocations; the two outputs (noise-reduced channels, the new estimate) are
 * slices of one packed call.
 */
import { ConvertedOperator, Converter, formatError } from '../common';
import { sliceCall } from '../dataMovement';
import { input, output, requireCounts, requireShift, signalOptions } from './common';

export const SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_CODE = 'SignalFilterBankSpectralSubtraction';

const KEYS = [
  'alternate_one_minus_smoothing',
  'alternate_smoothing',
  'clamping',
  'min_signal_remaining',
  'num_channels',
  'one_minus_smoothing',
  'smoothing',
  'smoothing_bits',
  'spectral_subtraction_bits',
];

export const signalFilterBankSpectralSubtraction: Converter = (site) => {
  requireCounts(site, 1, 2);
  const x = input(site, 0, 'uint32', 1, 'input');
  const out = output(site, 0, 'uint32', 1, 'output');
  const noise = output(site, 1, 'uint32', 1, 'noise_estimate');
  const o = signalOptions(site, KEYS);
  const channels = o.int('num_channels');
  if (channels < 1 || x.shape[0] !== channels || out.shape[0] !== channels || noise.shape[0] !== channels) {
    formatError(site, `num_channels ${channels} with input, output and noise estimate of ${x.shape[0]}, ${out.shape[0]}, ${noise.shape[0]}`);
  }
  const attrs = {
    num_channels: channels,
    smoothing: o.int('smoothing'),
    one_minus_smoothing: o.int('one_minus_smoothing'),
    alternate_smoothing: o.int('alternate_smoothing'),
    alternate_one_minus_smoothing: o.int('alternate_one_minus_smoothing'),
    min_signal_remaining: o.int('min_signal_remaining'),
    smoothing_bits: requireShift(site, 'smoothing_bits', o.int('smoothing_bits'), 31),
    spectral_subtraction_bits: requireShift(site, 'spectral_subtraction_bits', o.int('spectral_subtraction_bits'), 63),
    clamping: o.bool('clamping'),
  };
  const piece = (begin: number): ConvertedOperator => sliceCall([begin], [1], [channels]);
  return {
    op: 'signal_filter_bank_spectral_subtraction',
    attrs,
    argPositions: [0],
    state: { type: { shape: [channels], dtype: 'uint32' }, suffix: 'noise_estimate_state' },
    packed: { type: { shape: [2 * channels], dtype: 'uint32' } },
    perOutput: [piece(0), piece(channels)],
  };
};

/**
 * SignalFilterBank → signal_filter_bank: per channel, the uint64 sums of the uint32 bins its
 * frequency start and width select times its int16 weights (and the next channel's unweights).
 * The start and width tables must be constants: TFLite Micro reads through them unchecked, so
 * every index is checked here.
 */
import { Converter, formatError, unsupportedParameter } from '../common';
import { constantInt16, input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_FILTER_BANK_CODE = 'SignalFilterBank';

export const signalFilterBank: Converter = (site) => {
  requireCounts(site, 6, 1);
  const x = input(site, 0, 'uint32', 1, 'input');
  const weights = input(site, 1, 'int16', 1, 'weights');
  const unweights = input(site, 2, 'int16', 1, 'unweights');
  const roles = ['channel_frequency_starts', 'channel_weight_starts', 'channel_widths'];
  roles.forEach((role, k) => input(site, 3 + k, 'int16', 1, role));
  const out = output(site, 0, 'uint64', 1, 'output');
  const channels = signalOptions(site, ['num_channels']).int('num_channels');
  if (channels < 1 || out.shape[0] !== channels) formatError(site, `num_channels ${channels} with an output of ${out.shape[0]} channels`);
  const [freqStarts, weightStarts, widths] = roles.map((role, k) => constantInt16(site, 3 + k, role));
  roles.forEach((role, k) => {
    const n = [freqStarts, weightStarts, widths][k].length;
    if (n < channels + 1) formatError(site, `${role} holds ${n} entries, num_channels + 1 = ${channels + 1} needed`);
  });
  for (let i = 0; i <= channels; i++) {
    const [f, w, width] = [freqStarts[i], weightStarts[i], widths[i]];
    if (width < 0 || f < 0 || w < 0 || f + width > x.shape[0] || w + width > Math.min(weights.shape[0], unweights.shape[0])) {
      unsupportedParameter(site, `channel ${i} (start ${f}, weight start ${w}, width ${width}) reads past the input of ${x.shape[0]} or the ${weights.shape[0]} weights`);
    }
  }
  return { op: 'signal_filter_bank', attrs: { num_channels: channels }, argPositions: [0, 1, 2, 3, 4, 5] };
};

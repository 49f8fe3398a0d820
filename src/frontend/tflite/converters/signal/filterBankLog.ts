/** SignalFilterBankLog → signal_filter_bank_log: int16 Log32(x << input_correction_bits, output_scale). */
import { Converter, formatError } from '../common';
import { input, output, requireCounts, requireShift, signalOptions } from './common';

export const SIGNAL_FILTER_BANK_LOG_CODE = 'SignalFilterBankLog';

export const signalFilterBankLog: Converter = (site) => {
  requireCounts(site, 1, 1);
  const x = input(site, 0, 'uint32', 1, 'input');
  const out = output(site, 0, 'int16', 1, 'output');
  if (out.shape[0] !== x.shape[0]) formatError(site, `output of ${out.shape[0]} channels, expected the input's ${x.shape[0]}`);
  const o = signalOptions(site, ['input_correction_bits', 'output_scale']);
  const attrs = { output_scale: o.int('output_scale'), input_correction_bits: requireShift(site, 'input_correction_bits', o.int('input_correction_bits'), 31) };
  return { op: 'signal_filter_bank_log', attrs, argPositions: [0] };
};

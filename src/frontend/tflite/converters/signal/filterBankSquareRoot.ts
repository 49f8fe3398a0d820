/** SignalFilterBankSquareRoot → signal_filter_bank_square_root: uint32 Sqrt64(x) >> scale_bits. No options. */
import { Converter, formatError } from '../common';
import { input, output, requireCounts } from './common';

export const SIGNAL_FILTER_BANK_SQUARE_ROOT_CODE = 'SignalFilterBankSquareRoot';

export const signalFilterBankSquareRoot: Converter = (site) => {
  requireCounts(site, 2, 1);
  const x = input(site, 0, 'uint64', 1, 'input');
  input(site, 1, 'int32', 0, 'scale_bits');
  const out = output(site, 0, 'uint32', 1, 'output');
  if (out.shape[0] !== x.shape[0]) formatError(site, `output of ${out.shape[0]} channels, expected the input's ${x.shape[0]}`);
  return { op: 'signal_filter_bank_square_root', attrs: {}, argPositions: [0, 1] };
};

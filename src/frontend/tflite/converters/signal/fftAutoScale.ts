/**
 * SignalFftAutoScale → signal_fft_auto_scale (the scaled samples) and
 * signal_fft_auto_scale_bits (the shift): two calls on the same input, each computing its
 * output (the max scan is the cheap part). No options.
 */
import { Converter, formatError } from '../common';
import { input, output, requireCounts } from './common';

export const SIGNAL_FFT_AUTO_SCALE_CODE = 'SignalFftAutoScale';

export const signalFftAutoScale: Converter = (site) => {
  requireCounts(site, 1, 2);
  const x = input(site, 0, 'int16', 1, 'input');
  const out = output(site, 0, 'int16', 1, 'output');
  output(site, 1, 'int32', 0, 'scale_bit');
  if (out.shape[0] !== x.shape[0]) formatError(site, `output of ${out.shape[0]} samples, expected the input's ${x.shape[0]}`);
  return {
    op: 'signal_fft_auto_scale',
    attrs: {},
    argPositions: [0],
    perOutput: [
      { op: 'signal_fft_auto_scale', attrs: {}, argPositions: [0] },
      { op: 'signal_fft_auto_scale_bits', attrs: {}, argPositions: [0] },
    ],
  };
};

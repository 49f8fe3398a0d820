/**
 * SignalIrfft → signal_irfft: the inverse real FFT (kissfft's kiss_fftri)
 * of each row of fft_length / 2 + 1 complex bins into fft_length samples. Options T (int16,
 * int32 or float32; the float32 output divided by fft_length, as TFLite Micro) and fft_length.
 */
import { Converter, formatError } from '../common';
import { fftSite } from './common';

export const SIGNAL_IRFFT_CODE = 'SignalIrfft';

export const signalIrfft: Converter = (site) => {
  const { x, out, fftLength } = fftSite(site);
  const last = x.shape[x.shape.length - 1];
  if (last !== fftLength + 2) formatError(site, `rows of ${last} values, expected fft_length + 2 = ${fftLength + 2} (fft_length / 2 + 1 complex bins)`);
  const expected = [...x.shape.slice(0, -1), fftLength];
  if (out.shape.join() !== expected.join()) formatError(site, `output of shape [${out.shape}], expected [${expected}]`);
  return { op: 'signal_irfft', attrs: { fft_length: fftLength }, argPositions: [0] };
};

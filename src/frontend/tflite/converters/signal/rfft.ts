/**
 * SignalRfft → signal_rfft: the real FFT (kissfft) of each row of the input,
 * zero-padded to fft_length; fft_length / 2 + 1 complex bins per row. Options T (the
 * tensor type: int16, int32 (kissfft FIXED_POINT=32) or float32) and fft_length.
 */
import { Converter, formatError } from '../common';
import { fftSite } from './common';

export const SIGNAL_RFFT_CODE = 'SignalRfft';

export const signalRfft: Converter = (site) => {
  const { x, out, fftLength } = fftSite(site);
  const rank = x.shape.length;
  const last = x.shape[rank - 1];
  if (last > fftLength) formatError(site, `rows of ${last} samples are longer than fft_length ${fftLength}`);
  const expected = [...x.shape.slice(0, -1), fftLength + 2];
  if (out.shape.join() !== expected.join()) formatError(site, `output of shape [${out.shape}], expected [${expected}] (fft_length / 2 + 1 complex bins per row)`);
  return { op: 'signal_rfft', attrs: { fft_length: fftLength }, argPositions: [0] };
};

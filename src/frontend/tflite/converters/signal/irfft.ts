/**
 * SignalIrfft → signal_irfft: the int16 inverse real FFT (kissfft's kiss_fftri, fixed point)
 * of each row of fft_length / 2 + 1 complex int16 bins into fft_length samples. Options T and
 * fft_length; float32 and int32 IRFFTs are not supported yet.
 */
import { rfftLengthProblem } from '../../../../arith/signal';
import { TensorTypeCode } from '../../schema';
import { Converter, formatError, unsupportedParameter } from '../common';
import { input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_IRFFT_CODE = 'SignalIrfft';

export const signalIrfft: Converter = (site) => {
  requireCounts(site, 1, 1);
  const options = signalOptions(site, ['T', 'fft_length']);
  const t = options.int('T');
  if (t !== TensorTypeCode.INT16) unsupportedParameter(site, `tensor type T = ${t} (uma-ts runs the int16 IRFFT, T = ${TensorTypeCode.INT16})`);
  const x = input(site, 0, 'int16', '>=1', 'input');
  const out = output(site, 0, 'int16', '>=1', 'output');
  const fftLength = options.int('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) unsupportedParameter(site, problem.replace('RFFT', 'IRFFT'));
  const last = x.shape[x.shape.length - 1];
  if (last !== fftLength + 2) formatError(site, `rows of ${last} int16, expected fft_length + 2 = ${fftLength + 2} (fft_length / 2 + 1 complex bins)`);
  const expected = [...x.shape.slice(0, -1), fftLength];
  if (out.shape.join() !== expected.join()) formatError(site, `output of shape [${out.shape}], expected [${expected}]`);
  return { op: 'signal_irfft', attrs: { fft_length: fftLength }, argPositions: [0] };
};

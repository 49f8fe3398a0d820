/** CPU strategies of TFLite Micro's signal-library operators: calls of uma_ref_signal.c's kernels. */
import { OperatorStrategy } from '../../strategy';
import { signalDelayStrategy } from './delay';
import { signalEnergyStrategy } from './energy';
import { signalFlagStrategy } from './flag';
import { signalFramerStrategy } from './framer';
import { signalStackerStrategy } from './stacker';
import { signalOverlapAddStrategy } from './overlapAdd';
import { signalFftAutoScaleBitsStrategy, signalFftAutoScaleStrategy } from './fftAutoScale';
import { signalFilterBankStrategy } from './filterBank';
import { signalFilterBankLogStrategy } from './filterBankLog';
import { signalFilterBankSpectralSubtractionStrategy } from './filterBankSpectralSubtraction';
import { signalFilterBankSquareRootStrategy } from './filterBankSquareRoot';
import { signalPcanStrategy } from './pcan';
import { signalIrfftStrategy, signalRfftStrategy } from './fft';
import { signalWindowStrategy } from './window';

export const SIGNAL_STRATEGIES: ReadonlyArray<[string, OperatorStrategy]> = [
  ['signal_window', signalWindowStrategy],
  ['signal_fft_auto_scale', signalFftAutoScaleStrategy],
  ['signal_fft_auto_scale_bits', signalFftAutoScaleBitsStrategy],
  ['signal_rfft', signalRfftStrategy],
  ['signal_energy', signalEnergyStrategy],
  ['signal_filter_bank', signalFilterBankStrategy],
  ['signal_filter_bank_square_root', signalFilterBankSquareRootStrategy],
  ['signal_filter_bank_spectral_subtraction', signalFilterBankSpectralSubtractionStrategy],
  ['signal_pcan', signalPcanStrategy],
  ['signal_filter_bank_log', signalFilterBankLogStrategy],
  ['signal_delay', signalDelayStrategy],
  ['signal_overlap_add', signalOverlapAddStrategy],
  ['signal_stacker', signalStackerStrategy],
  ['signal_framer', signalFramerStrategy],
  ['signal_flag', signalFlagStrategy],
  ['signal_irfft', signalIrfftStrategy],
];

/** Interpreter kernels of TFLite Micro's signal-library operators (`signal_*`). */
import { Kernel } from '../../kernel';
import { signalDelay } from './delay';
import { signalEnergy } from './energy';
import { signalFlag } from './flag';
import { signalFramer } from './framer';
import { signalIrfft } from './irfft';
import { signalStacker } from './stacker';
import { signalOverlapAdd } from './overlapAdd';
import { signalFftAutoScale, signalFftAutoScaleBits } from './fftAutoScale';
import { signalFilterBank } from './filterBank';
import { signalFilterBankLog } from './filterBankLog';
import { signalFilterBankSpectralSubtraction } from './filterBankSpectralSubtraction';
import { signalFilterBankSquareRoot } from './filterBankSquareRoot';
import { signalPcan } from './pcan';
import { signalRfft } from './rfft';
import { signalWindow } from './window';

export const SIGNAL_KERNELS: ReadonlyArray<[string, Kernel]> = [
  ['signal_window', signalWindow],
  ['signal_fft_auto_scale', signalFftAutoScale],
  ['signal_fft_auto_scale_bits', signalFftAutoScaleBits],
  ['signal_rfft', signalRfft],
  ['signal_energy', signalEnergy],
  ['signal_filter_bank', signalFilterBank],
  ['signal_filter_bank_square_root', signalFilterBankSquareRoot],
  ['signal_filter_bank_spectral_subtraction', signalFilterBankSpectralSubtraction],
  ['signal_pcan', signalPcan],
  ['signal_filter_bank_log', signalFilterBankLog],
  ['signal_delay', signalDelay],
  ['signal_overlap_add', signalOverlapAdd],
  ['signal_stacker', signalStacker],
  ['signal_framer', signalFramer],
  ['signal_flag', signalFlag],
  ['signal_irfft', signalIrfft],
];

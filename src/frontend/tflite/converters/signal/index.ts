/** TFLite Micro's signal-library custom operators, by custom code. */
import { Converter } from '../common';
import { SIGNAL_DELAY_CODE, signalDelay } from './delay';
import { SIGNAL_ENERGY_CODE, signalEnergy } from './energy';
import { SIGNAL_FRAMER_CODE, signalFramer } from './framer';
import { SIGNAL_IRFFT_CODE, signalIrfft } from './irfft';
import { SIGNAL_STACKER_CODE, signalStacker } from './stacker';
import { SIGNAL_OVERLAP_ADD_CODE, signalOverlapAdd } from './overlapAdd';
import { SIGNAL_FFT_AUTO_SCALE_CODE, signalFftAutoScale } from './fftAutoScale';
import { SIGNAL_FILTER_BANK_CODE, signalFilterBank } from './filterBank';
import { SIGNAL_FILTER_BANK_LOG_CODE, signalFilterBankLog } from './filterBankLog';
import { SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_CODE, signalFilterBankSpectralSubtraction } from './filterBankSpectralSubtraction';
import { SIGNAL_FILTER_BANK_SQUARE_ROOT_CODE, signalFilterBankSquareRoot } from './filterBankSquareRoot';
import { SIGNAL_PCAN_CODE, signalPcan } from './pcan';
import { SIGNAL_RFFT_CODE, signalRfft } from './rfft';
import { SIGNAL_WINDOW_CODE, signalWindow } from './window';

/**
 * Signal operators that keep state across invocations (ConvertedOperator.state): refused inside
 * control-flow subgraphs, whose copies would each get a state of their own.
 */
export const STATEFUL_SIGNAL_CODES: ReadonlySet<string> = new Set([
  SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_CODE,
  SIGNAL_DELAY_CODE,
  SIGNAL_OVERLAP_ADD_CODE,
  SIGNAL_STACKER_CODE,
  SIGNAL_FRAMER_CODE,
]);

export const SIGNAL_CONVERTERS: ReadonlyArray<[string, Converter]> = [
  [SIGNAL_WINDOW_CODE, signalWindow],
  [SIGNAL_FFT_AUTO_SCALE_CODE, signalFftAutoScale],
  [SIGNAL_RFFT_CODE, signalRfft],
  [SIGNAL_ENERGY_CODE, signalEnergy],
  [SIGNAL_FILTER_BANK_CODE, signalFilterBank],
  [SIGNAL_FILTER_BANK_SQUARE_ROOT_CODE, signalFilterBankSquareRoot],
  [SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_CODE, signalFilterBankSpectralSubtraction],
  [SIGNAL_PCAN_CODE, signalPcan],
  [SIGNAL_FILTER_BANK_LOG_CODE, signalFilterBankLog],
  [SIGNAL_DELAY_CODE, signalDelay],
  [SIGNAL_OVERLAP_ADD_CODE, signalOverlapAdd],
  [SIGNAL_STACKER_CODE, signalStacker],
  [SIGNAL_FRAMER_CODE, signalFramer],
  [SIGNAL_IRFFT_CODE, signalIrfft],
];

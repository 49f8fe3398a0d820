/**
 * The evaluator's twins of the signal-library runtime kernels (uma_ref_signal.c): each reads
 * its regions bounds-checked and runs src/arith/signal.ts, the code the interpreter runs too.
 */
import {
  applyWindow,
  delay,
  framer,
  framerCapacity,
  irfftInt16,
  irfftWide,
  rfftWide,
  overlapAdd,
  stacker,
  stackerStateLength,
  fftAutoScale,
  fftAutoScaleBits,
  filterBank,
  filterBankLog,
  filterBankSqrt,
  pcan,
  PCAN_GAIN_LUT_ENTRIES,
  rfftFactorCount,
  rfftInt16,
  spectralSubtraction,
  spectrumToEnergy,
} from '../../arith/signal';
import { LoweringError } from '../../errors';
import { ArgValue, bytesAt, ExternFn, isPointer } from '../../ir/tir/eval';
import {
  SIGNAL_DELAY,
  SIGNAL_ENERGY,
  SIGNAL_OVERLAP_ADD_FLOAT,
  SIGNAL_OVERLAP_ADD_INT16,
  SIGNAL_FFT_AUTO_SCALE,
  SIGNAL_FFT_AUTO_SCALE_BITS,
  SIGNAL_FILTER_BANK,
  SIGNAL_FILTER_BANK_LOG,
  SIGNAL_FILTER_BANK_SQRT,
  SIGNAL_FRAMER,
  SIGNAL_IRFFT_FLOAT,
  SIGNAL_IRFFT_INT16,
  SIGNAL_IRFFT_INT32,
  SIGNAL_RFFT_FLOAT,
  SIGNAL_RFFT_INT32,
  SIGNAL_STACKER,
  SIGNAL_PCAN,
  SIGNAL_RFFT_INT16,
  SIGNAL_SPECTRAL_SUBTRACTION,
  SIGNAL_WINDOW,
} from './externKernels';

type View = Int16Array | Int32Array | Uint32Array | BigUint64Array | Float32Array;
type ViewCtor<T extends View> = { new (b: ArrayBufferLike, at: number, n: number): T; BYTES_PER_ELEMENT: number };

function argsOf(name: string, args: readonly ArgValue[]) {
  const int = (i: number): number => {
    const a = args[i];
    if (typeof a !== 'number') throw new LoweringError(`${name}: argument ${i} must be an integer`, { op: name });
    return a;
  };
  const view = <T extends View>(ctor: ViewCtor<T>, i: number, n: number): T => {
    const a = args[i];
    if (!isPointer(a)) throw new LoweringError(`${name}: argument ${i} must be a pointer`, { op: name });
    const b = bytesAt(a, n * ctor.BYTES_PER_ELEMENT);
    if (b.byteOffset % ctor.BYTES_PER_ELEMENT !== 0) throw new LoweringError(`${name}: argument ${i} is not ${ctor.BYTES_PER_ELEMENT}-byte aligned`, { op: name });
    return new ctor(b.buffer, b.byteOffset, n);
  };
  return { int, view };
}

const window: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_WINDOW, args);
  const [size, weightSize, shift] = [int(3), int(4), int(5)];
  applyWindow(view(Int16Array, 0, size), view(Int16Array, 1, weightSize), shift, view(Int16Array, 2, size));
  return 0;
};

const autoScale: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FFT_AUTO_SCALE, args);
  fftAutoScale(view(Int16Array, 0, int(2)), view(Int16Array, 1, int(2)));
  return 0;
};

const autoScaleBits: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FFT_AUTO_SCALE_BITS, args);
  view(Int32Array, 1, 1)[0] = fftAutoScaleBits(view(Int16Array, 0, int(2)));
  return 0;
};

const rfft: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_RFFT_INT16, args);
  const [rows, inputLength, fftLength] = [int(5), int(6), int(7)];
  const tables = { fftLength, twiddles: view(Int16Array, 3, 3 * (fftLength >> 1)), factors: view(Int32Array, 4, rfftFactorCount(fftLength)) };
  rfftInt16(tables, view(Int16Array, 0, rows * inputLength), inputLength, view(Int16Array, 1, rows * (fftLength + 2)), view(Int16Array, 2, 2 * fftLength));
  return 0;
};

const energy: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_ENERGY, args);
  const [size, start, end] = [int(2), int(3), int(4)];
  spectrumToEnergy(view(Int16Array, 0, 2 * Math.max(end, 0)), start, end, view(Uint32Array, 1, size));
  return 0;
};

const bank: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FILTER_BANK, args);
  const channels = int(7);
  // Table lengths come from the channel tables themselves (checked at import).
  const widths = view(Int16Array, 5, channels + 1);
  const frequencyStarts = view(Int16Array, 3, channels + 1);
  const weightStarts = view(Int16Array, 4, channels + 1);
  let inputLength = 0;
  let weightLength = 0;
  for (let i = 0; i <= channels; i++) {
    inputLength = Math.max(inputLength, frequencyStarts[i] + Math.max(widths[i], 0));
    weightLength = Math.max(weightLength, weightStarts[i] + Math.max(widths[i], 0));
  }
  const tables = { weights: view(Int16Array, 1, weightLength), unweights: view(Int16Array, 2, weightLength), frequencyStarts, weightStarts, widths };
  filterBank(view(Uint32Array, 0, inputLength), tables, channels, view(BigUint64Array, 6, channels));
  return 0;
};

const sqrt: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FILTER_BANK_SQRT, args);
  filterBankSqrt(view(BigUint64Array, 0, int(3)), view(Int32Array, 1, 1)[0], view(Uint32Array, 2, int(3)));
  return 0;
};

const subtraction: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_SPECTRAL_SUBTRACTION, args);
  const n = int(3);
  const config = {
    numChannels: n,
    smoothing: int(4),
    oneMinusSmoothing: int(5),
    alternateSmoothing: int(6),
    alternateOneMinusSmoothing: int(7),
    minSignalRemaining: int(8),
    smoothingBits: int(9),
    spectralSubtractionBits: int(10),
    clamping: int(11) !== 0,
  };
  spectralSubtraction(config, view(Uint32Array, 0, n), view(Uint32Array, 2, n), view(Uint32Array, 1, n));
  return 0;
};

const pcanSim: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_PCAN, args);
  const n = int(4);
  pcan(view(Uint32Array, 0, n), view(Uint32Array, 1, n), view(Int16Array, 2, PCAN_GAIN_LUT_ENTRIES), int(5), view(Uint32Array, 3, n));
  return 0;
};

const log: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FILTER_BANK_LOG, args);
  const n = int(2);
  filterBankLog(view(Uint32Array, 0, n), int(3), int(4), view(Int16Array, 1, n));
  return 0;
};

const delaySim: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_DELAY, args);
  const [rows, frame, length] = [int(3), int(4), int(5)];
  delay(view(Int16Array, 0, rows * frame), view(Int16Array, 1, rows * length), frame, length, view(Int16Array, 2, rows * frame));
  return 0;
};

function overlapAddSim(name: string, isFloat: boolean): ExternFn {
  return (args) => {
    const { int, view } = argsOf(name, args);
    const [rows, frames, size, step] = [int(3), int(4), int(5), int(6)];
    const ctor = isFloat ? Float32Array : Int16Array;
    overlapAdd(view<Int16Array | Float32Array>(ctor, 0, rows * frames * size), view<Int16Array | Float32Array>(ctor, 1, rows * size), frames, size, step, view<Int16Array | Float32Array>(ctor, 2, rows * frames * step));
    return 0;
  };
}

const stackerSim: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_STACKER, args);
  const [channels, left, right, step] = [int(3), int(4), int(5), int(6)];
  const size = channels * (left + right + 1);
  const out = view(Int16Array, 2, size + 1);
  out[size] = stacker(view(Int16Array, 0, channels), view(Int32Array, 1, stackerStateLength(channels, left, right)), channels, left, right, step, out.subarray(0, size)) ? 1 : 0;
  return 0;
};

const framerSim: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_FRAMER, args);
  const [rows, frames, size, step, capacity] = [int(3), int(4), int(5), int(6), int(7)];
  if (capacity !== framerCapacity(size, step)) throw new LoweringError(`${SIGNAL_FRAMER}: capacity ${capacity} is not frame_size rounded up to frame_step`, { op: SIGNAL_FRAMER });
  const n = rows * frames * size;
  const out = view(Int16Array, 2, n + 1);
  out[n] = framer(view(Int16Array, 0, rows * frames * step), view(Int32Array, 1, rows * (capacity + 1)), size, step, out.subarray(0, n)) ? 1 : 0;
  return 0;
};

const irfft: ExternFn = (args) => {
  const { int, view } = argsOf(SIGNAL_IRFFT_INT16, args);
  const [rows, n] = [int(5), int(6)];
  const tables = { fftLength: n, inverse: true, twiddles: view(Int16Array, 3, 3 * (n >> 1)), factors: view(Int32Array, 4, rfftFactorCount(n)) };
  irfftInt16(tables, view(Int16Array, 0, rows * (n + 2)), view(Int16Array, 1, rows * n), view(Int16Array, 2, n));
  return 0;
};

function wideFftSim(name: string, type: 'int32' | 'float32', inverse: boolean): ExternFn {
  return (args) => {
    const { int, view } = argsOf(name, args);
    const ctor = type === 'int32' ? Int32Array : Float32Array;
    const rows = int(5);
    const n = inverse ? int(6) : int(7);
    const twiddles = view<Int32Array | Float32Array>(ctor, 3, 3 * (n >> 1));
    const factors = view(Int32Array, 4, rfftFactorCount(n));
    if (inverse) {
      irfftWide(type, n, twiddles, factors, view<Int32Array | Float32Array>(ctor, 0, rows * (n + 2)), view<Int32Array | Float32Array>(ctor, 1, rows * n));
    } else {
      const inputLength = int(6);
      rfftWide(type, n, twiddles, factors, view<Int32Array | Float32Array>(ctor, 0, rows * inputLength), inputLength, view<Int32Array | Float32Array>(ctor, 1, rows * (n + 2)));
    }
    return 0;
  };
}

export const SIGNAL_EXTERN_SIMULATIONS: ReadonlyArray<[string, ExternFn]> = [
  [SIGNAL_WINDOW, window],
  [SIGNAL_FFT_AUTO_SCALE, autoScale],
  [SIGNAL_FFT_AUTO_SCALE_BITS, autoScaleBits],
  [SIGNAL_RFFT_INT16, rfft],
  [SIGNAL_ENERGY, energy],
  [SIGNAL_FILTER_BANK, bank],
  [SIGNAL_FILTER_BANK_SQRT, sqrt],
  [SIGNAL_SPECTRAL_SUBTRACTION, subtraction],
  [SIGNAL_PCAN, pcanSim],
  [SIGNAL_FILTER_BANK_LOG, log],
  [SIGNAL_DELAY, delaySim],
  [SIGNAL_OVERLAP_ADD_INT16, overlapAddSim(SIGNAL_OVERLAP_ADD_INT16, false)],
  [SIGNAL_OVERLAP_ADD_FLOAT, overlapAddSim(SIGNAL_OVERLAP_ADD_FLOAT, true)],
  [SIGNAL_STACKER, stackerSim],
  [SIGNAL_FRAMER, framerSim],
  [SIGNAL_IRFFT_INT16, irfft],
  [SIGNAL_RFFT_INT32, wideFftSim(SIGNAL_RFFT_INT32, 'int32', false)],
  [SIGNAL_IRFFT_INT32, wideFftSim(SIGNAL_IRFFT_INT32, 'int32', true)],
  [SIGNAL_RFFT_FLOAT, wideFftSim(SIGNAL_RFFT_FLOAT, 'float32', false)],
  [SIGNAL_IRFFT_FLOAT, wideFftSim(SIGNAL_IRFFT_FLOAT, 'float32', true)],
];

/**
 * TFLite Micro's signal library (tflite-micro/signal/src) in integer arithmetic, statement for
 * statement: the audio front end of the micro_speech preprocessor (window, FFT auto scale, the
 * int16 real FFT of kissfft's fixed-point code, energy, filter bank, square root, spectral
 * subtraction, PCAN gain control, log). The interpreter's kernels and the evaluator's twins of
 * the C runtime kernels (src/codegen/c/runtime/uma_ref_signal.c, the same code in C) run
 * these. Unsigned 32-bit values are JS numbers in [0, 2^32); 64-bit ones are bigints.
 */

const U64 = (1n << 64n) - 1n;
const s16 = (v: number): number => (v << 16) >> 16;

/** MostSignificantBit32 as TFLite Micro builds it with gcc/clang: 32 - clz(x), and 32 for 0. */
export function msb32(x: number): number {
  const v = x >>> 0;
  return v === 0 ? 32 : 32 - Math.clz32(v);
}

/** MostSignificantBit64 as built with gcc/clang (64 for 0). */
export function msb64(x: bigint): number {
  if (x === 0n) return 64;
  return x.toString(2).length;
}

/** ApplyWindow over every `weights.length` run of the input: (x * w) >> shift, saturated to int16. */
export function applyWindow(input: ArrayLike<number>, weights: ArrayLike<number>, shift: number, output: Int16Array): void {
  const size = weights.length;
  for (let base = 0; base < input.length; base += size) {
    for (let i = 0; i < size; i++) {
      const raw = (input[base + i] * weights[i]) >> shift;
      output[base + i] = raw < -32768 ? -32768 : raw > 32767 ? 32767 : raw;
    }
  }
}

/** MaxAbs16: the int16 of the largest magnitude (-(-32768) wraps back to -32768, as in C). */
function maxAbs16(input: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < input.length; i++) {
    const v = input[i];
    if (v > max) max = v;
    else if (-v > max) max = s16(-v);
  }
  return max;
}

/** FftAutoScale's shift: 16 - MSB32(max |x|) - 1, at least 0. */
export function fftAutoScaleBits(input: ArrayLike<number>): number {
  const bits = 16 - msb32(maxAbs16(input)) - 1;
  return bits <= 0 ? 0 : bits;
}

/** FftAutoScale: every sample times 2^shift (wrapped to int16); returns the shift. */
export function fftAutoScale(input: ArrayLike<number>, output: Int16Array): number {
  const bits = fftAutoScaleBits(input);
  const scale = 1 << bits;
  for (let i = 0; i < input.length; i++) output[i] = s16(input[i] * scale);
  return bits;
}

/** SpectrumToEnergy over complex bins [start, end): re^2 + im^2 as uint32; other bins 0. */
export function spectrumToEnergy(input: ArrayLike<number>, start: number, end: number, output: Uint32Array): void {
  output.fill(0);
  for (let i = start; i < end; i++) {
    const re = input[2 * i];
    const im = input[2 * i + 1];
    output[i] = (re * re + im * im) >>> 0;
  }
}

/** The filter bank's constant tables (int16, one entry per channel + 1 for the widths/starts). */
export interface FilterBankTables {
  readonly weights: ArrayLike<number>;
  readonly unweights: ArrayLike<number>;
  readonly frequencyStarts: ArrayLike<number>;
  readonly weightStarts: ArrayLike<number>;
  readonly widths: ArrayLike<number>;
}

/**
 * FilterbankAccumulateChannels for num_channels + 1 channels, channel 0 (scratch) dropped:
 * uint64 sums of int16 weights (sign-extended to uint64, as C converts them) times uint32 bins.
 */
export function filterBank(input: ArrayLike<number>, t: FilterBankTables, numChannels: number, output: BigUint64Array): void {
  let weighted = 0n;
  let unweighted = 0n;
  for (let i = 0; i < numChannels + 1; i++) {
    const freqStart = t.frequencyStarts[i];
    const weightStart = t.weightStarts[i];
    for (let j = 0; j < t.widths[i]; j++) {
      const x = BigInt(input[freqStart + j]);
      weighted = (weighted + BigInt.asUintN(64, BigInt(t.weights[weightStart + j])) * x) & U64;
      unweighted = (unweighted + BigInt.asUintN(64, BigInt(t.unweights[weightStart + j])) * x) & U64;
    }
    if (i > 0) output[i - 1] = weighted;
    weighted = unweighted;
    unweighted = 0n;
  }
}

/** Sqrt32: the rounded integer square root (uint16). */
export function sqrt32(num: number): number {
  let n = num >>> 0;
  if (n === 0) return 0;
  let res = 0;
  const maxBit = (32 - msb32(n)) | 1;
  let bit = (1 << (31 - maxBit)) >>> 0;
  let iterations = ((31 - maxBit) >> 1) + 1;
  while (iterations--) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >>> 1) + bit;
    } else {
      res >>>= 1;
    }
    bit >>>= 2;
  }
  if (n > res && res !== 0xffff) res++;
  return res & 0xffff;
}

/** Sqrt64: Sqrt32 below 2^32, else the same digit loop on 64 bits; the result as uint32. */
export function sqrt64(num: bigint): number {
  if (num >> 32n === 0n) return sqrt32(Number(num));
  let n = num;
  let res = 0n;
  const maxBit = (64 - msb64(n)) | 1;
  let bit = 1n << BigInt(63 - maxBit);
  let iterations = ((63 - maxBit) >> 1) + 1;
  while (iterations--) {
    if (n >= res + bit) {
      n -= res + bit;
      res = (res >> 1n) + bit;
    } else {
      res >>= 1n;
    }
    bit >>= 2n;
  }
  if (n > res && res !== 0xffffffffn) res++;
  return Number(res & 0xffffffffn);
}

/** FilterbankSqrt: Sqrt64(x) >> shift (uint32). A shift outside [0, 31], undefined in C, gives 0. */
export function filterBankSqrt(input: BigUint64Array, shift: number, output: Uint32Array): void {
  for (let i = 0; i < input.length; i++) output[i] = shift < 0 || shift > 31 ? 0 : sqrt64(input[i]) >>> shift;
}

/** SpectralSubtractionConfig (the custom options, as uint32 / bool). */
export interface SpectralSubtractionConfig {
  readonly numChannels: number;
  readonly smoothing: number;
  readonly oneMinusSmoothing: number;
  readonly alternateSmoothing: number;
  readonly alternateOneMinusSmoothing: number;
  readonly minSignalRemaining: number;
  readonly smoothingBits: number;
  readonly spectralSubtractionBits: number;
  readonly clamping: boolean;
}

/**
 * FilterbankSpectralSubtraction: updates `noise` (the persistent estimate) in place and writes
 * the noise-reduced channels. Shift counts are checked at import (below 32 / 64).
 */
export function spectralSubtraction(c: SpectralSubtractionConfig, input: ArrayLike<number>, output: Uint32Array, noise: Uint32Array): void {
  const ssBits = BigInt(c.spectralSubtractionBits);
  for (let i = 0; i < c.numChannels; i++) {
    const odd = (i & 1) !== 0;
    const smoothing = BigInt((odd ? c.alternateSmoothing : c.smoothing) >>> 0);
    const oneMinus = BigInt((odd ? c.alternateOneMinusSmoothing : c.oneMinusSmoothing) >>> 0);
    const signalScaledUp = (input[i] << c.smoothingBits) >>> 0;
    noise[i] = Number(BigInt.asUintN(32, ((BigInt(signalScaledUp) * smoothing + BigInt(noise[i]) * oneMinus) & U64) >> ssBits));
    let estimateScaledUp = noise[i];
    if (estimateScaledUp > signalScaledUp) {
      estimateScaledUp = signalScaledUp;
      if (c.clamping) noise[i] = estimateScaledUp;
    }
    const floor = Number(BigInt.asUintN(32, (BigInt(input[i] >>> 0) * BigInt(c.minSignalRemaining >>> 0)) >> ssBits));
    const subtracted = ((signalScaledUp - estimateScaledUp) >>> 0) >>> c.smoothingBits;
    output[i] = subtracted > floor ? subtracted : floor;
  }
}

/** PCAN's fixed-point constants (pcan_argc_fixed.h). */
const PCAN_SNR_BITS = 12;
const PCAN_OUTPUT_BITS = 6;

/** The gain table entries WideDynamicFunction may read: 3 + 4 per MSB interval up to 32. */
export const PCAN_GAIN_LUT_ENTRIES = 4 * 32 - 6 + 3;

/** WideDynamicFunction: the piecewise-quadratic gain of an uint32 noise estimate (int16). */
export function wideDynamicFunction(x: number, lut: ArrayLike<number>): number {
  if (x <= 2) return lut[x];
  const interval = msb32(x);
  const base = 4 * interval - 6;
  const frac = (interval < 11 ? x << (11 - interval) : x >>> (interval - 11)) & 0x3ff;
  let result = (lut[base + 2] * frac) >> 5;
  result = (result + lut[base + 1] * 32) | 0;
  result = Math.imul(result, frac);
  result = (result + (1 << 14)) >> 15;
  result = (result + lut[base]) | 0;
  return s16(result);
}

/** PcanShrink: x^2/4 below 2 (in kPcanSnrBits fixed point), else x - 1, to kPcanOutputBits. */
export function pcanShrink(x: number): number {
  if (x < 2 << PCAN_SNR_BITS) return (Math.imul(x, x) >>> 0) >>> (2 + 2 * PCAN_SNR_BITS - PCAN_OUTPUT_BITS);
  return ((x >>> (PCAN_SNR_BITS - PCAN_OUTPUT_BITS)) - (1 << PCAN_OUTPUT_BITS)) >>> 0;
}

/** ApplyPcanAutoGainControlFixed over a copy of the filter bank output. */
export function pcan(input: ArrayLike<number>, noise: ArrayLike<number>, lut: ArrayLike<number>, snrShift: number, output: Uint32Array): void {
  const shift = BigInt(snrShift);
  for (let i = 0; i < input.length; i++) {
    const gain = wideDynamicFunction(noise[i], lut) >>> 0;
    const snr = Number(BigInt.asUintN(32, (BigInt(input[i] >>> 0) * BigInt(gain)) >> shift));
    output[i] = pcanShrink(snr);
  }
}

const LOG_LUT = [
  0, 224, 442, 654, 861, 1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368,
  4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640,
  5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762,
  4697, 4630, 4561, 4490, 4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437, 2323,
  2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963, 830, 695, 559, 421, 282, 142, 0, 0,
];

function log2FractionPart32(x: number, log2x: number): number {
  let frac = (x - 2 ** log2x) | 0;
  if (log2x < 16) frac <<= 16 - log2x;
  else frac >>= log2x - 16;
  const baseSeg = frac >>> 9;
  const c0 = LOG_LUT[baseSeg];
  const c1 = LOG_LUT[baseSeg + 1];
  const relPos = ((c1 - c0) * (frac - 512 * baseSeg)) >> 16;
  return (frac + c0 + relPos) >>> 0;
}

/** Log32: ln(x) in Q16 scaled by `outScale` (uint32 arithmetic, as C). x must be > 1. */
export function log32(x: number, outScale: number): number {
  const integer = msb32(x) - 1;
  const fraction = log2FractionPart32(x, integer);
  const log2 = ((integer << 16) + fraction) >>> 0;
  const loge = Number(BigInt.asUintN(32, (45426n * BigInt(log2) + 32768n) >> 16n));
  return (((Math.imul(outScale >>> 0, loge) >>> 0) + 32768) >>> 0) >>> 16;
}

/** FilterbankLog: Log32 of x << correction_bits, at most INT16_MAX; 0 for a value of 0 or 1. */
export function filterBankLog(input: ArrayLike<number>, outputScale: number, correctionBits: number, output: Int16Array): void {
  for (let i = 0; i < input.length; i++) {
    const scaled = (input[i] << correctionBits) >>> 0;
    if (scaled > 1) {
      const v = log32(scaled, outputScale);
      output[i] = v < 32767 ? v : 32767;
    } else {
      output[i] = 0;
    }
  }
}

/**
 * Delay: each row of `frame` samples comes out `delay` samples late. TFLM's circular buffer of
 * frame + delay samples holds, between invocations, the last `delay` samples of the row's
 * stream (zeros at first): `state` (rows * delay), updated in place.
 */
export function delay(input: ArrayLike<number>, state: Int16Array, frame: number, delayLength: number, output: Int16Array): void {
  const rows = frame === 0 ? 0 : input.length / frame;
  for (let r = 0; r < rows; r++) {
    const s = r * delayLength;
    const x = r * frame;
    for (let i = 0; i < frame; i++) output[x + i] = i < delayLength ? state[s + i] : input[x + i - delayLength];
    // Ascending: each slot reads one at a later index (or the input) before it is overwritten.
    for (let j = 0; j < delayLength; j++) {
      const k = frame + j;
      state[s + j] = k < delayLength ? state[s + k] : input[x + k - delayLength];
    }
  }
}

/**
 * OverlapAdd over `frames` frames of `frameSize` per row: each frame added into the row's
 * buffer (`state`, rows * frameSize; int16 saturated, float32 in float), its first `frameStep`
 * values output, the buffer shifted left by frameStep and zero-filled behind.
 */
export function overlapAdd(input: ArrayLike<number>, state: Int16Array | Float32Array, frames: number, frameSize: number, frameStep: number, output: Int16Array | Float32Array): void {
  const isFloat = state instanceof Float32Array;
  const rows = frames * frameSize === 0 ? 0 : input.length / (frames * frameSize);
  for (let r = 0; r < rows; r++) {
    const b = r * frameSize;
    for (let f = 0; f < frames; f++) {
      const x = (r * frames + f) * frameSize;
      const o = (r * frames + f) * frameStep;
      for (let i = 0; i < frameSize; i++) {
        const sum = state[b + i] + input[x + i];
        state[b + i] = isFloat ? sum : sum < -32768 ? -32768 : sum > 32767 ? 32767 : sum;
      }
      for (let i = 0; i < frameStep; i++) output[o + i] = state[b + i];
      for (let i = 0; i < frameSize - frameStep; i++) state[b + i] = state[b + i + frameStep];
      for (let i = frameSize - frameStep; i < frameSize; i++) state[b + i] = 0;
    }
  }
}

/** Stacker's state (int32): [samples available, first frame seen, the queue, oldest first]. */
export function stackerStateLength(channels: number, left: number, right: number): number {
  return 2 + channels * (left + right + 1);
}

/**
 * Stacker: TFLM's circular buffer of channels * (left + right + 1) samples as a queue in
 * `state`. Each invocation appends the input frame (the first one left + 1 times, TFLM's
 * CircularBufferExtend); with the buffer full it outputs it and drops `step` frames. Returns
 * output_valid; an invalid output is all 0 here (TFLite Micro leaves it unwritten).
 */
export function stacker(input: ArrayLike<number>, state: Int32Array, channels: number, left: number, right: number, step: number, output: Int16Array): boolean {
  const size = channels * (left + right + 1);
  const queue = state.subarray(2);
  let available = state[0];
  for (let c = 0; c < channels; c++) queue[available + c] = input[c];
  available += channels;
  if (state[1] === 0) {
    for (let k = 0; k < left; k++) {
      for (let c = 0; c < channels; c++) queue[available + c] = queue[available - channels + c];
      available += channels;
    }
    state[1] = 1;
  }
  let valid = false;
  if (available >= size) {
    for (let i = 0; i < size; i++) output[i] = queue[i];
    const drop = channels * step;
    for (let i = 0; i < available - drop; i++) queue[i] = queue[i + drop];
    available -= drop;
    valid = true;
  } else {
    output.fill(0);
  }
  state[0] = available;
  return valid;
}

/** Framer's circular buffer capacity: frame_size rounded up to a multiple of frame_step. */
export function framerCapacity(frameSize: number, frameStep: number): number {
  return Math.ceil(frameSize / frameStep) * frameStep;
}

/**
 * Framer: per row a queue (state: [available, capacity samples] per row, int32); each of the
 * row's `frames` steps appends frame_step samples and, with frame_size available, outputs the
 * oldest frame_size and drops frame_step. Returns output_valid (false if any frame was not
 * ready; such frames are 0 here, unwritten in TFLite Micro).
 */
export function framer(input: ArrayLike<number>, state: Int32Array, frameSize: number, frameStep: number, output: Int16Array): boolean {
  const capacity = framerCapacity(frameSize, frameStep);
  const rows = state.length / (capacity + 1);
  const frames = rows === 0 ? 0 : input.length / rows / frameStep;
  let valid = true;
  for (let r = 0; r < rows; r++) {
    const s = r * (capacity + 1);
    let available = state[s];
    for (let f = 0; f < frames; f++) {
      const x = (r * frames + f) * frameStep;
      const y = (r * frames + f) * frameSize;
      for (let i = 0; i < frameStep; i++) state[s + 1 + available + i] = input[x + i];
      available += frameStep;
      if (available >= frameSize) {
        for (let i = 0; i < frameSize; i++) output[y + i] = state[s + 1 + i];
        for (let i = 0; i < available - frameStep; i++) state[s + 1 + i] = state[s + 1 + i + frameStep];
        available -= frameStep;
      } else {
        valid = false;
        for (let i = 0; i < frameSize; i++) output[y + i] = 0;
      }
    }
    state[s] = available;
  }
  return valid;
}

// ---------------------------------------------------------------------------------------------
// The int16 real FFT: kissfft (v130, as TFLite Micro vendors it) compiled with FIXED_POINT=16,
// for power-of-two lengths (radix 4 and 2 stages). Complex arrays interleave re, im.

/** What kiss_fftr_alloc computes: the complex FFT's twiddles, kiss_fftr's super twiddles, factors. */
export interface RfftTables {
  readonly fftLength: number;
  /** kiss_fftr_alloc(..., inverse_fft = 1): the inverse transform's (conjugate) twiddles. */
  readonly inverse?: boolean;
  /** ncfft complex twiddles, then ncfft / 2 super twiddles (3 * ncfft int16). */
  readonly twiddles: Int16Array;
  /** kf_factor's radix / remaining-length pairs. */
  readonly factors: Int32Array;
}

/** The lengths the int16 RFFT supports: powers of two from 4 to 2^15. */
export function rfftLengthProblem(fftLength: number): string | undefined {
  if (!Number.isInteger(fftLength) || fftLength < 4 || fftLength > 32768 || (fftLength & (fftLength - 1)) !== 0) {
    return `fft_length ${fftLength} (uma-ts supports powers of two from 4 to 32768 for the RFFT and IRFFT)`;
  }
  return undefined;
}

/** floor(.5 + 32767 * cos/sin(phase)), kissfft's fixed-point kf_cexp. */
function cexp(out: Int16Array, at: number, phase: number): void {
  out[at] = Math.floor(0.5 + 32767 * Math.cos(phase));
  out[at + 1] = Math.floor(0.5 + 32767 * Math.sin(phase));
}

export function rfftTables(fftLength: number, inverse = false): RfftTables {
  const ncfft = fftLength >> 1;
  const twiddles = new Int16Array(3 * ncfft);
  const sign = inverse ? -1 : 1;
  for (let i = 0; i < ncfft; i++) cexp(twiddles, 2 * i, sign * ((-2 * 3.141592653589793 * i) / ncfft));
  for (let i = 0; i < ncfft / 2; i++) cexp(twiddles, 2 * ncfft + 2 * i, sign * (-3.141592653589793 * ((i + 1) / ncfft + 0.5)));
  // kf_factor: powers of 4 first, then 2 (no odd factors in a power of two).
  const factors: number[] = [];
  let n = ncfft;
  do {
    const p = n % 4 === 0 ? 4 : 2;
    n /= p;
    factors.push(p, n);
  } while (n > 1);
  return { fftLength, inverse, twiddles, factors: Int32Array.from(factors) };
}

/** The length of rfftTables(n).factors: one (radix, remaining) pair per radix-4 stage, and one for a final radix 2. */
export function rfftFactorCount(fftLength: number): number {
  const k = Math.round(Math.log2(fftLength >> 1));
  return 2 * Math.ceil(k / 2);
}

const sround = (x: number): number => s16((x + 16384) >> 15);

/** C_FIXDIV(c, div): both parts times SAMP_MAX / div, rounded. */
function fixdiv(a: Int16Array, k: number, div: number): void {
  const m = Math.trunc(32767 / div);
  a[k] = sround(a[k] * m);
  a[k + 1] = sround(a[k + 1] * m);
}

function bfly2(out: Int16Array, base: number, fstride: number, tw: Int16Array, m: number): void {
  for (let u = 0; u < m; u++) {
    const a = 2 * (base + u);
    const b = 2 * (base + u + m);
    fixdiv(out, a, 2);
    fixdiv(out, b, 2);
    const t = 2 * u * fstride;
    const tr = sround(out[b] * tw[t] - out[b + 1] * tw[t + 1]);
    const ti = sround(out[b] * tw[t + 1] + out[b + 1] * tw[t]);
    out[b] = s16(out[a] - tr);
    out[b + 1] = s16(out[a + 1] - ti);
    out[a] = s16(out[a] + tr);
    out[a + 1] = s16(out[a + 1] + ti);
  }
}

function bfly4(out: Int16Array, base: number, fstride: number, tw: Int16Array, m: number, inverse: boolean): void {
  for (let u = 0; u < m; u++) {
    const f0 = 2 * (base + u);
    const f1 = f0 + 2 * m;
    const f2 = f0 + 4 * m;
    const f3 = f0 + 6 * m;
    fixdiv(out, f0, 4);
    fixdiv(out, f1, 4);
    fixdiv(out, f2, 4);
    fixdiv(out, f3, 4);
    const t1 = 2 * u * fstride;
    const t2 = 2 * u * fstride * 2;
    const t3 = 2 * u * fstride * 3;
    const mul = (f: number, t: number): [number, number] => [sround(out[f] * tw[t] - out[f + 1] * tw[t + 1]), sround(out[f] * tw[t + 1] + out[f + 1] * tw[t])];
    const s0 = mul(f1, t1);
    const s1 = mul(f2, t2);
    const s2 = mul(f3, t3);
    const s5 = [s16(out[f0] - s1[0]), s16(out[f0 + 1] - s1[1])];
    out[f0] = s16(out[f0] + s1[0]);
    out[f0 + 1] = s16(out[f0 + 1] + s1[1]);
    const s3 = [s16(s0[0] + s2[0]), s16(s0[1] + s2[1])];
    const s4 = [s16(s0[0] - s2[0]), s16(s0[1] - s2[1])];
    out[f2] = s16(out[f0] - s3[0]);
    out[f2 + 1] = s16(out[f0 + 1] - s3[1]);
    out[f0] = s16(out[f0] + s3[0]);
    out[f0 + 1] = s16(out[f0 + 1] + s3[1]);
    const sign = inverse ? -1 : 1;
    out[f1] = s16(s5[0] + sign * s4[1]);
    out[f1 + 1] = s16(s5[1] - sign * s4[0]);
    out[f3] = s16(s5[0] - sign * s4[1]);
    out[f3 + 1] = s16(s5[1] + sign * s4[0]);
  }
}

/** kf_work: the decimation-in-time recursion over the factors, input stride 1. */
function kfWork(out: Int16Array, outBase: number, input: ArrayLike<number>, inBase: number, fstride: number, factors: Int32Array, fi: number, tw: Int16Array, inverse: boolean): void {
  const p = factors[fi];
  const m = factors[fi + 1];
  for (let q = 0; q < p; q++) {
    if (m === 1) {
      out[2 * (outBase + q)] = input[2 * (inBase + q * fstride)];
      out[2 * (outBase + q) + 1] = input[2 * (inBase + q * fstride) + 1];
    } else {
      kfWork(out, outBase + q * m, input, inBase + q * fstride, fstride * p, factors, fi + 2, tw, inverse);
    }
  }
  if (p === 4) bfly4(out, outBase, fstride, tw, m, inverse);
  else bfly2(out, outBase, fstride, tw, m);
}

/**
 * kiss_fftr on one zero-padded frame `time` (fftLength int16) into `freq` (fftLength + 2 int16:
 * ncfft + 1 complex bins); `tmp` is the complex FFT's output (fftLength int16).
 */
export function rfftInt16Frame(t: RfftTables, time: ArrayLike<number>, freq: Int16Array, tmp: Int16Array): void {
  const ncfft = t.fftLength >> 1;
  kfWork(tmp, 0, time, 0, 1, t.factors, 0, t.twiddles, false);
  const tdc = Int16Array.of(tmp[0], tmp[1]);
  fixdiv(tdc, 0, 2);
  freq[0] = s16(tdc[0] + tdc[1]);
  freq[2 * ncfft] = s16(tdc[0] - tdc[1]);
  freq[1] = 0;
  freq[2 * ncfft + 1] = 0;
  const fpk = new Int16Array(2);
  const fpnk = new Int16Array(2);
  const sup = 2 * ncfft;
  for (let k = 1; k <= ncfft / 2; k++) {
    fpk[0] = tmp[2 * k];
    fpk[1] = tmp[2 * k + 1];
    fpnk[0] = tmp[2 * (ncfft - k)];
    fpnk[1] = s16(-tmp[2 * (ncfft - k) + 1]);
    fixdiv(fpk, 0, 2);
    fixdiv(fpnk, 0, 2);
    const f1r = s16(fpk[0] + fpnk[0]);
    const f1i = s16(fpk[1] + fpnk[1]);
    const f2r = s16(fpk[0] - fpnk[0]);
    const f2i = s16(fpk[1] - fpnk[1]);
    const w = sup + 2 * (k - 1);
    const twr = sround(f2r * t.twiddles[w] - f2i * t.twiddles[w + 1]);
    const twi = sround(f2r * t.twiddles[w + 1] + f2i * t.twiddles[w]);
    freq[2 * k] = s16((f1r + twr) >> 1);
    freq[2 * k + 1] = s16((f1i + twi) >> 1);
    freq[2 * (ncfft - k)] = s16((f1r - twr) >> 1);
    freq[2 * (ncfft - k) + 1] = s16((twi - f1i) >> 1);
  }
}

/**
 * TFLite Micro's int16 RFFT kernel: each row of `inputLength` samples copied into a work area,
 * zero-padded to fft_length, transformed into its fft_length + 2 outputs. `scratch` holds
 * 2 * fft_length int16 (work area, then the complex FFT's output).
 */
export function rfftInt16(t: RfftTables, input: ArrayLike<number>, inputLength: number, output: Int16Array, scratch: Int16Array): void {
  const n = t.fftLength;
  const rows = Math.floor(input.length / inputLength);
  const work = scratch.subarray(0, n);
  const tmp = scratch.subarray(n, 2 * n);
  for (let r = 0; r < rows; r++) {
    work.fill(0);
    for (let i = 0; i < inputLength; i++) work[i] = input[r * inputLength + i];
    rfftInt16Frame(t, work, output.subarray(r * (n + 2), (r + 1) * (n + 2)), tmp);
  }
}

/**
 * kiss_fftri on one frame of fftLength / 2 + 1 complex bins (`freq`, fftLength + 2 int16) into
 * fftLength samples; `tmp` holds the complex FFT's input (fftLength int16). `t` from
 * rfftTables(fftLength, true).
 */
export function irfftInt16Frame(t: RfftTables, freq: ArrayLike<number>, time: Int16Array, tmp: Int16Array): void {
  const ncfft = t.fftLength >> 1;
  tmp[0] = s16(freq[0] + freq[2 * ncfft]);
  tmp[1] = s16(freq[0] - freq[2 * ncfft]);
  fixdiv(tmp, 0, 2);
  const fk = new Int16Array(2);
  const fnkc = new Int16Array(2);
  const sup = 2 * ncfft;
  for (let k = 1; k <= ncfft / 2; k++) {
    fk[0] = freq[2 * k];
    fk[1] = freq[2 * k + 1];
    fnkc[0] = freq[2 * (ncfft - k)];
    fnkc[1] = s16(-freq[2 * (ncfft - k) + 1]);
    fixdiv(fk, 0, 2);
    fixdiv(fnkc, 0, 2);
    const fekr = s16(fk[0] + fnkc[0]);
    const feki = s16(fk[1] + fnkc[1]);
    const tr = s16(fk[0] - fnkc[0]);
    const ti = s16(fk[1] - fnkc[1]);
    const w = sup + 2 * (k - 1);
    const fokr = sround(tr * t.twiddles[w] - ti * t.twiddles[w + 1]);
    const foki = sround(tr * t.twiddles[w + 1] + ti * t.twiddles[w]);
    tmp[2 * k] = s16(fekr + fokr);
    tmp[2 * k + 1] = s16(feki + foki);
    tmp[2 * (ncfft - k)] = s16(fekr - fokr);
    tmp[2 * (ncfft - k) + 1] = s16(-s16(feki - foki));
  }
  kfWork(time, 0, tmp, 0, 1, t.factors, 0, t.twiddles, true);
}

/** TFLite Micro's int16 IRFFT kernel: each row of fftLength + 2 int16 (complex bins) into fftLength samples; `scratch` fftLength int16. */
export function irfftInt16(t: RfftTables, input: ArrayLike<number>, output: Int16Array, scratch: Int16Array): void {
  const n = t.fftLength;
  const rows = Math.floor(input.length / (n + 2));
  const frame = new Int16Array(n + 2);
  for (let r = 0; r < rows; r++) {
    for (let i = 0; i < n + 2; i++) frame[i] = input[r * (n + 2) + i];
    irfftInt16Frame(t, frame, output.subarray(r * n, (r + 1) * n), scratch.subarray(0, n));
  }
}

// ---------------------------------------------------------------------------------------------
// The int32 (kissfft FIXED_POINT=32: Q31, int64 products) and float32 real FFTs and their
// inverses, the same radix-4/2 structure with the type's arithmetic.

/** kissfft's scalar arithmetic for one build (FIXED_POINT=32, or float). */
interface KissArith {
  /** C_MUL: (ar + i ai)(br + i bi). */
  mul(ar: number, ai: number, br: number, bi: number): [number, number];
  /** C_FIXDIV's DIVSCALAR (identity for float). */
  fixdiv(v: number, div: number): number;
  add(a: number, b: number): number;
  sub(a: number, b: number): number;
  /** HALF_OF(a + b) / HALF_OF(a - b) as kiss_fftr computes them. */
  half(sum: number): number;
  neg(a: number): number;
  /** kf_cexp's value of cos / sin(phase). */
  trig(v: number): number;
}

const Q31_MAX = 2147483647;
const sround31 = (p: bigint): number => Number(BigInt.asIntN(32, (p + (1n << 30n)) >> 31n));

const INT32_ARITH: KissArith = {
  mul: (ar, ai, br, bi) => [sround31(BigInt(ar) * BigInt(br) - BigInt(ai) * BigInt(bi)), sround31(BigInt(ar) * BigInt(bi) + BigInt(ai) * BigInt(br))],
  fixdiv: (v, div) => sround31(BigInt(v) * BigInt(Math.trunc(Q31_MAX / div))),
  add: (a, b) => (a + b) | 0,
  sub: (a, b) => (a - b) | 0,
  half: (sum) => sum >> 1,
  neg: (a) => -a | 0,
  trig: (v) => Math.floor(0.5 + Q31_MAX * v),
};

const { fround } = Math;
const FLOAT_ARITH: KissArith = {
  mul: (ar, ai, br, bi) => [fround(fround(ar * br) - fround(ai * bi)), fround(fround(ar * bi) + fround(ai * br))],
  fixdiv: (v) => v,
  add: (a, b) => fround(a + b),
  sub: (a, b) => fround(a - b),
  half: (sum) => fround(sum * 0.5),
  neg: (a) => -a,
  trig: (v) => fround(v),
};

export type WideFftType = 'int32' | 'float32';

function arithOf(type: WideFftType): KissArith {
  return type === 'int32' ? INT32_ARITH : FLOAT_ARITH;
}

/** rfftTables for the int32 or float32 build: twiddles as that build's kf_cexp computes them (int32, or float32 bits as numbers). */
export function wideFftTwiddles(type: WideFftType, fftLength: number, inverse: boolean): number[] {
  const a = arithOf(type);
  const ncfft = fftLength >> 1;
  const sign = inverse ? -1 : 1;
  const out: number[] = [];
  const cexp = (phase: number): void => {
    out.push(a.trig(Math.cos(phase)), a.trig(Math.sin(phase)));
  };
  for (let i = 0; i < ncfft; i++) cexp(sign * ((-2 * 3.141592653589793 * i) / ncfft));
  for (let i = 0; i < ncfft / 2; i++) cexp(sign * (-3.141592653589793 * ((i + 1) / ncfft + 0.5)));
  return out;
}

type Cpx = Int32Array | Float32Array;

function wideBfly2(a: KissArith, out: Cpx, base: number, fstride: number, tw: ArrayLike<number>, m: number): void {
  for (let u = 0; u < m; u++) {
    const f = 2 * (base + u);
    const g = 2 * (base + u + m);
    out[f] = a.fixdiv(out[f], 2);
    out[f + 1] = a.fixdiv(out[f + 1], 2);
    out[g] = a.fixdiv(out[g], 2);
    out[g + 1] = a.fixdiv(out[g + 1], 2);
    const t = 2 * u * fstride;
    const [tr, ti] = a.mul(out[g], out[g + 1], tw[t], tw[t + 1]);
    out[g] = a.sub(out[f], tr);
    out[g + 1] = a.sub(out[f + 1], ti);
    out[f] = a.add(out[f], tr);
    out[f + 1] = a.add(out[f + 1], ti);
  }
}

function wideBfly4(a: KissArith, out: Cpx, base: number, fstride: number, tw: ArrayLike<number>, m: number, inverse: boolean): void {
  for (let u = 0; u < m; u++) {
    const f0 = 2 * (base + u);
    const f1 = f0 + 2 * m;
    const f2 = f0 + 4 * m;
    const f3 = f0 + 6 * m;
    for (const f of [f0, f1, f2, f3]) {
      out[f] = a.fixdiv(out[f], 4);
      out[f + 1] = a.fixdiv(out[f + 1], 4);
    }
    const s0 = a.mul(out[f1], out[f1 + 1], tw[2 * u * fstride], tw[2 * u * fstride + 1]);
    const s1 = a.mul(out[f2], out[f2 + 1], tw[4 * u * fstride], tw[4 * u * fstride + 1]);
    const s2 = a.mul(out[f3], out[f3 + 1], tw[6 * u * fstride], tw[6 * u * fstride + 1]);
    const s5 = [a.sub(out[f0], s1[0]), a.sub(out[f0 + 1], s1[1])];
    out[f0] = a.add(out[f0], s1[0]);
    out[f0 + 1] = a.add(out[f0 + 1], s1[1]);
    const s3 = [a.add(s0[0], s2[0]), a.add(s0[1], s2[1])];
    const s4 = [a.sub(s0[0], s2[0]), a.sub(s0[1], s2[1])];
    out[f2] = a.sub(out[f0], s3[0]);
    out[f2 + 1] = a.sub(out[f0 + 1], s3[1]);
    out[f0] = a.add(out[f0], s3[0]);
    out[f0 + 1] = a.add(out[f0 + 1], s3[1]);
    if (inverse) {
      out[f1] = a.sub(s5[0], s4[1]);
      out[f1 + 1] = a.add(s5[1], s4[0]);
      out[f3] = a.add(s5[0], s4[1]);
      out[f3 + 1] = a.sub(s5[1], s4[0]);
    } else {
      out[f1] = a.add(s5[0], s4[1]);
      out[f1 + 1] = a.sub(s5[1], s4[0]);
      out[f3] = a.sub(s5[0], s4[1]);
      out[f3 + 1] = a.add(s5[1], s4[0]);
    }
  }
}

function wideKfWork(a: KissArith, out: Cpx, outBase: number, input: ArrayLike<number>, inBase: number, fstride: number, factors: ArrayLike<number>, fi: number, tw: ArrayLike<number>, inverse: boolean): void {
  const p = factors[fi];
  const m = factors[fi + 1];
  for (let q = 0; q < p; q++) {
    if (m === 1) {
      out[2 * (outBase + q)] = input[2 * (inBase + q * fstride)];
      out[2 * (outBase + q) + 1] = input[2 * (inBase + q * fstride) + 1];
    } else {
      wideKfWork(a, out, outBase + q * m, input, inBase + q * fstride, fstride * p, factors, fi + 2, tw, inverse);
    }
  }
  if (p === 4) wideBfly4(a, out, outBase, fstride, tw, m, inverse);
  else wideBfly2(a, out, outBase, fstride, tw, m);
}

/**
 * TFLite Micro's int32 / float32 RFFT kernel (kiss_fftr of the FIXED_POINT=32 or float build)
 * over rows of `inputLength` samples zero-padded to fft_length; `twiddles` from
 * wideFftTwiddles(type, n, false), `factors` from rfftTables(n).factors.
 */
export function rfftWide(type: WideFftType, fftLength: number, twiddles: ArrayLike<number>, factors: ArrayLike<number>, input: ArrayLike<number>, inputLength: number, output: Cpx): void {
  const a = arithOf(type);
  const n = fftLength;
  const ncfft = n >> 1;
  const make = (k: number): Cpx => (type === 'int32' ? new Int32Array(k) : new Float32Array(k));
  const work = make(n);
  const tmp = make(n);
  const rows = Math.floor(input.length / inputLength);
  for (let r = 0; r < rows; r++) {
    work.fill(0);
    for (let i = 0; i < inputLength; i++) work[i] = input[r * inputLength + i];
    const freq = output.subarray(r * (n + 2), (r + 1) * (n + 2));
    wideKfWork(a, tmp, 0, work, 0, 1, factors, 0, twiddles, false);
    const tdcr = a.fixdiv(tmp[0], 2);
    const tdci = a.fixdiv(tmp[1], 2);
    freq[0] = a.add(tdcr, tdci);
    freq[2 * ncfft] = a.sub(tdcr, tdci);
    freq[1] = 0;
    freq[2 * ncfft + 1] = 0;
    for (let k = 1; k <= ncfft / 2; k++) {
      const fpkr = a.fixdiv(tmp[2 * k], 2);
      const fpki = a.fixdiv(tmp[2 * k + 1], 2);
      const fpnkr = a.fixdiv(tmp[2 * (ncfft - k)], 2);
      const fpnki = a.fixdiv(a.neg(tmp[2 * (ncfft - k) + 1]), 2);
      const f1r = a.add(fpkr, fpnkr);
      const f1i = a.add(fpki, fpnki);
      const f2r = a.sub(fpkr, fpnkr);
      const f2i = a.sub(fpki, fpnki);
      const w = 2 * ncfft + 2 * (k - 1);
      const [twr, twi] = a.mul(f2r, f2i, twiddles[w], twiddles[w + 1]);
      freq[2 * k] = a.half(a.add(f1r, twr));
      freq[2 * k + 1] = a.half(a.add(f1i, twi));
      freq[2 * (ncfft - k)] = a.half(a.sub(f1r, twr));
      freq[2 * (ncfft - k) + 1] = a.half(a.sub(twi, f1i));
    }
  }
}

/**
 * TFLite Micro's int32 / float32 IRFFT kernel (kiss_fftri; float then divided by fft_length):
 * rows of fft_length + 2 values into fft_length; `twiddles` from wideFftTwiddles(type, n, true).
 */
export function irfftWide(type: WideFftType, fftLength: number, twiddles: ArrayLike<number>, factors: ArrayLike<number>, input: ArrayLike<number>, output: Cpx): void {
  const a = arithOf(type);
  const n = fftLength;
  const ncfft = n >> 1;
  const tmp = type === 'int32' ? new Int32Array(n) : new Float32Array(n);
  const rows = Math.floor(input.length / (n + 2));
  for (let r = 0; r < rows; r++) {
    const x = r * (n + 2);
    tmp[0] = a.fixdiv(a.add(input[x], input[x + 2 * ncfft]), 2);
    tmp[1] = a.fixdiv(a.sub(input[x], input[x + 2 * ncfft]), 2);
    for (let k = 1; k <= ncfft / 2; k++) {
      const fkr = a.fixdiv(input[x + 2 * k], 2);
      const fki = a.fixdiv(input[x + 2 * k + 1], 2);
      const fnkcr = a.fixdiv(input[x + 2 * (ncfft - k)], 2);
      const fnkci = a.fixdiv(a.neg(input[x + 2 * (ncfft - k) + 1]), 2);
      const fekr = a.add(fkr, fnkcr);
      const feki = a.add(fki, fnkci);
      const tr = a.sub(fkr, fnkcr);
      const ti = a.sub(fki, fnkci);
      const w = 2 * ncfft + 2 * (k - 1);
      const [fokr, foki] = a.mul(tr, ti, twiddles[w], twiddles[w + 1]);
      tmp[2 * k] = a.add(fekr, fokr);
      tmp[2 * k + 1] = a.add(feki, foki);
      tmp[2 * (ncfft - k)] = a.sub(fekr, fokr);
      tmp[2 * (ncfft - k) + 1] = a.neg(a.sub(feki, foki));
    }
    const time = output.subarray(r * n, (r + 1) * n);
    wideKfWork(a, time, 0, tmp, 0, 1, factors, 0, twiddles, true);
    // TFLM's float IRFFT divides kissfft's unscaled output by fft_length (in float).
    if (type === 'float32') for (let i = 0; i < n; i++) time[i] = fround(time[i] / n);
  }
}

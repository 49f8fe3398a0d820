/**
 * src/arith/signal.ts against TFLite Micro's signal-library kernel tests (their golden
 * vectors, test/ops/signalVectors.ts).
 */
import {
  applyWindow,
  fftAutoScale,
  irfftInt16,
  irfftWide,
  rfftWide,
  wideFftTwiddles,
  filterBank,
  filterBankLog,
  filterBankSqrt,
  log32,
  msb32,
  pcan,
  rfftFactorCount,
  rfftInt16,
  rfftTables,
  spectralSubtraction,
  spectrumToEnergy,
  sqrt32,
  sqrt64,
} from '../../src/arith/signal';
import {
  AUTO_SCALE_BITS,
  AUTO_SCALE_SMALL,
  ENERGY_CASES,
  ENERGY_INPUT,
  FILTER_BANK_16,
  LOG_16,
  LOG_32,
  PCAN_MIX,
  RFFT_64_IMPULSE,
  SPECTRAL_SUBTRACTION_16,
  SPECTRAL_SUBTRACTION_32,
  SQRT_16,
  WINDOW_16,
  WINDOW_32,
} from '../ops/signalVectors';
import { IRFFT_512_GOLDEN, RFFT_512_GOLDEN, RFFT_512_INPUT } from '../ops/signalRfft512';

describe('TFLite Micro signal library arithmetic', () => {
  it('window: both TFLM goldens, and one weight run repeated over outer dimensions', () => {
    for (const c of [WINDOW_16, WINDOW_32]) {
      const out = new Int16Array(c.input.length);
      applyWindow(c.input, c.weights, c.shift, out);
      expect(Array.from(out)).toEqual(c.golden);
    }
    const out = new Int16Array(64);
    applyWindow([...WINDOW_16.input, ...WINDOW_16.input, ...WINDOW_16.input, ...WINDOW_16.input], WINDOW_16.weights, 12, out);
    expect(Array.from(out)).toEqual([...WINDOW_16.golden, ...WINDOW_16.golden, ...WINDOW_16.golden, ...WINDOW_16.golden]);
  });

  it('fft auto scale: TFLM goldens; all zeros and a final -32768 take no shift (MSB of 0 is 32 under gcc)', () => {
    for (const c of [AUTO_SCALE_SMALL, AUTO_SCALE_BITS]) {
      const out = new Int16Array(c.input.length);
      expect(fftAutoScale(c.input, out)).toBe(c.bits);
      expect(Array.from(out)).toEqual(c.golden);
    }
    expect(fftAutoScale([0, 0, 0], new Int16Array(3))).toBe(0);
    expect(fftAutoScale([1, -32768], new Int16Array(2))).toBe(0);
    // The max magnitude is tracked as an int16: after -32768 (kept as -32768) a later 1 is larger.
    expect(fftAutoScale([-32768, 1], new Int16Array(2))).toBe(14);
    expect(msb32(0)).toBe(32);
    expect(msb32(1)).toBe(1);
    expect(msb32(0xffffffff)).toBe(32);
  });

  it('int16 rfft: the impulse golden (64), a DC input, and the power-of-two factors', () => {
    const t = rfftTables(64);
    expect(Array.from(t.factors)).toEqual([4, 8, 4, 2, 2, 1]);
    const out = new Int16Array(66);
    rfftInt16(t, RFFT_64_IMPULSE.input, 64, out, new Int16Array(128));
    expect(Array.from(out)).toEqual(RFFT_64_IMPULSE.golden);
    // A shorter row is zero-padded: the impulse is the same spectrum.
    rfftInt16(t, RFFT_64_IMPULSE.input.slice(0, 40), 40, out, new Int16Array(128));
    expect(Array.from(out)).toEqual(RFFT_64_IMPULSE.golden);
    // DC: bin 0 holds the (scaled) sum, every other bin 0.
    const dc = new Int16Array(18);
    rfftInt16(rfftTables(16), new Array<number>(16).fill(1024), 16, dc, new Int16Array(32));
    expect(dc[0]).toBe(1024);
    expect(Array.from(dc.slice(1))).toEqual(new Array<number>(17).fill(0));
  });

  it('int16 rfft of 512 (the micro_speech size): TFLM\'s golden exactly (its test allows 3 only for HiFi)', () => {
    const out = new Int16Array(514);
    rfftInt16(rfftTables(512), RFFT_512_INPUT, 512, out, new Int16Array(1024));
    expect(Array.from(out)).toEqual(RFFT_512_GOLDEN);
  });

  it('int16 irfft of 512: TFLM\'s golden exactly; of 64: the flat spectrum is an impulse', () => {
    const out = new Int16Array(512);
    irfftInt16(rfftTables(512, true), RFFT_512_GOLDEN, out, new Int16Array(512));
    expect(Array.from(out)).toEqual(IRFFT_512_GOLDEN);
    const impulse = new Int16Array(64);
    irfftInt16(rfftTables(64, true), RFFT_64_IMPULSE.golden, impulse, new Int16Array(64));
    expect(Array.from(impulse)).toEqual([256, ...new Array<number>(63).fill(0)]);
  });

  it("int32 and float32 rfft/irfft: TFLM's 64-point goldens (impulse; flat spectrum), and a round trip", () => {
    const factors = rfftTables(64).factors;
    const impulse = [16384, ...new Array<number>(63).fill(0)];
    const f = new Float32Array(66);
    rfftWide('float32', 64, wideFftTwiddles('float32', 64, false), factors, impulse, 64, f);
    // (Some imaginary parts are -0, as in C's float arithmetic; TFLM compares them as numbers.)
    expect(Array.from(f, (v) => v + 0)).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 16384 : 0)));
    const q = new Int32Array(66);
    rfftWide('int32', 64, wideFftTwiddles('int32', 64, false), factors, impulse, 64, q);
    expect(Array.from(q)).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0)));
    const flat = Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0));
    const tf = new Float32Array(64);
    irfftWide('float32', 64, wideFftTwiddles('float32', 64, true), factors, flat, tf);
    expect(Array.from(tf, (v) => v + 0)).toEqual([256, ...new Array<number>(63).fill(0)]);
    const tq = new Int32Array(64);
    irfftWide('int32', 64, wideFftTwiddles('int32', 64, true), factors, flat, tq);
    expect(Array.from(tq)).toEqual([256, ...new Array<number>(63).fill(0)]);
    // A float round trip returns the signal (kissfft float is accurate to a few ulps here).
    const signal = Array.from({ length: 64 }, (_, i) => Math.fround(Math.sin(i / 3) * 100 + (i % 5)));
    const spectrum = new Float32Array(66);
    rfftWide('float32', 64, wideFftTwiddles('float32', 64, false), factors, signal, 64, spectrum);
    const back = new Float32Array(64);
    irfftWide('float32', 64, wideFftTwiddles('float32', 64, true), factors, spectrum, back);
    back.forEach((v, i) => expect(v).toBeCloseTo(signal[i], 3));
  });

  it('rfftFactorCount matches the tables for every supported length', () => {
    for (let n = 4; n <= 32768; n *= 2) expect(rfftFactorCount(n)).toBe(rfftTables(n).factors.length);
  });

  it('energy: the three TFLM index ranges, other bins 0', () => {
    for (const c of ENERGY_CASES) {
      const out = new Uint32Array(8);
      spectrumToEnergy(ENERGY_INPUT, c.start, c.end, out);
      expect(Array.from(out)).toEqual(c.golden);
    }
    const out = new Uint32Array(1);
    spectrumToEnergy([-32768, -32768], 0, 1, out);
    expect(out[0]).toBe(2 ** 31);
  });

  it('filter bank: the 16-channel golden (negative weight wraps through uint64)', () => {
    const out = new BigUint64Array(16);
    filterBank(FILTER_BANK_16.input, FILTER_BANK_16, 16, out);
    expect(Array.from(out, Number)).toEqual(FILTER_BANK_16.golden);
  });

  it('square roots: the 16-channel golden and rounding at the edges', () => {
    const out = new Uint32Array(16);
    filterBankSqrt(BigUint64Array.from(SQRT_16.input), SQRT_16.bits, out);
    expect(Array.from(out)).toEqual(SQRT_16.golden);
    expect([0, 1, 2, 3, 4, 15, 16, 17, 0xffffffff].map(sqrt32)).toEqual([0, 1, 1, 2, 2, 4, 4, 4, 0xffff]);
    expect(sqrt64(2n ** 40n)).toBe(2 ** 20);
    expect(sqrt64(2n ** 64n - 1n)).toBe(0xffffffff);
  });

  it('spectral subtraction: both TFLM goldens from a zero estimate; the estimate carries over', () => {
    const config = (n: number) => ({
      numChannels: n,
      smoothing: 655,
      oneMinusSmoothing: 15729,
      alternateSmoothing: 655,
      alternateOneMinusSmoothing: 15729,
      minSignalRemaining: 819,
      smoothingBits: 0,
      spectralSubtractionBits: 14,
      clamping: false,
    });
    for (const c of [SPECTRAL_SUBTRACTION_32, SPECTRAL_SUBTRACTION_16]) {
      const n = c.input.length;
      const noise = new Uint32Array(n);
      const out = new Uint32Array(n);
      spectralSubtraction(config(n), c.input, out, noise);
      expect(Array.from(out)).toEqual(c.output);
      expect(Array.from(noise)).toEqual(c.noise);
      // A second frame starts from the updated estimate: more noise removed.
      spectralSubtraction(config(n), c.input, out, noise);
      expect(out.every((v, i) => v <= c.output[i])).toBe(true);
      expect(Array.from(out)).not.toEqual(c.output);
    }
  });

  it('pcan: the Mix1Ref1Case golden', () => {
    const out = new Uint32Array(40);
    pcan(PCAN_MIX.input, PCAN_MIX.noise, PCAN_MIX.gainLut, PCAN_MIX.snrShift, out);
    expect(Array.from(out)).toEqual(PCAN_MIX.golden);
  });

  it('filter bank log: both TFLM goldens; 0 and 1 give 0', () => {
    for (const c of [LOG_32, LOG_16]) {
      const out = new Int16Array(c.input.length);
      filterBankLog(c.input, c.outputScale, c.correctionBits, out);
      expect(Array.from(out)).toEqual(c.golden);
    }
    const out = new Int16Array(2);
    filterBankLog([0, 1], 1600, 0, out);
    expect(Array.from(out)).toEqual([0, 0]);
    expect(log32(2, 65536)).toBeGreaterThan(0);
  });
});

/**
 * TFLite Micro's signal-library custom operators imported from .tflite files and run by the
 * interpreter: every output equals TFLM's kernel-test goldens (test/ops/signalVectors.ts);
 * the spectral subtraction's noise estimate carries over between invocations of a session;
 * bad options and tensors are one-line typed errors naming the operator.
 */
import { ModelFormatError, UmaError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { createSession, interpret } from '../../src/interpreter';
import { spectralSubtraction } from '../../src/arith/signal';
import { asI16, asI32, asU32, asU64, i16, i32, oneOpModel, signalOptions, signalOptionsWithExtra, u32, u64 } from './signalModels';
import {
  AUTO_SCALE_BITS,
  AUTO_SCALE_SMALL,
  DELAY_CASES,
  FRAMER_CASES,
  framerSchedule,
  STACKER_CASES,
  OVERLAP_ADD_FLOAT,
  OVERLAP_ADD_INT16,
  ENERGY_CASES,
  ENERGY_INPUT,
  FILTER_BANK_16,
  LOG_16,
  LOG_32,
  PCAN_MIX,
  RFFT_64_IMPULSE,
  SPECTRAL_SUBTRACTION_16,
  SPECTRAL_SUBTRACTION_32,
  SPECTRAL_SUBTRACTION_OPTIONS_16,
  SPECTRAL_SUBTRACTION_OPTIONS_32,
  SQRT_16,
  WINDOW_16,
  WINDOW_32,
} from './signalVectors';
import { IRFFT_512_GOLDEN, RFFT_512_GOLDEN, RFFT_512_INPUT } from './signalRfft512';
import { SPECTRAL_SUBTRACTION_FRAMES } from './signalSpectralFrames';

const run = (model: Uint8Array, inputs: Uint8Array[]): Uint8Array[] => interpret(importTflite(model, 'signal.tflite'), inputs);

describe('signal-library operators in the interpreter (TFLM goldens)', () => {
  it('SignalWindow: both goldens, and a [2, 2, 16] input over 16 weights', () => {
    for (const c of [WINDOW_16, WINDOW_32]) {
      const n = c.input.length;
      const model = oneOpModel('SignalWindow', [{ name: 'x', shape: [1, n], dtype: 'int16' }, { name: 'w', shape: [n], dtype: 'int16', data: c.weights }], [{ name: 'y', shape: [1, n], dtype: 'int16' }], signalOptions({ shift: c.shift }));
      expect(asI16(run(model, [i16(c.input)])[0])).toEqual(c.golden);
    }
    const model = oneOpModel('SignalWindow', [{ name: 'x', shape: [2, 2, 16], dtype: 'int16' }, { name: 'w', shape: [16], dtype: 'int16', data: WINDOW_16.weights }], [{ name: 'y', shape: [2, 2, 16], dtype: 'int16' }], signalOptions({ shift: 12 }));
    const four = (v: number[]): number[] => [...v, ...v, ...v, ...v];
    expect(asI16(run(model, [i16(four(WINDOW_16.input))])[0])).toEqual(four(WINDOW_16.golden));
  });

  it('SignalFftAutoScale: both goldens, samples and shift', () => {
    for (const c of [AUTO_SCALE_SMALL, AUTO_SCALE_BITS]) {
      const model = oneOpModel('SignalFftAutoScale', [{ name: 'x', shape: [8], dtype: 'int16' }], [{ name: 'y', shape: [8], dtype: 'int16' }, { name: 'bits', shape: [], dtype: 'int32' }]);
      const [y, bits] = run(model, [i16(c.input)]);
      expect(asI16(y)).toEqual(c.golden);
      expect(asI32(bits)).toEqual([c.bits]);
    }
  });

  it('SignalRfft (int16): the 64-point impulse and the 512-point golden', () => {
    const model64 = oneOpModel('SignalRfft', [{ name: 'x', shape: [1, 64], dtype: 'int16' }], [{ name: 'y', shape: [1, 66], dtype: 'int16' }], signalOptions({ T: 7, fft_length: 64 }));
    expect(asI16(run(model64, [i16(RFFT_64_IMPULSE.input)])[0])).toEqual(RFFT_64_IMPULSE.golden);
    const model512 = oneOpModel('SignalRfft', [{ name: 'x', shape: [1, 512], dtype: 'int16' }], [{ name: 'y', shape: [1, 514], dtype: 'int16' }], signalOptions({ T: 7, fft_length: 512 }));
    expect(asI16(run(model512, [i16(RFFT_512_INPUT)])[0])).toEqual(RFFT_512_GOLDEN);
  });

  it('SignalIrfft (int16): the 512-point golden, two rows at once, and the 64-point flat spectrum', () => {
    const model = oneOpModel('SignalIrfft', [{ name: 'x', shape: [2, 514], dtype: 'int16' }], [{ name: 'y', shape: [2, 512], dtype: 'int16' }], signalOptions({ T: 7, fft_length: 512 }));
    expect(asI16(run(model, [i16([...RFFT_512_GOLDEN, ...RFFT_512_GOLDEN])])[0])).toEqual([...IRFFT_512_GOLDEN, ...IRFFT_512_GOLDEN]);
    const model64 = oneOpModel('SignalIrfft', [{ name: 'x', shape: [66], dtype: 'int16' }], [{ name: 'y', shape: [64], dtype: 'int16' }], signalOptions({ T: 7, fft_length: 64 }));
    expect(asI16(run(model64, [i16(RFFT_64_IMPULSE.golden)])[0])).toEqual([256, ...new Array<number>(63).fill(0)]);
    const uint8 = oneOpModel('SignalIrfft', [{ name: 'x', shape: [66], dtype: 'int16' }], [{ name: 'y', shape: [64], dtype: 'int16' }], signalOptions({ T: 3, fft_length: 64 }));
    expect(() => importTflite(uint8, 'irfft.tflite')).toThrow(/tensor type T = 3 \(SignalIrfft takes int16, int32 or float32\)/);
  });

  it("SignalRfft and SignalIrfft of int32 and float32: TFLM's 64-point goldens", () => {
    const f32 = (v: number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);
    const asF32 = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer), (v) => v + 0);
    const impulse = [16384, ...new Array<number>(63).fill(0)];
    const flat = Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 256 : 0));
    for (const [dtype, T, bytes, read, scale] of [
      ['int32', 2, i32, asI32, 64],
      ['float32', 0, f32, asF32, 1],
    ] as const) {
      const rfft = oneOpModel('SignalRfft', [{ name: 'x', shape: [1, 64], dtype }], [{ name: 'y', shape: [1, 66], dtype }], signalOptions({ T, fft_length: 64 }));
      expect(read(run(rfft, [bytes(impulse)])[0])).toEqual(Array.from({ length: 66 }, (_, i) => (i % 2 === 0 ? 16384 / scale : 0)));
      const irfft = oneOpModel('SignalIrfft', [{ name: 'x', shape: [2, 66], dtype }], [{ name: 'y', shape: [2, 64], dtype }], signalOptions({ T, fft_length: 64 }));
      const row = [256, ...new Array<number>(63).fill(0)];
      expect(read(run(irfft, [bytes([...flat, ...flat])])[0])).toEqual([...row, ...row]);
    }
  });

  it('SignalEnergy: the three index ranges', () => {
    for (const c of ENERGY_CASES) {
      const model = oneOpModel('SignalEnergy', [{ name: 'x', shape: [16], dtype: 'int16' }], [{ name: 'y', shape: [8], dtype: 'uint32' }], signalOptions({ end_index: c.end, start_index: c.start }));
      expect(asU32(run(model, [i16(ENERGY_INPUT)])[0])).toEqual(c.golden);
    }
  });

  it('SignalFilterBank: the 16-channel golden (uint64 out)', () => {
    const f = FILTER_BANK_16;
    const model = oneOpModel(
      'SignalFilterBank',
      [
        { name: 'x', shape: [f.input.length], dtype: 'uint32' },
        { name: 'w', shape: [f.weights.length], dtype: 'int16', data: f.weights },
        { name: 'uw', shape: [f.unweights.length], dtype: 'int16', data: f.unweights },
        { name: 'fs', shape: [17], dtype: 'int16', data: f.frequencyStarts },
        { name: 'ws', shape: [17], dtype: 'int16', data: f.weightStarts },
        { name: 'cw', shape: [17], dtype: 'int16', data: f.widths },
      ],
      [{ name: 'y', shape: [16], dtype: 'uint64' }],
      signalOptions({ num_channels: 16 }),
    );
    expect(asU64(run(model, [u32(f.input)])[0])).toEqual(f.golden);
  });

  it('SignalFilterBankSquareRoot: the 16-channel golden', () => {
    const model = oneOpModel('SignalFilterBankSquareRoot', [{ name: 'x', shape: [16], dtype: 'uint64' }, { name: 'bits', shape: [], dtype: 'int32' }], [{ name: 'y', shape: [16], dtype: 'uint32' }]);
    expect(asU32(run(model, [u64(SQRT_16.input), new Uint8Array(Int32Array.of(SQRT_16.bits).buffer)])[0])).toEqual(SQRT_16.golden);
  });

  it("SignalFilterBankSpectralSubtraction: TFLM's option bytes and goldens; the estimate persists across a session", () => {
    for (const [c, options] of [
      [SPECTRAL_SUBTRACTION_32, SPECTRAL_SUBTRACTION_OPTIONS_32],
      [SPECTRAL_SUBTRACTION_16, SPECTRAL_SUBTRACTION_OPTIONS_16],
    ] as const) {
      const n = c.input.length;
      const model = oneOpModel('SignalFilterBankSpectralSubtraction', [{ name: 'x', shape: [n], dtype: 'uint32' }], [{ name: 'y', shape: [n], dtype: 'uint32' }, { name: 'noise', shape: [n], dtype: 'uint32' }], options);
      const graph = importTflite(model, 'ss.tflite');
      const [y, noise] = interpret(graph, [u32(c.input)]);
      expect(asU32(y)).toEqual(c.output);
      expect(asU32(noise)).toEqual(c.noise);
      // A session carries the estimate: run 2 equals the algorithm continued from run 1's estimate.
      const session = createSession(graph);
      session.invoke([u32(c.input)]);
      const [y2, noise2] = session.invoke([u32(c.input)]);
      const config = {
        numChannels: n,
        smoothing: 655,
        oneMinusSmoothing: 15729,
        alternateSmoothing: 655,
        alternateOneMinusSmoothing: 15729,
        minSignalRemaining: 819,
        smoothingBits: 0,
        spectralSubtractionBits: 14,
        clamping: false,
      };
      const estimate = Uint32Array.from(c.noise);
      const expected = new Uint32Array(n);
      spectralSubtraction(config, c.input, expected, estimate);
      expect(asU32(y2)).toEqual(Array.from(expected));
      expect(asU32(noise2)).toEqual(Array.from(estimate));
      expect(asU32(y2)).not.toEqual(c.output);
      // A fresh interpret starts from zero again (TFLM's Reset).
      expect(asU32(interpret(graph, [u32(c.input)])[0])).toEqual(c.output);
    }
  });

  it('SignalPCAN: the Mix1Ref1Case golden', () => {
    const model = oneOpModel(
      'SignalPCAN',
      [{ name: 'x', shape: [40], dtype: 'uint32' }, { name: 'noise', shape: [40], dtype: 'uint32' }, { name: 'lut', shape: [125], dtype: 'int16', data: PCAN_MIX.gainLut }],
      [{ name: 'y', shape: [40], dtype: 'uint32' }],
      signalOptions({ snr_shift: 6 }),
    );
    expect(asU32(run(model, [u32(PCAN_MIX.input), u32(PCAN_MIX.noise)])[0])).toEqual(PCAN_MIX.golden);
  });

  it('SignalFilterBankLog: both goldens', () => {
    for (const c of [LOG_32, LOG_16]) {
      const n = c.input.length;
      const model = oneOpModel('SignalFilterBankLog', [{ name: 'x', shape: [n], dtype: 'uint32' }], [{ name: 'y', shape: [n], dtype: 'int16' }], signalOptions({ input_correction_bits: c.correctionBits, output_scale: c.outputScale }));
      expect(asI16(run(model, [u32(c.input)])[0])).toEqual(c.golden);
    }
  });
});

describe('stateful signal operators over a session (TFLM goldens, one frame per invocation)', () => {
  it('SignalDelay: the four delay_test cases; a fresh session starts from zeros again', () => {
    for (const c of DELAY_CASES) {
      const model = oneOpModel('SignalDelay', [{ name: 'x', shape: c.shape, dtype: 'int16' }], [{ name: 'y', shape: c.shape, dtype: 'int16' }], signalOptions({ delay_length: c.delay }));
      const graph = importTflite(model, 'delay.tflite');
      for (let round = 0; round < 2; round++) {
        const session = createSession(graph);
        c.inputs.forEach((frame, k) => expect(asI16(session.invoke([i16(frame)])[0])).toEqual(c.golden[k]));
      }
    }
  });

  it('SignalOverlapAdd: int16 and float32 goldens; [4, 3] frames and [2, 2, 4, 3] rows at once', () => {
    const floatBytes = (v: number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);
    for (const [dtype, c, T] of [
      ['int16', OVERLAP_ADD_INT16, 7],
      ['float32', OVERLAP_ADD_FLOAT, 0],
    ] as const) {
      const model = oneOpModel('SignalOverlapAdd', [{ name: 'x', shape: [1, 3], dtype }], [{ name: 'y', shape: [1], dtype }], signalOptions({ T, frame_step: 1 }));
      const session = createSession(importTflite(model, 'ola.tflite'));
      const outs = c.frames.map((f) => session.invoke([dtype === 'int16' ? i16(f) : floatBytes(f)])[0]);
      const values = outs.map((o) => (dtype === 'int16' ? asI16(o)[0] : new Float32Array(o.slice().buffer)[0]));
      expect(values).toEqual(c.golden.map((g) => (dtype === 'int16' ? g : Math.fround(g))));
    }
    const frames = OVERLAP_ADD_INT16.frames.flat();
    const four = oneOpModel('SignalOverlapAdd', [{ name: 'x', shape: [4, 3], dtype: 'int16' }], [{ name: 'y', shape: [4], dtype: 'int16' }], signalOptions({ T: 7, frame_step: 1 }));
    expect(asI16(interpret(importTflite(four, 'ola4.tflite'), [i16(frames)])[0])).toEqual(OVERLAP_ADD_INT16.golden);
    const rows = oneOpModel('SignalOverlapAdd', [{ name: 'x', shape: [2, 2, 4, 3], dtype: 'int16' }], [{ name: 'y', shape: [2, 2, 4], dtype: 'int16' }], signalOptions({ T: 7, frame_step: 1 }));
    const all = [...frames, ...frames, ...frames, ...frames];
    const g = OVERLAP_ADD_INT16.golden;
    expect(asI16(interpret(importTflite(rows, 'ola_rows.tflite'), [i16(all)])[0])).toEqual([...g, ...g, ...g, ...g]);
  });
});

describe("the spectral subtraction over TFLM's multi-frame test data (the estimate carried)", () => {
  it('eight frames through one interpreter session: every output and estimate', () => {
    const model = oneOpModel('SignalFilterBankSpectralSubtraction', [{ name: 'x', shape: [32], dtype: 'uint32' }], [{ name: 'y', shape: [32], dtype: 'uint32' }, { name: 'noise', shape: [32], dtype: 'uint32' }], SPECTRAL_SUBTRACTION_OPTIONS_32);
    const session = createSession(importTflite(model, 'ss.tflite'));
    SPECTRAL_SUBTRACTION_FRAMES.forEach((f) => {
      const [y, noise] = session.invoke([u32(f.input)]);
      expect(asU32(y)).toEqual(f.output);
      expect(asU32(noise)).toEqual(f.noise);
    });
  });
});

describe('Stacker and Framer (stateful, with an output_valid flag)', () => {
  it("SignalStacker: TFLM's goldens (the first frame fills the left context); the next frame shifts in", () => {
    for (const c of STACKER_CASES) {
      const n = c.options.num_channels;
      const size = c.golden.length;
      const model = oneOpModel('SignalStacker', [{ name: 'x', shape: [n], dtype: 'int16' }], [{ name: 'y', shape: [size], dtype: 'int16' }, { name: 'valid', shape: [], dtype: 'bool' }], signalOptions(c.options));
      const session = createSession(importTflite(model, 'stacker.tflite'));
      const [y, valid] = session.invoke([i16(c.input)]);
      expect(asI16(y)).toEqual(c.golden);
      expect(Array.from(valid)).toEqual([1]);
      const next = c.input.map((v) => v + 1);
      const [y2, valid2] = session.invoke([i16(next)]);
      if (c.options.stacker_step === 1) {
        expect(Array.from(valid2)).toEqual([1]);
        expect(asI16(y2)).toEqual([...c.input, ...next]);
      } else {
        // A step of 2 frames drained the queue: one frame is not enough; the output is 0 then.
        expect(Array.from(valid2)).toEqual([0]);
        expect(asI16(y2)).toEqual(new Array<number>(size).fill(0));
      }
    }
  });

  it("SignalFramer: TFLM's four schedules (prefill or not, several frames, outer dimensions)", () => {
    for (const c of FRAMER_CASES) {
      const model = oneOpModel(
        'SignalFramer',
        [{ name: 'x', shape: c.inputShape, dtype: 'int16' }],
        [{ name: 'y', shape: [...c.inputShape.slice(0, -1), ...c.outputShape.slice(-2)], dtype: 'int16' }, { name: 'valid', shape: [], dtype: 'bool' }],
        signalOptions({ frame_size: c.frameSize, frame_step: c.frameStep, prefill: c.prefill }),
      );
      const session = createSession(importTflite(model, 'framer.tflite'));
      const outer = c.inputShape.slice(0, -1).reduce((a, b) => a * b, 1);
      const schedule = framerSchedule(c);
      expect(schedule.length).toBeGreaterThanOrEqual(c.prefill ? 1 : 3);
      for (const step of schedule) {
        const [y, valid] = session.invoke([i16(step.input)]);
        expect(Array.from(valid)).toEqual([step.ready ? 1 : 0]);
        if (step.ready) expect(asI16(y)).toEqual(Array.from({ length: outer }, () => step.frames.flat()).flat());
      }
    }
  });
});

describe('signal-library operator errors', () => {
  const logModel = (options?: Uint8Array, out: 'int16' | 'int32' = 'int16'): Uint8Array =>
    oneOpModel('SignalFilterBankLog', [{ name: 'x', shape: [4], dtype: 'uint32' }], [{ name: 'y', shape: [4], dtype: out }], options);
  const load = (m: Uint8Array) => () => importTflite(m, 'bad.tflite');

  it('options: missing map, missing key, extra key (TFLM reads by position), shift out of range', () => {
    expect(load(logModel())).toThrow(ModelFormatError);
    expect(load(logModel())).toThrow(/missing custom_options .*SignalFilterBankLog at operator #0/);
    expect(load(logModel(signalOptions({ output_scale: 1 })))).toThrow(/custom_options has no input_correction_bits \(SignalFilterBankLog at operator #0\)/);
    expect(load(logModel(signalOptionsWithExtra({ input_correction_bits: 1, output_scale: 1 }, 'a_first')))).toThrow(/holds 3 entries, expected 2 .*by position/);
    expect(load(logModel(signalOptions({ input_correction_bits: 32, output_scale: 1 })))).toThrow(UnsupportedOperatorError);
    expect(load(logModel(signalOptions({ input_correction_bits: 32, output_scale: 1 })))).toThrow(/input_correction_bits 32 .*SignalFilterBankLog at operator #0/);
  });

  it('tensor types and shapes: wrong dtype, rfft length and type, tables reading out of range, short PCAN table', () => {
    expect(load(logModel(signalOptions({ input_correction_bits: 1, output_scale: 1 }), 'int32'))).toThrow(/output type int32 \(SignalFilterBankLog takes int16\) on SignalFilterBankLog at operator #0/);
    const rfft = (n: number, t = 7) => oneOpModel('SignalRfft', [{ name: 'x', shape: [1, 48], dtype: 'int16' }], [{ name: 'y', shape: [1, n + 2], dtype: 'int16' }], signalOptions({ T: t, fft_length: n }));
    expect(load(rfft(48))).toThrow(/fft_length 48 \(uma-ts supports powers of two/);
    expect(load(rfft(64, 1))).toThrow(/tensor type T = 1/);
    expect(load(rfft(32))).toThrow(/rows of 48 samples are longer than fft_length 32/);
    const bank = (widths: number[]) =>
      oneOpModel(
        'SignalFilterBank',
        [
          { name: 'x', shape: [8], dtype: 'uint32' },
          { name: 'w', shape: [4], dtype: 'int16', data: [1, 2, 3, 4] },
          { name: 'uw', shape: [4], dtype: 'int16', data: [1, 2, 3, 4] },
          { name: 'fs', shape: [3], dtype: 'int16', data: [0, 2, 4] },
          { name: 'ws', shape: [3], dtype: 'int16', data: [0, 1, 2] },
          { name: 'cw', shape: [3], dtype: 'int16', data: widths },
        ],
        [{ name: 'y', shape: [2], dtype: 'uint64' }],
        signalOptions({ num_channels: 2 }),
      );
    expect(() => run(bank([1, 1, 2]), [u32([1, 2, 3, 4, 5, 6, 7, 8])])).not.toThrow();
    expect(load(bank([1, 1, 3]))).toThrow(/channel 2 \(start 4, weight start 2, width 3\) reads past/);
    const pcan = oneOpModel(
      'SignalPCAN',
      [{ name: 'x', shape: [4], dtype: 'uint32' }, { name: 'noise', shape: [4], dtype: 'uint32' }, { name: 'lut', shape: [100], dtype: 'int16', data: new Array<number>(100).fill(0) }],
      [{ name: 'y', shape: [4], dtype: 'uint32' }],
      signalOptions({ snr_shift: 6 }),
    );
    expect(load(pcan)).toThrow(/gain_lut of 100 entries \(the gain function reads up to 125\) on SignalPCAN at operator #0/);
  });

  it('damaged option bytes (every truncation, every single-byte change) end in a typed error or an import', () => {
    const base = SPECTRAL_SUBTRACTION_OPTIONS_16;
    const attempt = (options: Uint8Array): string => {
      const model = oneOpModel('SignalFilterBankSpectralSubtraction', [{ name: 'x', shape: [16], dtype: 'uint32' }], [{ name: 'y', shape: [16], dtype: 'uint32' }, { name: 'n', shape: [16], dtype: 'uint32' }], options);
      try {
        importTflite(model, 'damaged.tflite');
        return 'ok';
      } catch (e) {
        if (!(e instanceof UmaError)) throw e;
        expect(e.message).not.toContain('\n');
        return e.constructor.name;
      }
    };
    const outcomes = new Set<string>();
    for (let n = 0; n < base.length; n++) outcomes.add(attempt(base.slice(0, n)));
    for (let i = 0; i < base.length; i++) for (const v of [0x00, 0xff, base[i] ^ 0x10]) outcomes.add(attempt(Uint8Array.from(base, (b, k) => (k === i ? v : b))));
    expect(outcomes.has('ok')).toBe(true);
    expect(outcomes.has('ModelFormatError')).toBe(true);
  });

  it('a state too large to allocate (a huge delay_length) is a one-line unsupported error', () => {
    const model = oneOpModel('SignalDelay', [{ name: 'x', shape: [4, 4], dtype: 'int16' }], [{ name: 'y', shape: [4, 4], dtype: 'int16' }], signalOptions({ delay_length: 2 ** 30 }));
    expect(load(model)).toThrow(UnsupportedOperatorError);
    expect(load(model)).toThrow(/^unsupported state of 8589934592 bytes \(shape \[4294967296\]\) on SignalDelay at operator #0 in bad\.tflite/);
  });

  it('an unknown Signal custom code is still refused by name', () => {
    const m = oneOpModel('SignalNotAnOp', [{ name: 'x', shape: [66], dtype: 'int16' }], [{ name: 'y', shape: [64], dtype: 'int16' }], signalOptions({ T: 7, fft_length: 64 }));
    expect(load(m)).toThrow(/unsupported TFLite custom operator 'SignalNotAnOp'/);
  });
});

/**
 * TFLite Micro's signal-library operators compiled to C and run under gcc: every operator on
 * TFLM's test vectors in one program, byte-exact with the interpreter (which equals TFLM's
 * goldens); and the micro_speech preprocessor chain over several invocations of one loaded
 * program (the spectral subtraction's noise estimate is persistent state), byte-exact with an
 * interpreter session, which equals a step-by-step composition of the signal arithmetic.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { createSession, interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import {
  applyWindow,
  fftAutoScale,
  filterBank,
  filterBankLog,
  filterBankSqrt,
  pcan,
  rfftInt16,
  rfftTables,
  spectralSubtraction,
  spectrumToEnergy,
} from '../../src/arith/signal';
import { expectRunsByteExact } from '../e2e/harness';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { asI16, asI32, asU32, asU64, CHAIN_SPECTRAL, chainModel, chainTables, ChainParams, i16, i32, manyOpsModel, OpSpec, signalOptions, u32, u64 } from './signalModels';
import {
  AUTO_SCALE_BITS,
  DELAY_CASES,
  FRAMER_CASES,
  framerSchedule,
  STACKER_CASES,
  OVERLAP_ADD_FLOAT,
  OVERLAP_ADD_INT16,
  ENERGY_CASES,
  ENERGY_INPUT,
  FILTER_BANK_16,
  LOG_32,
  PCAN_MIX,
  SPECTRAL_SUBTRACTION_32,
  SPECTRAL_SUBTRACTION_OPTIONS_32,
  SQRT_16,
  WINDOW_32,
} from './signalVectors';
import { IRFFT_512_GOLDEN, RFFT_512_GOLDEN, RFFT_512_INPUT } from './signalRfft512';
import { SPECTRAL_SUBTRACTION_FRAMES } from './signalSpectralFrames';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const OPS: OpSpec[] = [
  { code: 'SignalWindow', inputs: [{ name: 'x', shape: [1, 32], dtype: 'int16' }, { name: 'w', shape: [32], dtype: 'int16', data: WINDOW_32.weights }], outputs: [{ name: 'y', shape: [1, 32], dtype: 'int16' }], options: signalOptions({ shift: 8 }) },
  { code: 'SignalFftAutoScale', inputs: [{ name: 'x', shape: [8], dtype: 'int16' }], outputs: [{ name: 'y', shape: [8], dtype: 'int16' }, { name: 'bits', shape: [], dtype: 'int32' }] },
  { code: 'SignalRfft', inputs: [{ name: 'x', shape: [1, 512], dtype: 'int16' }], outputs: [{ name: 'y', shape: [1, 514], dtype: 'int16' }], options: signalOptions({ T: 7, fft_length: 512 }) },
  { code: 'SignalEnergy', inputs: [{ name: 'x', shape: [16], dtype: 'int16' }], outputs: [{ name: 'y', shape: [8], dtype: 'uint32' }], options: signalOptions({ end_index: 4, start_index: 2 }) },
  {
    code: 'SignalFilterBank',
    inputs: [
      { name: 'x', shape: [129], dtype: 'uint32' },
      { name: 'w', shape: [59], dtype: 'int16', data: FILTER_BANK_16.weights },
      { name: 'uw', shape: [59], dtype: 'int16', data: FILTER_BANK_16.unweights },
      { name: 'fs', shape: [17], dtype: 'int16', data: FILTER_BANK_16.frequencyStarts },
      { name: 'ws', shape: [17], dtype: 'int16', data: FILTER_BANK_16.weightStarts },
      { name: 'cw', shape: [17], dtype: 'int16', data: FILTER_BANK_16.widths },
    ],
    outputs: [{ name: 'y', shape: [16], dtype: 'uint64' }],
    options: signalOptions({ num_channels: 16 }),
  },
  { code: 'SignalFilterBankSquareRoot', inputs: [{ name: 'x', shape: [16], dtype: 'uint64' }, { name: 'bits', shape: [], dtype: 'int32' }], outputs: [{ name: 'y', shape: [16], dtype: 'uint32' }] },
  { code: 'SignalFilterBankSpectralSubtraction', inputs: [{ name: 'x', shape: [32], dtype: 'uint32' }], outputs: [{ name: 'y', shape: [32], dtype: 'uint32' }, { name: 'noise', shape: [32], dtype: 'uint32' }], options: SPECTRAL_SUBTRACTION_OPTIONS_32 },
  {
    code: 'SignalPCAN',
    inputs: [{ name: 'x', shape: [40], dtype: 'uint32' }, { name: 'noise', shape: [40], dtype: 'uint32' }, { name: 'lut', shape: [125], dtype: 'int16', data: PCAN_MIX.gainLut }],
    outputs: [{ name: 'y', shape: [40], dtype: 'uint32' }],
    options: signalOptions({ snr_shift: 6 }),
  },
  { code: 'SignalFilterBankLog', inputs: [{ name: 'x', shape: [32], dtype: 'uint32' }], outputs: [{ name: 'y', shape: [32], dtype: 'int16' }], options: signalOptions({ input_correction_bits: 3, output_scale: 1600 }) },
  { code: 'SignalIrfft', inputs: [{ name: 'x', shape: [1, 514], dtype: 'int16' }], outputs: [{ name: 'y', shape: [1, 512], dtype: 'int16' }], options: signalOptions({ T: 7, fft_length: 512 }) },
  // int32 and float32 FFTs of the 512-point int16 test signal (as values of the type), there and back.
  { code: 'SignalRfft', inputs: [{ name: 'x', shape: [2, 512], dtype: 'int32' }], outputs: [{ name: 'y', shape: [2, 514], dtype: 'int32' }], options: signalOptions({ T: 2, fft_length: 512 }) },
  { code: 'SignalIrfft', inputs: [{ name: 'x', shape: [1, 514], dtype: 'int32' }], outputs: [{ name: 'y', shape: [1, 512], dtype: 'int32' }], options: signalOptions({ T: 2, fft_length: 512 }) },
  { code: 'SignalRfft', inputs: [{ name: 'x', shape: [1, 512], dtype: 'float32' }], outputs: [{ name: 'y', shape: [1, 514], dtype: 'float32' }], options: signalOptions({ T: 0, fft_length: 512 }) },
  { code: 'SignalIrfft', inputs: [{ name: 'x', shape: [1, 514], dtype: 'float32' }], outputs: [{ name: 'y', shape: [1, 512], dtype: 'float32' }], options: signalOptions({ T: 0, fft_length: 512 }) },
];

const INPUTS = [
  i16(WINDOW_32.input),
  i16(AUTO_SCALE_BITS.input),
  i16(RFFT_512_INPUT),
  i16(ENERGY_INPUT),
  u32(FILTER_BANK_16.input),
  u64(SQRT_16.input),
  i32([SQRT_16.bits]),
  u32(SPECTRAL_SUBTRACTION_32.input),
  u32(PCAN_MIX.input),
  u32(PCAN_MIX.noise),
  u32(LOG_32.input),
  i16(RFFT_512_GOLDEN),
  i32([...RFFT_512_INPUT.map((v) => v * 65536), ...RFFT_512_INPUT.map((v) => -v * 131072)]),
  i32(RFFT_512_GOLDEN.map((v) => v * 65536)),
  new Uint8Array(Float32Array.from(RFFT_512_INPUT).buffer),
  new Uint8Array(Float32Array.from(RFFT_512_GOLDEN).buffer),
];

function registry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(HostOnlyBackend);
  return r;
}

describe('signal-library operators under gcc', () => {
  it("every operator on TFLM's vectors: the interpreter equals the goldens, the C equals the interpreter byte for byte", () => {
    const graph = importTflite(manyOpsModel(OPS), 'signal_ops.tflite');
    const expected = interpret(graph, INPUTS);
    expect(expected).toHaveLength(16);
    // The wide FFTs agree with the int16 ones where they should: the float spectrum's bins are
    // within 1% of the int16 golden times fft_length, and the float IRFFT of that golden is within 3 of its int16 IRFFT (truncations of Q15).
    const floatSpectrum = new Float32Array(expected[14].slice().buffer);
    RFFT_512_GOLDEN.forEach((g, i) => expect(Math.abs(floatSpectrum[i] / 512 - g)).toBeLessThan(3 + Math.abs(g) * 0.01));
    const floatTime = new Float32Array(expected[15].slice().buffer);
    IRFFT_512_GOLDEN.forEach((g, i) => expect(Math.abs(floatTime[i] - g)).toBeLessThan(3));
    expect(asI16(expected[0])).toEqual(WINDOW_32.golden);
    expect(asI16(expected[1])).toEqual(AUTO_SCALE_BITS.golden);
    expect(asI32(expected[2])).toEqual([AUTO_SCALE_BITS.bits]);
    expect(asI16(expected[3])).toEqual(RFFT_512_GOLDEN);
    expect(asU32(expected[4])).toEqual(ENERGY_CASES[0].golden);
    expect(asU64(expected[5])).toEqual(FILTER_BANK_16.golden);
    expect(asU32(expected[6])).toEqual(SQRT_16.golden);
    expect(asU32(expected[7])).toEqual(SPECTRAL_SUBTRACTION_32.output);
    expect(asU32(expected[8])).toEqual(SPECTRAL_SUBTRACTION_32.noise);
    expect(asU32(expected[9])).toEqual(PCAN_MIX.golden);
    expect(asI16(expected[10])).toEqual(LOG_32.golden);
    expect(asI16(expected[11])).toEqual(IRFFT_512_GOLDEN);
    const result = compileModel(graph, { backend: 'host_only', registry: registry() });
    const code = result.artifacts.files.map((f) => f.content).join('\n');
    for (const k of ['window', 'fft_auto_scale', 'fft_auto_scale_bits', 'rfft_int16', 'energy', 'filter_bank', 'filter_bank_sqrt', 'spectral_subtraction', 'pcan', 'filter_bank_log', 'irfft_int16', 'rfft_i32', 'irfft_i32', 'rfft_f32', 'irfft_f32']) {
      expect(code).toContain(`uma_ref_signal_${k}(`);
    }
    // The signal kernels ship in their own source; the noise estimate is persistent state, not a planned buffer.
    expect(result.artifacts.runtimeFiles.map((f) => f.path).sort()).toEqual(['include/uma_ref_kernels.h', 'include/uma_runtime.h', 'src/uma_ref_signal.c']);
    expect(result.usmp.buffers.map((b) => b.name).filter((n) => /noise_estimate_state/.test(n))).toEqual([]);
    expect(result.usmp.buffers.map((b) => b.name).some((n) => /_scratch$/.test(n))).toBe(true);
    expectRunsByteExact(result, INPUTS, expected);
  });

  it("the TIR evaluator's twins of the runtime kernels (every operator above, and the stateful ones) agree with the interpreter", () => {
    const graph = importTflite(manyOpsModel(OPS), 'signal_ops.tflite');
    const lowered = runMain(lowerForCpu(graph), INPUTS, { externs: LOWERING_EXTERN_SIMULATIONS });
    const expected = interpret(graph, INPUTS);
    lowered.forEach((o, k) => expect(Buffer.from(o).equals(Buffer.from(expected[k]))).toBe(true));
    const d = DELAY_CASES[3];
    const stateful: OpSpec[] = [
      { code: 'SignalDelay', inputs: [{ name: 'x', shape: d.shape, dtype: 'int16' }], outputs: [{ name: 'y', shape: d.shape, dtype: 'int16' }], options: signalOptions({ delay_length: d.delay }) },
      { code: 'SignalOverlapAdd', inputs: [{ name: 'x', shape: [4, 3], dtype: 'int16' }], outputs: [{ name: 'y', shape: [4], dtype: 'int16' }], options: signalOptions({ T: 7, frame_step: 1 }) },
      { code: 'SignalStacker', inputs: [{ name: 'x', shape: [3], dtype: 'int16' }], outputs: [{ name: 'y', shape: [6], dtype: 'int16' }, { name: 'v', shape: [], dtype: 'bool' }], options: signalOptions(STACKER_CASES[0].options) },
      { code: 'SignalFramer', inputs: [{ name: 'x', shape: [2, 2, 4], dtype: 'int16' }], outputs: [{ name: 'y', shape: [2, 2, 2, 5], dtype: 'int16' }, { name: 'v', shape: [], dtype: 'bool' }], options: signalOptions({ frame_size: 5, frame_step: 2, prefill: true }) },
    ];
    const g2 = importTflite(manyOpsModel(stateful), 'stateful.tflite');
    const inputs = [i16(d.inputs[0]), i16(OVERLAP_ADD_INT16.frames.flat()), i16([5, 6, 7]), i16([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])];
    const low2 = runMain(lowerForCpu(g2), inputs, { externs: LOWERING_EXTERN_SIMULATIONS });
    const exp2 = interpret(g2, inputs);
    expect(low2).toHaveLength(6);
    low2.forEach((o, k) => expect(Buffer.from(o).equals(Buffer.from(exp2[k]))).toBe(true));
  });
});

describe('stateful signal operators under gcc', () => {
  it("Delay and OverlapAdd (int16, float32) over TFLM's frame sequences: C = interpreter session = goldens, state in persistent buffers", () => {
    const d = DELAY_CASES[3];
    const ops: OpSpec[] = [
      { code: 'SignalDelay', inputs: [{ name: 'x', shape: d.shape, dtype: 'int16' }], outputs: [{ name: 'y', shape: d.shape, dtype: 'int16' }], options: signalOptions({ delay_length: d.delay }) },
      { code: 'SignalOverlapAdd', inputs: [{ name: 'x', shape: [1, 3], dtype: 'int16' }], outputs: [{ name: 'y', shape: [1], dtype: 'int16' }], options: signalOptions({ T: 7, frame_step: 1 }) },
      { code: 'SignalOverlapAdd', inputs: [{ name: 'x', shape: [1, 3], dtype: 'float32' }], outputs: [{ name: 'y', shape: [1], dtype: 'float32' }], options: signalOptions({ T: 0, frame_step: 1 }) },
    ];
    const graph = importTflite(manyOpsModel(ops), 'stateful.tflite');
    const f32 = (v: number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);
    const invocations = [0, 1, 2].map((k) => [i16(d.inputs[k]), i16(OVERLAP_ADD_INT16.frames[k]), f32(OVERLAP_ADD_FLOAT.frames[k])]);
    const session = createSession(graph);
    invocations.forEach((inputs, k) => {
      const [y, ola16, olaF] = session.invoke(inputs);
      expect(asI16(y)).toEqual(d.golden[k]);
      expect(asI16(ola16)).toEqual([OVERLAP_ADD_INT16.golden[k]]);
      expect(Array.from(new Float32Array(olaF.slice().buffer))).toEqual([Math.fround(OVERLAP_ADD_FLOAT.golden[k])]);
    });
    const report = verifyModel(graph, { backend: 'host_only', registry: registry(), invocations });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(9);
    expect(report.comparisons.every((c) => c.equal && c.maxAbsDiff === 0)).toBe(true);
    expect(report.compile.usmp.buffers.map((b) => b.name).filter((n) => /_state/.test(n))).toEqual([]);
  });
});

describe("the spectral subtraction under gcc over TFLM's multi-frame test data", () => {
  it('eight invocations of one loaded program: the persistent estimate gives every golden output', () => {
    const model = manyOpsModel([
      { code: 'SignalFilterBankSpectralSubtraction', inputs: [{ name: 'x', shape: [32], dtype: 'uint32' }], outputs: [{ name: 'y', shape: [32], dtype: 'uint32' }, { name: 'noise', shape: [32], dtype: 'uint32' }], options: SPECTRAL_SUBTRACTION_OPTIONS_32 },
    ]);
    const graph = importTflite(model, 'ss.tflite');
    const report = verifyModel(graph, { backend: 'host_only', registry: registry(), invocations: SPECTRAL_SUBTRACTION_FRAMES.map((f) => [u32(f.input)]) });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(16);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
    // The interpreter session verifyModel compared with is the golden one (test/ops/signal.test.ts); check one late frame here too.
    const session = createSession(graph);
    const outs = SPECTRAL_SUBTRACTION_FRAMES.map((f) => session.invoke([u32(f.input)]));
    expect(asU32(outs[7][0])).toEqual(SPECTRAL_SUBTRACTION_FRAMES[7].output);
  });
});

describe('Stacker and Framer under gcc', () => {
  it('over several invocations (queues and counters in persistent int32 state, prefill as its initial value): C = interpreter session = TFLM schedules', () => {
    const f = FRAMER_CASES[0];
    const g = FRAMER_CASES[3];
    const s = STACKER_CASES[0];
    const ops: OpSpec[] = [
      { code: 'SignalStacker', inputs: [{ name: 'x', shape: [3], dtype: 'int16' }], outputs: [{ name: 'y', shape: [6], dtype: 'int16' }, { name: 'valid', shape: [], dtype: 'bool' }], options: signalOptions(s.options) },
      {
        code: 'SignalFramer',
        inputs: [{ name: 'x', shape: f.inputShape, dtype: 'int16' }],
        outputs: [{ name: 'y', shape: f.outputShape, dtype: 'int16' }, { name: 'valid', shape: [], dtype: 'bool' }],
        options: signalOptions({ frame_size: f.frameSize, frame_step: f.frameStep, prefill: f.prefill }),
      },
      {
        code: 'SignalFramer',
        inputs: [{ name: 'x', shape: g.inputShape, dtype: 'int16' }],
        outputs: [{ name: 'y', shape: g.outputShape, dtype: 'int16' }, { name: 'valid', shape: [], dtype: 'bool' }],
        options: signalOptions({ frame_size: g.frameSize, frame_step: g.frameStep, prefill: g.prefill }),
      },
    ];
    const graph = importTflite(manyOpsModel(ops), 'framing.tflite');
    const fs = framerSchedule(f);
    const gs = framerSchedule(g);
    const invocations = fs.map((step, k) => [i16([k * 7 + 1, k * 7 + 2, k * 7 + 3]), i16(step.input), i16(gs[k % gs.length].input)]);
    const session = createSession(graph);
    invocations.forEach((inputs, k) => {
      const [stacked, stackedValid, frames, valid] = session.invoke(inputs);
      expect(Array.from(stackedValid)).toEqual([1]);
      expect(asI16(stacked)).toEqual(k === 0 ? [1, 2, 3, 1, 2, 3] : [k * 7 - 6, k * 7 - 5, k * 7 - 4, k * 7 + 1, k * 7 + 2, k * 7 + 3]);
      expect(Array.from(valid)).toEqual([fs[k].ready ? 1 : 0]);
      if (fs[k].ready) expect(asI16(frames)).toEqual(fs[k].frames.flat());
    });
    const report = verifyModel(graph, { backend: 'host_only', registry: registry(), invocations });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(6 * invocations.length);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
  });
});

describe('signal operators on random full-range inputs', () => {
  it('every operator, random bit patterns (int16/uint32/uint64/int32 extremes, wraps and saturations) over 3 runs: C = interpreter', () => {
    const extra: OpSpec[] = [
      {
        code: 'SignalFilterBankSpectralSubtraction',
        inputs: [{ name: 'x', shape: [8], dtype: 'uint32' }],
        outputs: [{ name: 'y', shape: [8], dtype: 'uint32' }, { name: 'n', shape: [8], dtype: 'uint32' }],
        options: signalOptions({ ...CHAIN_SPECTRAL, num_channels: 8, smoothing_bits: 31, clamping: true, spectral_subtraction_bits: 63 }),
      },
      { code: 'SignalFilterBankLog', inputs: [{ name: 'x', shape: [8], dtype: 'uint32' }], outputs: [{ name: 'y', shape: [8], dtype: 'int16' }], options: signalOptions({ input_correction_bits: 0, output_scale: -1 }) },
      { code: 'SignalPCAN', inputs: [{ name: 'x', shape: [40], dtype: 'uint32' }, { name: 'noise', shape: [40], dtype: 'uint32' }, { name: 'lut', shape: [125], dtype: 'int16', data: PCAN_MIX.gainLut }], outputs: [{ name: 'y', shape: [40], dtype: 'uint32' }], options: signalOptions({ snr_shift: 0 }) },
      { code: 'SignalWindow', inputs: [{ name: 'x', shape: [2, 32], dtype: 'int16' }, { name: 'w', shape: [32], dtype: 'int16', data: WINDOW_32.weights.map((w, i) => (i % 2 === 0 ? -w : w)) }], outputs: [{ name: 'y', shape: [2, 32], dtype: 'int16' }], options: signalOptions({ shift: 0 }) },
    ];
    const ops = OPS.concat(extra);
    const graph = importTflite(manyOpsModel(ops), 'signal_random.tflite');
    for (const seed of [1, 2]) {
      const report = verifyModel(graph, { backend: 'host_only', registry: registry(), runs: 3, seed });
      expect(report.failure).toBeUndefined();
      expect(report.comparisons.length).toBeGreaterThan(40);
      expect(report.comparisons.filter((c) => !c.equal || (c.dtype !== 'float32' && c.maxAbsDiff !== 0))).toEqual([]);
    }
  });
});

/** The chain computed operator by operator with src/arith/signal.ts (and the builtins by hand). */
function composeChain(p: ChainParams, frames: readonly number[][]): { features: number[]; int8: number[]; noise: number[] }[] {
  const t = chainTables(p);
  const noise = new Uint32Array(p.channels);
  const bins = p.fftLength / 2 + 1;
  return frames.map((frame) => {
    const windowed = new Int16Array(p.windowSamples);
    applyWindow(frame, t.window, 12, windowed);
    const scaled = new Int16Array(p.windowSamples);
    const shift = fftAutoScale(windowed, scaled);
    const spectrum = new Int16Array(p.fftLength + 2);
    rfftInt16(rfftTables(p.fftLength), scaled, p.windowSamples, spectrum, new Int16Array(2 * p.fftLength));
    const energy = new Uint32Array(bins);
    spectrumToEnergy(spectrum, t.startIndex, t.endIndex, energy);
    // The slice/concat keeps [start, end) and zeroes the rest, as the energy op already does.
    const bank = new BigUint64Array(p.channels);
    filterBank(energy, t, p.channels, bank);
    const rooted = new Uint32Array(p.channels);
    filterBankSqrt(bank, shift, rooted);
    const denoised = new Uint32Array(p.channels);
    const s = CHAIN_SPECTRAL;
    spectralSubtraction(
      {
        numChannels: p.channels,
        smoothing: s.smoothing,
        oneMinusSmoothing: s.one_minus_smoothing,
        alternateSmoothing: s.alternate_smoothing,
        alternateOneMinusSmoothing: s.alternate_one_minus_smoothing,
        minSignalRemaining: s.min_signal_remaining,
        smoothingBits: s.smoothing_bits,
        spectralSubtractionBits: s.spectral_subtraction_bits,
        clamping: s.clamping,
      },
      rooted,
      denoised,
      noise,
    );
    const gained = new Uint32Array(p.channels);
    pcan(denoised, noise, t.gainLut, 6, gained);
    const features = new Int16Array(p.channels);
    filterBankLog(gained, 64, 3, features);
    const int8 = Array.from(features, (f) => Math.max(Math.min(Math.trunc((f * 256 + 333) / 666) - 128, 127), -128));
    return { features: Array.from(features), int8, noise: Array.from(noise) };
  });
}

function randomFrames(p: ChainParams, count: number, seed: number): number[][] {
  let x = seed;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x;
  };
  // Audio-like frames: a tone whose loudness changes, plus noise.
  return Array.from({ length: count }, (_, k) =>
    Array.from({ length: p.windowSamples }, (_, i) => Math.round(3000 * (1 + k) * Math.sin((2 * Math.PI * 7 * i) / p.windowSamples)) + ((next() >>> 16) % 2001) - 1000),
  );
}

describe('the micro_speech preprocessor chain', () => {
  for (const p of [
    { windowSamples: 48, fftLength: 64, channels: 8, seed: 3 },
    { windowSamples: 480, fftLength: 512, channels: 40, seed: 5 },
  ]) {
    it(`${p.windowSamples}-sample frames, FFT ${p.fftLength}, ${p.channels} channels: 4 invocations, state carried, C = interpreter = composition`, () => {
      const graph = importTflite(chainModel(p), 'audio_preprocessor.tflite');
      const frames = randomFrames(p, 4, p.seed);
      const session = createSession(graph);
      const outputs = frames.map((f) => session.invoke([i16(f)]));
      const composed = composeChain(p, frames);
      outputs.forEach((o, k) => {
        expect(asI16(o[0])).toEqual(composed[k].features);
        expect(Array.from(new Int8Array(o[1].slice().buffer))).toEqual(composed[k].int8);
        expect(asU32(o[2])).toEqual(composed[k].noise);
      });
      // The estimate moves from frame to frame, and features are not all clamped to one value.
      expect(composed[3].noise).not.toEqual(composed[0].noise);
      expect(new Set(composed[1].features).size).toBeGreaterThan(2);
      // The int8 features are not all clamped either.
      expect(new Set(composed.flatMap((c) => c.int8)).size).toBeGreaterThan(2);
      const report = verifyModel(graph, { backend: 'host_only', registry: registry(), invocations: frames.map((f) => [i16(f)]) });
      expect(report.failure).toBeUndefined();
      expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
      expect(report.comparisons).toHaveLength(12);
      expect(report.ok).toBe(true);
    });
  }

  it('on Cortex-M55 (arm-none-eabi-gcc, QEMU): the 64-point chain over 3 invocations, byte-exact with the interpreter', () => {
    const p = { windowSamples: 48, fftLength: 64, channels: 8, seed: 3 };
    const graph = importTflite(chainModel(p), 'audio_preprocessor.tflite');
    const report = verifyModel(graph, { backend: 'host_only', registry: registry(), target: 'cortex-m55', invocations: randomFrames(p, 3, 11).map((f) => [i16(f)]) });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(9);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
  });
});

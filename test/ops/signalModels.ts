/**
 * Models of TFLite Micro's signal-library custom operators built with the TfliteWriter (options
 * as flexbuffer maps), one operator each on TFLM's test vectors, and the micro_speech
 * preprocessor's chain (audio_preprocessor.py: window → FFT auto scale → RFFT → energy (+ the
 * zeroing slice/concat) → filter bank → square root → spectral subtraction → PCAN → log →
 * int8 rescale).
 */
import { builder as flexBuilder } from 'flatbuffers/js/flexbuffers';
import { flexbufferOptions, TfliteWriter, tfliteOptions, WriterDType } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';
import { PCAN_MIX } from './signalVectors';

export type IntOptions = Readonly<Record<string, number | boolean>>;

/** A flexbuffer map of ints (and bools), as TFLM's generated test data holds. */
export function signalOptions(o: IntOptions): Uint8Array {
  return flexbufferOptions(Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'boolean' ? { bool: v } : { int: v }])));
}

/** A flexbuffer map with an extra key (TFLM would read its options shifted). */
export function signalOptionsWithExtra(o: IntOptions, extra: string): Uint8Array {
  const b = flexBuilder();
  b.startMap();
  for (const [k, v] of Object.entries({ ...o, [extra]: 0 })) {
    b.addKey(k);
    if (typeof v === 'boolean') b.add(v);
    else b.addInt(v);
  }
  b.end();
  return b.finish();
}

export interface TensorSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly dtype: WriterDType;
  /** Constant data; without it the tensor is a model input. */
  readonly data?: readonly number[];
}

/** One custom operator: tensors given as specs (inputs or constants), its outputs marked as model outputs. */
export function oneOpModel(code: string, inputs: readonly TensorSpec[], outputs: readonly TensorSpec[], customOptions?: Uint8Array): Uint8Array {
  const w = new TfliteWriter();
  const ins = inputs.map((t) => (t.data ? w.addConstant({ name: t.name, shape: [...t.shape], dtype: t.dtype, data: [...t.data] as number[] }) : w.addInput({ name: t.name, shape: [...t.shape], dtype: t.dtype })));
  const outs = outputs.map((t) => w.addTensor({ name: t.name, shape: [...t.shape], dtype: t.dtype }));
  w.addOperator({ op: 'CUSTOM', customCode: code, inputs: ins, outputs: outs, ...(customOptions ? { customOptions } : {}) });
  outs.forEach((o) => w.markOutput(o));
  return w.finish();
}

export const i16 = (v: readonly number[]): Uint8Array => new Uint8Array(Int16Array.from(v).buffer);
export const u32 = (v: readonly number[]): Uint8Array => new Uint8Array(Uint32Array.from(v).buffer);
export const i32 = (v: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(v).buffer);
export const u64 = (v: readonly bigint[]): Uint8Array => new Uint8Array(BigUint64Array.from(v).buffer);
export const asI16 = (b: Uint8Array): number[] => Array.from(new Int16Array(b.slice().buffer));
export const asU32 = (b: Uint8Array): number[] => Array.from(new Uint32Array(b.slice().buffer));
export const asI32 = (b: Uint8Array): number[] => Array.from(new Int32Array(b.slice().buffer));
export const asU64 = (b: Uint8Array): number[] => Array.from(new BigUint64Array(b.slice().buffer), Number);

/** The preprocessor's parameters at a given size (micro_speech: 480-sample window, FFT 512, 40 channels). */
export interface ChainParams {
  readonly windowSamples: number;
  readonly fftLength: number;
  readonly channels: number;
  readonly seed: number;
}

export interface ChainTables {
  readonly window: number[];
  readonly startIndex: number;
  readonly endIndex: number;
  readonly weights: number[];
  readonly unweights: number[];
  readonly frequencyStarts: number[];
  readonly weightStarts: number[];
  readonly widths: number[];
  readonly gainLut: number[];
}

/** Plausible tables: a Hann-like window in Q12, triangular-ish filters over the used bins. */
export function chainTables(p: ChainParams): ChainTables {
  const r = seededRandom(p.seed);
  const window = Array.from({ length: p.windowSamples }, (_, i) => Math.round(4096 * 0.5 * (1 - Math.cos((2 * Math.PI * i) / p.windowSamples))));
  const bins = p.fftLength / 2 + 1;
  const startIndex = 2;
  const endIndex = bins - 3;
  const frequencyStarts: number[] = [];
  const weightStarts: number[] = [];
  const widths: number[] = [];
  const span = endIndex - startIndex;
  let weightAt = 0;
  for (let c = 0; c <= p.channels; c++) {
    const from = startIndex + Math.floor((c * span) / (p.channels + 1));
    const to = startIndex + Math.floor(((c + 1) * span) / (p.channels + 1));
    const width = Math.max(1, to - from);
    frequencyStarts.push(from);
    weightStarts.push(weightAt);
    widths.push(width);
    weightAt += width;
  }
  const weights = Array.from({ length: weightAt }, () => Math.floor(r() * 4096));
  const unweights = weights.map((w) => 4096 - w);
  return { window, startIndex, endIndex, weights, unweights, frequencyStarts, weightStarts, widths, gainLut: [...PCAN_MIX.gainLut] };
}

/** The micro_speech spectral subtraction and PCAN settings (audio_preprocessor.py's FeatureParams). */
export const CHAIN_SPECTRAL = {
  alternate_one_minus_smoothing: 15401,
  alternate_smoothing: 983,
  clamping: false,
  min_signal_remaining: 819,
  num_channels: 0,
  one_minus_smoothing: 15975,
  smoothing: 409,
  smoothing_bits: 10,
  spectral_subtraction_bits: 14,
};

/**
 * The preprocessor graph on one frame: int16 [1, windowSamples] in; outputs the log features
 * (int16 [channels]), their int8 rescale as audio_preprocessor.py's int8 tail computes it
 * ((x * 256 + 333) truncating-divided by 666, - 128, clamped to [-128, 127]: CAST, MUL, ADD,
 * DIV, ADD, MINIMUM, MAXIMUM, CAST) and the noise estimate.
 */
export function chainModel(p: ChainParams, t: ChainTables = chainTables(p)): Uint8Array {
  const w = new TfliteWriter();
  const bins = p.fftLength / 2 + 1;
  const c = p.channels;
  const tensor = (name: string, shape: number[], dtype: WriterDType): number => w.addTensor({ name, shape, dtype });
  const konst = (name: string, shape: number[], dtype: WriterDType, data: number[]): number => w.addConstant({ name, shape, dtype, data });
  const custom = (code: string, inputs: number[], outputs: number[], options?: IntOptions): void => {
    w.addOperator({ op: 'CUSTOM', customCode: code, inputs, outputs, ...(options ? { customOptions: signalOptions(options) } : {}) });
  };
  const frame = w.addInput({ name: 'audio', shape: [1, p.windowSamples], dtype: 'int16' });
  const windowed = tensor('windowed', [1, p.windowSamples], 'int16');
  custom('SignalWindow', [frame, konst('hann', [p.windowSamples], 'int16', t.window)], [windowed], { shift: 12 });
  const flat = tensor('windowed_flat', [p.windowSamples], 'int16');
  w.addOperator({ op: 'RESHAPE', inputs: [windowed, konst('flat_shape', [1], 'int32', [p.windowSamples])], outputs: [flat] });
  const scaled = tensor('scaled', [p.windowSamples], 'int16');
  const shift = tensor('scale_shift', [], 'int32');
  custom('SignalFftAutoScale', [flat], [scaled, shift]);
  const spectrum = tensor('spectrum', [p.fftLength + 2], 'int16');
  custom('SignalRfft', [scaled], [spectrum], { T: 7, fft_length: p.fftLength });
  const energy = tensor('energy', [bins], 'uint32');
  custom('SignalEnergy', [spectrum], [energy], { end_index: t.endIndex, start_index: t.startIndex });
  // audio_preprocessor.py zeroes the bins outside [start, end) with int32 casts, a slice and a concat.
  const energyI32 = tensor('energy_i32', [bins], 'int32');
  w.addOperator({ op: 'CAST', inputs: [energy], outputs: [energyI32] });
  const middle = tensor('energy_slice', [t.endIndex - t.startIndex], 'int32');
  w.addOperator({
    op: 'STRIDED_SLICE',
    inputs: [energyI32, konst('sb', [1], 'int32', [t.startIndex]), konst('se', [1], 'int32', [t.endIndex]), konst('ss', [1], 'int32', [1])],
    outputs: [middle],
  });
  const joined = tensor('energy_joined', [bins], 'int32');
  w.addOperator({
    op: 'CONCATENATION',
    inputs: [konst('zeros_head', [t.startIndex], 'int32', new Array<number>(t.startIndex).fill(0)), middle, konst('zeros_tail', [bins - t.endIndex], 'int32', new Array<number>(bins - t.endIndex).fill(0))],
    outputs: [joined],
    options: tfliteOptions.concatenation(0),
  });
  const energyU32 = tensor('energy_u32', [bins], 'uint32');
  w.addOperator({ op: 'CAST', inputs: [joined], outputs: [energyU32] });
  const bank = tensor('filter_bank', [c], 'uint64');
  custom(
    'SignalFilterBank',
    [
      energyU32,
      konst('fb_weights', [t.weights.length], 'int16', t.weights),
      konst('fb_unweights', [t.unweights.length], 'int16', t.unweights),
      konst('fb_freq_starts', [c + 1], 'int16', t.frequencyStarts),
      konst('fb_weight_starts', [c + 1], 'int16', t.weightStarts),
      konst('fb_widths', [c + 1], 'int16', t.widths),
    ],
    [bank],
    { num_channels: c },
  );
  const rooted = tensor('filter_bank_sqrt', [c], 'uint32');
  custom('SignalFilterBankSquareRoot', [bank, shift], [rooted]);
  const denoised = tensor('denoised', [c], 'uint32');
  const noise = tensor('noise_estimate', [c], 'uint32');
  custom('SignalFilterBankSpectralSubtraction', [rooted], [denoised, noise], { ...CHAIN_SPECTRAL, num_channels: c });
  const gained = tensor('pcan', [c], 'uint32');
  custom('SignalPCAN', [denoised, noise, konst('gain_lut', [t.gainLut.length], 'int16', t.gainLut)], [gained], { snr_shift: 6 });
  const features = tensor('features', [c], 'int16');
  custom('SignalFilterBankLog', [gained], [features], { input_correction_bits: 3, output_scale: 64 });
  const wide = tensor('features_i32', [c], 'int32');
  w.addOperator({ op: 'CAST', inputs: [features], outputs: [wide] });
  const times = tensor('features_x256', [c], 'int32');
  w.addOperator({ op: 'MUL', inputs: [wide, konst('k256', [], 'int32', [256])], outputs: [times] });
  const rounded = tensor('features_rounded', [c], 'int32');
  w.addOperator({ op: 'ADD', inputs: [times, konst('k333', [], 'int32', [333])], outputs: [rounded] });
  const divided = tensor('features_divided', [c], 'int32');
  w.addOperator({ op: 'DIV', inputs: [rounded, konst('k666', [], 'int32', [666])], outputs: [divided] });
  const shifted = tensor('features_shifted', [c], 'int32');
  w.addOperator({ op: 'ADD', inputs: [divided, konst('k_minus128', [], 'int32', [-128])], outputs: [shifted] });
  const low = tensor('features_low', [c], 'int32');
  w.addOperator({ op: 'MINIMUM', inputs: [shifted, konst('k127', [], 'int32', [127])], outputs: [low] });
  const clamped = tensor('features_clamped', [c], 'int32');
  w.addOperator({ op: 'MAXIMUM', inputs: [low, konst('k_128', [], 'int32', [-128])], outputs: [clamped] });
  const out8 = tensor('features_i8', [c], 'int8');
  w.addOperator({ op: 'CAST', inputs: [clamped], outputs: [out8] });
  w.markOutput(features);
  w.markOutput(out8);
  w.markOutput(noise);
  return w.finish();
}

export interface OpSpec {
  readonly code: string;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  readonly options?: Uint8Array;
}

/** Several custom operators side by side in one model (tensor names prefixed `o<k>_`): one C build. */
export function manyOpsModel(ops: readonly OpSpec[]): Uint8Array {
  const w = new TfliteWriter();
  ops.forEach((op, k) => {
    const name = (n: string): string => `o${k}_${n}`;
    const ins = op.inputs.map((t) =>
      t.data ? w.addConstant({ name: name(t.name), shape: [...t.shape], dtype: t.dtype, data: [...t.data] as number[] }) : w.addInput({ name: name(t.name), shape: [...t.shape], dtype: t.dtype }),
    );
    const outs = op.outputs.map((t) => w.addTensor({ name: name(t.name), shape: [...t.shape], dtype: t.dtype }));
    w.addOperator({ op: 'CUSTOM', customCode: op.code, inputs: ins, outputs: outs, ...(op.options ? { customOptions: op.options } : {}) });
    outs.forEach((o) => w.markOutput(o));
  });
  return w.finish();
}

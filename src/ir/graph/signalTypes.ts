/**
 * Type rules of TFLite Micro's signal-library operators (`signal_*`, ops.ts): the tensor
 * types and ranks their Prepare functions require, and the output each computes.
 */
import { Attrs, DType, TensorType, tensorElements } from './types';
import { typeRuleFail as fail, intAttrOf as intAttr } from './typeRuleErrors';

function need(op: string, args: readonly TensorType[], k: number, dtype: DType, rank: number | 'any', role: string): TensorType {
  const t = args[k];
  if (t.dtype !== dtype) fail(op, `${role} must be ${dtype}`, args);
  if (rank !== 'any' && t.shape.length !== rank) fail(op, `${role} must be ${rank === 0 ? 'a scalar' : `${rank}-d`}`, args);
  return t;
}

function window(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_window';
  const input = need(op, args, 0, 'int16', 'any', 'input');
  const weights = need(op, args, 1, 'int16', 1, 'weights');
  const shift = intAttr(op, attrs, 'shift', args);
  if (shift < 0 || shift > 31) fail(op, `shift ${shift} must be in [0, 31]`, args);
  if (input.shape.length < 1 || weights.shape[0] < 1 || tensorElements(input) % weights.shape[0] !== 0) {
    fail(op, 'the input must be whole runs of the weights', args);
  }
  return { shape: [...input.shape], dtype: 'int16' };
}

function autoScale(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const input = need('signal_fft_auto_scale', args, 0, 'int16', 1, 'input');
  return { shape: [...input.shape], dtype: 'int16' };
}

function autoScaleBits(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  need('signal_fft_auto_scale_bits', args, 0, 'int16', 1, 'input');
  return { shape: [], dtype: 'int32' };
}

const FFT_DTYPES: readonly DType[] = ['int16', 'int32', 'float32'];

function fftInput(op: string, args: readonly TensorType[]): TensorType {
  if (!FFT_DTYPES.includes(args[0].dtype)) fail(op, 'input must be int16, int32 or float32', args);
  return args[0];
}

function rfft(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_rfft';
  const input = fftInput(op, args);
  const n = intAttr(op, attrs, 'fft_length', args);
  const last = input.shape[input.shape.length - 1];
  if (input.shape.length < 1 || last > n) fail(op, `rows of ${last} samples must fit fft_length ${n}`, args);
  return { shape: [...input.shape.slice(0, -1), n + 2], dtype: input.dtype };
}

function irfft(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_irfft';
  const input = fftInput(op, args);
  const n = intAttr(op, attrs, 'fft_length', args);
  const last = input.shape[input.shape.length - 1];
  if (input.shape.length < 1 || last !== n + 2) fail(op, `rows of ${last} int16 must be fft_length + 2 = ${n + 2} (complex bins)`, args);
  return { shape: [...input.shape.slice(0, -1), n], dtype: input.dtype };
}

function energy(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_energy';
  const input = need(op, args, 0, 'int16', 1, 'input');
  const start = intAttr(op, attrs, 'start_index', args);
  const end = intAttr(op, attrs, 'end_index', args);
  const bins = input.shape[0] >> 1;
  if (start < 0 || end < start || end > bins) fail(op, `bins [${start}, ${end}) must lie in the input's ${bins}`, args);
  return { shape: [bins], dtype: 'uint32' };
}

function filterBank(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_filter_bank';
  need(op, args, 0, 'uint32', 1, 'input');
  ['weights', 'unweights', 'channel_frequency_starts', 'channel_weight_starts', 'channel_widths'].forEach((role, k) => need(op, args, k + 1, 'int16', 1, role));
  const channels = intAttr(op, attrs, 'num_channels', args);
  if (channels < 1) fail(op, `num_channels ${channels} must be positive`, args);
  for (const k of [3, 4, 5]) if (args[k].shape[0] < channels + 1) fail(op, `the channel tables must hold num_channels + 1 = ${channels + 1} entries`, args);
  return { shape: [channels], dtype: 'uint64' };
}

function squareRoot(_attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_filter_bank_square_root';
  const input = need(op, args, 0, 'uint64', 1, 'input');
  need(op, args, 1, 'int32', 0, 'scale_bits');
  return { shape: [...input.shape], dtype: 'uint32' };
}

function spectralSubtraction(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_filter_bank_spectral_subtraction';
  const input = need(op, args, 0, 'uint32', 1, 'input');
  const state = need(op, args, 1, 'uint32', 1, 'state');
  const channels = intAttr(op, attrs, 'num_channels', args);
  if (input.shape[0] !== channels || state.shape[0] !== channels) fail(op, `input and state must hold num_channels = ${channels}`, args);
  return { shape: [2 * channels], dtype: 'uint32' };
}

function pcan(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_pcan';
  const input = need(op, args, 0, 'uint32', 1, 'input');
  const noise = need(op, args, 1, 'uint32', 1, 'noise_estimate');
  need(op, args, 2, 'int16', 1, 'gain_lut');
  intAttr(op, attrs, 'snr_shift', args);
  if (noise.shape[0] !== input.shape[0]) fail(op, 'noise_estimate must hold one value per channel', args);
  return { shape: [...input.shape], dtype: 'uint32' };
}

function log(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_filter_bank_log';
  const input = need(op, args, 0, 'uint32', 1, 'input');
  intAttr(op, attrs, 'output_scale', args);
  intAttr(op, attrs, 'input_correction_bits', args);
  return { shape: [...input.shape], dtype: 'int16' };
}

function delayRule(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_delay';
  const input = need(op, args, 0, 'int16', 'any', 'input');
  const state = need(op, args, 1, 'int16', 1, 'state');
  const d = intAttr(op, attrs, 'delay_length', args);
  const frame = input.shape[input.shape.length - 1];
  const rows = frame > 0 ? tensorElements(input) / frame : 0;
  if (input.shape.length < 1 || d < 0 || state.shape[0] < rows * d) fail(op, `state must hold ${rows} rows of delay_length ${d}`, args);
  return { shape: [...input.shape], dtype: 'int16' };
}

function overlapAddRule(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_overlap_add';
  const input = args[0];
  if (input.dtype !== 'int16' && input.dtype !== 'float32') fail(op, 'input must be int16 or float32', args);
  need(op, args, 1, input.dtype, 1, 'state');
  const step = intAttr(op, attrs, 'frame_step', args);
  const rank = input.shape.length;
  if (rank < 2) fail(op, 'input must be [..., frames, frame_size]', args);
  const [frames, size] = input.shape.slice(-2);
  if (step < 0 || step > size) fail(op, `frame_step ${step} must be in [0, frame_size ${size}]`, args);
  const rows = frames * size > 0 ? tensorElements(input) / (frames * size) : 0;
  if (args[1].shape[0] < rows * size) fail(op, `state must hold ${rows} rows of frame_size ${size}`, args);
  return { shape: [...input.shape.slice(0, -2), frames * step], dtype: input.dtype };
}

function stackerRule(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_stacker';
  const input = need(op, args, 0, 'int16', 1, 'input');
  const state = need(op, args, 1, 'int32', 1, 'state');
  const [c, l, r, step] = ['num_channels', 'stacker_left_context', 'stacker_right_context', 'stacker_step'].map((k) => intAttr(op, attrs, k, args));
  const size = c * (l + r + 1);
  if (c < 1 || l < 0 || r < 0 || step < 1 || step > l + r + 1 || input.shape[0] !== c || state.shape[0] !== 2 + size) fail(op, 'options, input or state of the wrong size', args);
  return { shape: [size + 1], dtype: 'int16' };
}

function framerRule(attrs: Attrs, args: readonly TensorType[]): TensorType {
  const op = 'signal_framer';
  const input = need(op, args, 0, 'int16', 'any', 'input');
  need(op, args, 1, 'int32', 1, 'state');
  const size = intAttr(op, attrs, 'frame_size', args);
  const step = intAttr(op, attrs, 'frame_step', args);
  const last = input.shape[input.shape.length - 1];
  if (input.shape.length < 1 || size < 1 || step < 1 || last < step || last % step !== 0) fail(op, `rows of ${last} samples are not whole frame steps of ${step}`, args);
  return { shape: [(tensorElements(input) / step) * size + 1], dtype: 'int16' };
}

function flagRule(attrs: Attrs, args: readonly TensorType[], declared?: TensorType): TensorType {
  // int16: Stacker's and Framer's packed outputs; int8: CIRCULAR_BUFFER's.
  const packed = args[0];
  if ((packed.dtype !== 'int16' && packed.dtype !== 'int8') || packed.shape.length !== 1) fail('signal_flag', 'packed must be a 1-d int16 or int8', args);
  const index = intAttr('signal_flag', attrs, 'index', args);
  if (index < 0 || index >= packed.shape[0]) fail('signal_flag', `index ${index} outside the packed output`, args);
  // A scalar, or any shape of one element as declared (CIRCULAR_BUFFER's valid output may be [1]).
  return { shape: declared && tensorElements(declared) === 1 ? [...declared.shape] : [], dtype: 'bool' };
}

export const SIGNAL_RULES = {
  signal_stacker: stackerRule,
  signal_framer: framerRule,
  signal_flag: flagRule,
  signal_delay: delayRule,
  signal_overlap_add: overlapAddRule,
  signal_window: window,
  signal_fft_auto_scale: autoScale,
  signal_fft_auto_scale_bits: autoScaleBits,
  signal_rfft: rfft,
  signal_irfft: irfft,
  signal_energy: energy,
  signal_filter_bank: filterBank,
  signal_filter_bank_square_root: squareRoot,
  signal_filter_bank_spectral_subtraction: spectralSubtraction,
  signal_pcan: pcan,
  signal_filter_bank_log: log,
};

/**
 * What TFLite Micro's signal-library converters share: the custom options read as its kernels
 * read them (FlexbufferWrapper::ElementAsInt32 / ElementAsBool by position in the sorted map,
 * so the map must hold exactly the kernel's keys), and Prepare's type and rank checks.
 */
import { rfftLengthProblem } from '../../../../arith/signal';
import { DType, TensorType } from '../../../../ir/graph/types';
import { FlexScalar, readFlexMapEntries } from '../../flexOptions';
import { TensorTypeCode } from '../../schema';
import { formatError, inputType, OperatorSite, unsupportedParameter } from '../common';

export interface SignalOptions {
  int(key: string): number;
  bool(key: string): boolean;
}

/** The options map holding exactly `keys` (sorted as flexbuffers sorts them). */
export function signalOptions(site: OperatorSite, keys: readonly string[]): SignalOptions {
  const bytes = site.operator.customOptions;
  if (!bytes || bytes.length === 0) formatError(site, `missing custom_options (the flexbuffer map of ${keys.join(', ')})`);
  if (site.operator.customOptionsFormat !== 0) unsupportedParameter(site, `custom_options_format ${site.operator.customOptionsFormat}`);
  const what = `custom_options of ${site.tfliteName} at operator #${site.index}`;
  const { values: map, size } = readFlexMapEntries(bytes, keys, site.source, site.operator.pos, what);
  for (const key of keys) if (!map.has(key)) formatError(site, `custom_options has no ${key}`);
  if (size !== keys.length) {
    formatError(site, `custom_options holds ${size} entries, expected ${keys.length} (${keys.join(', ')}): TFLite Micro reads them by position`);
  }
  const value = (key: string): number => {
    const v = map.get(key) as FlexScalar;
    if (typeof v === 'string') return formatError(site, `custom_options ${key} is a string`);
    return typeof v === 'boolean' ? (v ? 1 : 0) : v;
  };
  return {
    // AsInt32 of a float truncates; of a wider int keeps the low 32 bits.
    int: (key) => Math.trunc(value(key)) | 0,
    bool: (key) => value(key) !== 0,
  };
}

/** The operator's input and output counts, as its Prepare requires them. */
export function requireCounts(site: OperatorSite, inputs: number, outputs: number): void {
  if (site.inputTypes.length !== inputs) formatError(site, `has ${site.inputTypes.length} inputs, expected ${inputs}`);
  if (site.outputTypes.length !== outputs) formatError(site, `has ${site.outputTypes.length} outputs, expected ${outputs}`);
}

/** A tensor of `dtype` and rank `rank` ('>=1': at least one axis), else an unsupported type. */
export function requireTensor(site: OperatorSite, t: TensorType, dtype: DType, rank: number | '>=1', role: string): TensorType {
  if (t.dtype !== dtype) unsupportedParameter(site, `${role} type ${t.dtype} (${site.tfliteName} takes ${dtype})`);
  const ok = rank === '>=1' ? t.shape.length >= 1 : t.shape.length === rank;
  if (!ok) formatError(site, `${role} of shape [${t.shape}], expected ${rank === '>=1' ? 'at least 1' : rank} dimension${rank === 1 ? '' : 's'}`);
  return t;
}

export function input(site: OperatorSite, k: number, dtype: DType, rank: number | '>=1', role: string): TensorType {
  return requireTensor(site, inputType(site, k, role), dtype, rank, role);
}

export function output(site: OperatorSite, k: number, dtype: DType, rank: number | '>=1', role: string): TensorType {
  return requireTensor(site, site.outputTypes[k], dtype, rank, role);
}

/** An option that is a shift count C leaves undefined outside [0, max]. */
export function requireShift(site: OperatorSite, key: string, value: number, max: number): number {
  if (value < 0 || value > max) unsupportedParameter(site, `${key} ${value} (a shift count; TFLite Micro's C is undefined outside [0, ${max}])`);
  return value;
}

/** The int16 values of constant input `k`, or an unsupported-parameter error naming `role`. */
export function constantInt16(site: OperatorSite, k: number, role: string): Int16Array {
  const bytes = site.constantInput(k);
  if (bytes === null) unsupportedParameter(site, `${role} computed at run time (uma-ts needs it constant to check its indices)`);
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Int16Array(copy.buffer, 0, copy.length >> 1);
}

/** The tensor type of option T of an FFT operator (TFLite's TensorType codes: int16, int32 or float32). */
function fftType(site: OperatorSite, t: number): DType {
  if (t === TensorTypeCode.INT16) return 'int16';
  if (t === TensorTypeCode.INT32) return 'int32';
  if (t === TensorTypeCode.FLOAT32) return 'float32';
  return unsupportedParameter(site, `tensor type T = ${t} (${site.tfliteName} takes int16, int32 or float32)`);
}

/**
 * What SignalRfft and SignalIrfft read alike: one input and one output of the options' type T,
 * and fft_length, a length their kissfft supports.
 */
export function fftSite(site: OperatorSite): { readonly x: TensorType; readonly out: TensorType; readonly fftLength: number } {
  requireCounts(site, 1, 1);
  const options = signalOptions(site, ['T', 'fft_length']);
  const dtype = fftType(site, options.int('T'));
  const x = input(site, 0, dtype, '>=1', 'input');
  const out = output(site, 0, dtype, '>=1', 'output');
  const fftLength = options.int('fft_length');
  const problem = rfftLengthProblem(fftLength);
  if (problem !== undefined) unsupportedParameter(site, problem);
  return { x, out, fftLength };
}

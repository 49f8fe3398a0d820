/**
 * A small network builder on the TfliteWriter that writes one network description in both
 * forms real models come in: float32, and int8 as the TFLite converter emits it (per-channel
 * symmetric conv weights, per-tensor FULLY_CONNECTED weights, int32 biases at input scale x
 * weight scale, asymmetric activations from calibrated ranges, LOGISTIC/SOFTMAX outputs at
 * 1/256 - 128, TANH at 1/128, data-movement operators and CONCATENATION inputs sharing their
 * output's quantization).
 *
 * Quantization is calibrated the way the converter does it: the float model is built with
 * every activation as an extra output, run by the interpreter on representative inputs, and
 * each activation's [min, max] (widened to contain 0) gives its int8 scale and zero point.
 * Tensors that must share a quantization (CONCATENATION inputs and output, RESHAPE input and
 * output, ...) are grouped and take the union of their ranges.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterActivation, WriterOptions, BUILTIN_OPTIONS } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { seededRandom } from '../../src/util/random';

/** 'int16': the converter's 16x8 mode (int16 activations, symmetric zero point 0; int8 weights; int64 biases). */
export type NetMode = 'float32' | 'int8' | 'int16';

export interface Quant {
  readonly scale: number;
  readonly zp: number;
}

/** A tensor of the network being built: writer index, name, shape, and its int8 quantization (int8 mode). */
export interface T {
  readonly index: number;
  readonly name: string;
  readonly shape: readonly number[];
  readonly dtype: 'float32' | 'int8' | 'int16' | 'int32';
  readonly q?: Quant;
}

/** What a calibrating float run learned: per activation name, its range, groups already merged. */
export type Calibration = ReadonlyMap<string, readonly [number, number]>;

const LOGISTIC_Q: Quant = { scale: 1 / 256, zp: -128 };
const TANH_Q: Quant = { scale: 1 / 128, zp: 0 };
/** 16x8: LOGISTIC, TANH and SOFTMAX outputs at 2^-15, zero point 0 (what TFLite's kernels require). */
const INT16_UNIT_Q: Quant = { scale: 1 / 32768, zp: 0 };

/** The quantized activation type of a mode. */
const quantizedOf = (mode: NetMode): 'int8' | 'int16' => (mode === 'int16' ? 'int16' : 'int8');
const isQuantized = (t: { dtype: string }): boolean => t.dtype === 'int8' || t.dtype === 'int16';

/** The converter's 16x8 activation quantization: symmetric, zero point 0. */
function quant16OfRange(min: number, max: number): Quant {
  const m = Math.max(Math.abs(min), Math.abs(max));
  return { scale: m > 1e-6 ? m / 32767 : 1 / 32767, zp: 0 };
}

function quantOfRange(min: number, max: number): Quant {
  const lo = Math.min(0, min);
  const hi = Math.max(0, max);
  const scale = hi - lo > 1e-6 ? (hi - lo) / 255 : 1 / 255;
  const zp = Math.max(-128, Math.min(127, Math.round(-128 - lo / scale)));
  return { scale, zp };
}

/** 'float32' for a float tensor (a float part of an int8 model), else undefined (the model's own type). */
const floatOf = (t: T): 'float32' | undefined => (t.dtype === 'float32' ? 'float32' : undefined);

const count = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Union-find over tensor names (tensors that share one quantization). */
class Groups {
  private readonly parent = new Map<string, string>();
  find(a: string): string {
    let p = this.parent.get(a) ?? a;
    if (p !== a) {
      p = this.find(p);
      this.parent.set(a, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}

export class NetBuilder {
  readonly w: TfliteWriter;
  /** Every operator output, in creation order (the calibrating run marks them all as outputs). */
  readonly activations: T[] = [];
  readonly inputs: T[] = [];
  readonly outputs: T[] = [];
  readonly groups = new Groups();
  /**
   * Activations left out of the every-activation model: LiteRT (WASM) hands back a stale buffer
   * for a model output whose shape it computes at run time (RESHAPE by a computed shape tensor;
   * the SHAPE -> STRIDED_SLICE -> PACK tensors are not offered either: as outputs LiteRT gives
   * garbage for them too).
   */
  readonly runtimeShaped = new Set<T>();
  private readonly rnd: () => number;
  /** Set by `pruned`: weights made now have an all-zero channel 1. */
  private pruning = false;
  private readonly shared = new Map<string, { values: number[]; biasValues: number[]; wt: number; bias: number }>();
  private prefix = '';

  constructor(
    readonly mode: NetMode,
    private readonly calibration: Calibration | undefined,
    seed: number,
    description = 'uma-ts realistic network',
  ) {
    this.w = new TfliteWriter(description);
    this.rnd = seededRandom(seed);
  }

  /** Prefix for the names of what follows (several networks side by side in one model). */
  scope(prefix: string): void {
    this.prefix = prefix;
  }

  private quantFor(name: string): Quant {
    if (this.mode === 'float32') throw new Error('quantization asked for in float mode');
    const r = this.calibration?.get(name);
    if (!r) throw new Error(`no calibrated range for ${name}`);
    return this.mode === 'int16' ? quant16OfRange(r[0], r[1]) : quantOfRange(r[0], r[1]);
  }

  /** A new activation: `q` fixed, the same as `like`'s (grouped), or calibrated. */
  protected tensor(base: string, shape: readonly number[], opts: { fixed?: Quant; like?: T; dtype?: 'float32' | 'int8' | 'int16' } = {}): T {
    const name = `${this.prefix}${base}`;
    const dtype = opts.dtype ?? (this.mode === 'float32' ? 'float32' : quantizedOf(this.mode));
    if (opts.like) this.groups.union(name, opts.like.name);
    let q: Quant | undefined;
    if (dtype !== 'float32') q = opts.fixed ?? (opts.like?.q && opts.like.dtype === dtype ? opts.like.q : this.quantFor(name));
    const index = this.w.addTensor({ name, shape, dtype, quant: q ? { scale: [q.scale], zeroPoint: [q.zp] } : undefined, shapeSignature: this.signatureOf(shape) });
    const t: T = { index, name, shape, dtype, q };
    this.activations.push(t);
    return t;
  }

  /** The fixed output quantization of LOGISTIC/TANH/SOFTMAX in this mode (int8: `q`; 16x8: 2^-15). */
  private fixedInt8(q: Quant): Quant | undefined {
    return this.mode === 'int8' ? q : this.mode === 'int16' ? INT16_UNIT_Q : undefined;
  }

  /** Set by `dynamicBatch`: activations and inputs carry shape_signature [-1, ...] (a Keras model's unknown batch). */
  protected dynamic = false;

  protected signatureOf(shape: readonly number[]): number[] | undefined {
    return this.dynamic && shape.length >= 2 && shape[0] === 1 ? [-1, ...shape.slice(1)] : undefined;
  }

  /** Tensors made by `build` have a dynamic batch dimension (shape_signature -1), as Keras models are converted. */
  dynamicBatch<R>(build: () => R): R {
    this.dynamic = true;
    try {
      return build();
    } finally {
      this.dynamic = false;
    }
  }

  /** A model input of the model's type, or int32 (ids), or float32 (the float interface of an int8 model). */
  input(base: string, shape: readonly number[], dtype?: 'int32' | 'float32'): T {
    const name = `${this.prefix}${base}`;
    if (dtype) {
      const index = this.w.addInput({ name, shape, dtype, shapeSignature: this.signatureOf(shape) });
      const t: T = { index, name, shape, dtype };
      this.inputs.push(t);
      return t;
    }
    const q = this.mode !== 'float32' ? this.quantFor(name) : undefined;
    const index = this.w.addInput({ name, shape, dtype: this.mode, quant: q ? { scale: [q.scale], zeroPoint: [q.zp] } : undefined, shapeSignature: this.signatureOf(shape) });
    const t: T = { index, name, shape, dtype: this.mode, q };
    this.inputs.push(t);
    return t;
  }

  output(t: T): void {
    this.outputs.push(t);
  }

  private uniform(n: number, a: number): number[] {
    return Array.from({ length: n }, () => (this.rnd() * 2 - 1) * a);
  }

  protected i32(base: string, values: readonly number[]): number {
    return this.w.addConstant({ name: `${this.prefix}${base}`, shape: [values.length], dtype: 'int32', data: values });
  }

  /** A constant operand of an elementwise operator (int8: asymmetric per-tensor, as the converter quantizes it). */
  constant(base: string, shape: readonly number[], values: readonly number[], dtype?: 'float32'): T {
    const name = `${this.prefix}${base}`;
    if (this.mode === 'float32' || dtype === 'float32') {
      const index = this.w.addConstant({ name, shape, dtype: 'float32', data: new Float32Array(values) });
      return { index, name, shape, dtype: 'float32' };
    }
    if (this.mode === 'int16') {
      const q = quant16OfRange(Math.min(...values), Math.max(...values));
      const data = new Int16Array(values.map((v) => Math.max(-32768, Math.min(32767, Math.round(v / q.scale)))));
      const index = this.w.addConstant({ name, shape, dtype: 'int16', quant: { scale: [q.scale], zeroPoint: [0] }, data });
      return { index, name, shape, dtype: 'int16', q };
    }
    const q = quantOfRange(Math.min(...values), Math.max(...values));
    const data = values.map((v) => Math.max(-128, Math.min(127, Math.round(v / q.scale) + q.zp)));
    const index = this.w.addConstant({ name, shape, dtype: 'int8', quant: { scale: [q.scale], zeroPoint: [q.zp] }, data: new Int8Array(data) });
    return { index, name, shape, dtype: 'int8', q };
  }

  /**
   * Weights (float values uniform in ±1/sqrt(fanIn)) and bias; int8: symmetric int8 per
   * channel along `channelAxis` (or per tensor), bias int32 at input scale x weight scale.
   */
  protected weights(
    base: string,
    shape: readonly number[],
    channelAxis: number,
    input: T,
    perTensor: boolean,
    withBias = true,
    share?: string,
  ): { wt: number; bias: number } {
    const channels = shape[channelAxis];
    const n = count(shape);
    const fanIn = n / channels;
    const cached = share ? this.shared.get(share) : undefined;
    const values = cached?.values ?? this.uniform(n, 1.5 / Math.sqrt(fanIn));
    // A pruned filter: channel 1 all zeros (int8: its per-channel scale is 0, as TFLite's quantizer writes it).
    const innerOf = shape.slice(channelAxis + 1).reduce((a, b) => a * b, 1);
    if (this.pruning && !cached) values.forEach((_, i) => (Math.floor(i / innerOf) % channels === 1 ? (values[i] = 0) : undefined));
    const biasValues = cached?.biasValues ?? this.uniform(channels, 0.2);
    const name = `${this.prefix}${share ?? base}`;
    if (this.mode === 'float32') {
      const wt = cached?.wt ?? this.w.addConstant({ name: `${name}_w`, shape, dtype: 'float32', data: new Float32Array(values) });
      const bias = withBias ? (cached?.bias ?? this.w.addConstant({ name: `${name}_b`, shape: [channels], dtype: 'float32', data: new Float32Array(biasValues) })) : -1;
      if (share && !cached) this.shared.set(share, { values, biasValues, wt, bias });
      return { wt, bias };
    }
    // Index of each weight's channel.
    const inner = shape.slice(channelAxis + 1).reduce((a, b) => a * b, 1);
    const chan = (i: number) => Math.floor(i / inner) % channels;
    const maxAbs = new Array<number>(perTensor ? 1 : channels).fill(0);
    values.forEach((v, i) => {
      const c = perTensor ? 0 : chan(i);
      maxAbs[c] = Math.max(maxAbs[c], Math.abs(v));
    });
    // Per-tensor: an all-zero tensor gets 1 (TFLite's per-tensor quantizer); per channel: 0.
    const scales = maxAbs.map((m) => (m > 0 ? m / 127 : perTensor ? 1 : 0));
    const data = new Int8Array(values.map((v, i) => Math.round(v / scales[perTensor ? 0 : chan(i)])));
    const wt =
      cached?.wt ??
      this.w.addConstant({
        name: `${name}_w`,
        shape,
        dtype: 'int8',
        quant: { scale: scales, zeroPoint: scales.map(() => 0), axis: perTensor ? 0 : channelAxis },
        data,
      });
    // A shared weight tensor keeps one constant; the bias follows each use's input scale (as the converter duplicates it).
    if (share && !cached) this.shared.set(share, { values, biasValues, wt, bias: -1 });
    if (!withBias) return { wt, bias: -1 };
    const biasScales = (perTensor ? new Array<number>(channels).fill(scales[0]) : scales).map((s) => Math.fround(input.q!.scale) * Math.fround(s));
    // 16x8: int64 biases (the converter's choice for int16 activations).
    const bias = this.w.addConstant({
      name: `${this.prefix}${base}_b`,
      shape: [channels],
      dtype: this.mode === 'int16' ? 'int64' : 'int32',
      quant: { scale: perTensor ? [biasScales[0]] : biasScales, zeroPoint: (perTensor ? [0] : biasScales.map(() => 0)), axis: 0 },
      // A pruned channel (weight scale 0) has bias scale 0: its bias is 0.
      data: biasValues.map((v, c) => (biasScales[c] > 0 ? Math.round(v / biasScales[c]) : 0)),
    });
    return { wt, bias };
  }

  protected op(op: string, inputs: readonly number[], outputs: readonly number[], options?: WriterOptions): void {
    this.w.addOperator({ op, inputs, outputs, options });
  }

  /** `dilation` > 1: a dilated (atrous) conv, as newer converters keep it in CONV_2D's options. */
  /** `k`/`stride` as [h, w]: a rectangular kernel or stride (DS-CNN's 10x4 conv, a Conv1D's 1xk). */
  conv(
    x: T,
    base: string,
    out: number,
    k: number | readonly [number, number],
    stride: number | readonly [number, number],
    padding: 'SAME' | 'VALID',
    activation: WriterActivation = 'NONE',
    dilation = 1,
  ): T {
    const [kh, kw] = typeof k === 'number' ? [k, k] : k;
    const [sh, sw] = typeof stride === 'number' ? [stride, stride] : stride;
    const { wt, bias } = this.weights(base, [out, kh, kw, x.shape[3]], 0, x, false);
    const [, h, wd] = x.shape;
    const oh = padding === 'SAME' ? Math.ceil(h / sh) : Math.floor((h - ((kh - 1) * dilation + 1)) / sh) + 1;
    const ow = padding === 'SAME' ? Math.ceil(wd / sw) : Math.floor((wd - ((kw - 1) * dilation + 1)) / sw) + 1;
    const y = this.tensor(base, [x.shape[0], oh, ow, out]);
    this.op('CONV_2D', [x.index, wt, bias], [y.index], tfliteOptions.conv2d({ padding, strideW: sw, strideH: sh, activation, dilationW: dilation, dilationH: dilation }));
    return y;
  }

  /** EXPAND_DIMS at `axis` (axis a constant tensor), sharing the input's quantization. */
  expandDims(x: T, base: string, axis: number): T {
    const shape = [...x.shape.slice(0, axis), 1, ...x.shape.slice(axis)];
    const y = this.tensor(base, shape, { like: x });
    const a = this.w.addConstant({ name: `${this.prefix}${base}/dim`, shape: [], dtype: 'int32', data: [axis] });
    this.op('EXPAND_DIMS', [x.index, a], [y.index], tfliteOptions.empty(BUILTIN_OPTIONS.ExpandDimsOptions));
    return y;
  }

  /** SQUEEZE of `dims`, sharing the input's quantization. */
  squeeze(x: T, base: string, dims: readonly number[]): T {
    const y = this.tensor(base, x.shape.filter((_, i) => !dims.includes(i)), { like: x });
    this.op('SQUEEZE', [x.index], [y.index], tfliteOptions.squeeze(dims));
    return y;
  }

  /** Keras' Conv1D on [batch, steps, channels] as the converter spells it: EXPAND_DIMS (axis 1) -> CONV_2D 1xk -> SQUEEZE. */
  conv1d(x: T, base: string, out: number, k: number, stride: number, padding: 'SAME' | 'VALID', activation: WriterActivation = 'NONE'): T {
    const e = this.expandDims(x, `${base}/conv1d/ExpandDims`, 1);
    const c = this.conv(e, `${base}/conv1d`, out, [1, k], [1, stride], padding, activation);
    return this.squeeze(c, `${base}/conv1d/Squeeze`, [1]);
  }

  /** Keras' MaxPooling1D: EXPAND_DIMS (axis 1) -> MAX_POOL_2D 1xk -> SQUEEZE. */
  maxPool1d(x: T, base: string, k: number): T {
    const e = this.expandDims(x, `${base}/ExpandDims`, 1);
    const [, , w, c] = e.shape;
    const p = this.tensor(`${base}/MaxPool`, [1, 1, Math.floor((w - k) / k) + 1, c], { like: e });
    this.op('MAX_POOL_2D', [e.index], [p.index], tfliteOptions.pool2d({ padding: 'VALID', strideW: k, strideH: 1, filterW: k, filterH: 1 }));
    return this.squeeze(p, `${base}/Squeeze`, [1]);
  }

  /** `multiplier` > 1: depth_multiplier output channels per input channel; `dilation` > 1: dilated. */
  depthwise(x: T, base: string, k: number, stride: number, padding: 'SAME' | 'VALID', activation: WriterActivation = 'NONE', o: { multiplier?: number; dilation?: number } = {}): T {
    const m = o.multiplier ?? 1;
    const d = o.dilation ?? 1;
    const c = x.shape[3] * m;
    const { wt, bias } = this.weights(base, [1, k, k, c], 3, x, false);
    const [, h, wd] = x.shape;
    const ek = (k - 1) * d + 1;
    const oh = padding === 'SAME' ? Math.ceil(h / stride) : Math.floor((h - ek) / stride) + 1;
    const ow = padding === 'SAME' ? Math.ceil(wd / stride) : Math.floor((wd - ek) / stride) + 1;
    const y = this.tensor(base, [x.shape[0], oh, ow, c]);
    this.op(
      'DEPTHWISE_CONV_2D',
      [x.index, wt, bias],
      [y.index],
      tfliteOptions.depthwiseConv2d({ padding, strideW: stride, strideH: stride, depthMultiplier: m, activation, dilationW: d, dilationH: d }),
    );
    return y;
  }

  /** FULLY_CONNECTED over the last axis; `keepNumDims` keeps a 3-D input's leading axes. */
  fc(x: T, base: string, units: number, o: { activation?: WriterActivation; keepNumDims?: boolean; bias?: boolean; share?: string; perChannel?: boolean } = {}): T {
    const inner = x.shape[x.shape.length - 1];
    const { wt, bias } = this.weights(base, [units, inner], 0, x, !o.perChannel, o.bias ?? true, o.share);
    const shape = o.keepNumDims ? [...x.shape.slice(0, -1), units] : [count(x.shape) / inner, units];
    const y = this.tensor(base, shape);
    this.op('FULLY_CONNECTED', [x.index, wt, bias], [y.index], tfliteOptions.fullyConnected({ activation: o.activation, keepNumDims: o.keepNumDims }));
    return y;
  }

  private broadcastShape(a: readonly number[], b: readonly number[]): number[] {
    const n = Math.max(a.length, b.length);
    const pa = [...new Array<number>(n - a.length).fill(1), ...a];
    const pb = [...new Array<number>(n - b.length).fill(1), ...b];
    return pa.map((d, i) => Math.max(d, pb[i]));
  }

  binary(op: 'ADD' | 'SUB' | 'MUL' | 'SQUARED_DIFFERENCE' | 'DIV', a: T, b: T, base: string, activation?: WriterActivation): T {
    const y = this.tensor(base, this.broadcastShape(a.shape, b.shape), { dtype: floatOf(a) });
    const options =
      op === 'ADD'
        ? tfliteOptions.add(activation)
        : op === 'SUB'
          ? tfliteOptions.sub(activation)
          : op === 'MUL'
            ? tfliteOptions.mul(activation)
            : op === 'DIV'
              ? tfliteOptions.div(activation)
              : tfliteOptions.empty(BUILTIN_OPTIONS.SquaredDifferenceOptions);
    this.op(op, [a.index, b.index], [y.index], options);
    return y;
  }

  unary(op: 'HARD_SWISH' | 'LOGISTIC' | 'TANH' | 'RELU' | 'RELU6' | 'RSQRT', x: T, base: string): T {
    const fixed = op === 'LOGISTIC' ? LOGISTIC_Q : op === 'TANH' ? TANH_Q : undefined;
    const dtype = floatOf(x);
    const y = this.tensor(base, x.shape, { dtype, fixed: dtype ? undefined : fixed && this.fixedInt8(fixed) });
    this.op(op, [x.index], [y.index]);
    return y;
  }

  mean(x: T, axes: readonly number[], keepDims: boolean, base: string): T {
    const shape = keepDims ? x.shape.map((d, i) => (axes.includes(i) ? 1 : d)) : x.shape.filter((_, i) => !axes.includes(i));
    const y = this.tensor(base, shape);
    this.op('MEAN', [x.index, this.i32(`${base}_axes`, axes)], [y.index], tfliteOptions.reducer(keepDims));
    return y;
  }

  pad(x: T, base: string, pads: readonly (readonly [number, number])[]): T {
    const p = this.w.addConstant({ name: `${this.prefix}${base}_p`, shape: [pads.length, 2], dtype: 'int32', data: pads.flat() });
    const y = this.tensor(base, x.shape.map((d, i) => d + pads[i][0] + pads[i][1]), { like: x });
    this.op('PAD', [x.index, p], [y.index], tfliteOptions.empty(BUILTIN_OPTIONS.PadOptions));
    return y;
  }

  maxPool(x: T, base: string, k: number, stride: number, padding: 'SAME' | 'VALID'): T {
    const [, h, wd, c] = x.shape;
    const oh = padding === 'SAME' ? Math.ceil(h / stride) : Math.floor((h - k) / stride) + 1;
    const ow = padding === 'SAME' ? Math.ceil(wd / stride) : Math.floor((wd - k) / stride) + 1;
    const y = this.tensor(base, [x.shape[0], oh, ow, c], { like: x });
    this.op('MAX_POOL_2D', [x.index], [y.index], tfliteOptions.pool2d({ padding, strideW: stride, strideH: stride, filterW: k, filterH: k }));
    return y;
  }

  /** `k` as [h, w]: a rectangular window (DS-CNN's global average pool over a non-square map). */
  avgPool(x: T, base: string, k: number | readonly [number, number], stride: number, padding: 'SAME' | 'VALID'): T {
    const [kh, kw] = typeof k === 'number' ? [k, k] : k;
    const [, h, wd, c] = x.shape;
    const oh = padding === 'SAME' ? Math.ceil(h / stride) : Math.floor((h - kh) / stride) + 1;
    const ow = padding === 'SAME' ? Math.ceil(wd / stride) : Math.floor((wd - kw) / stride) + 1;
    const y = this.tensor(base, [x.shape[0], oh, ow, c], { like: x });
    this.op('AVERAGE_POOL_2D', [x.index], [y.index], tfliteOptions.pool2d({ padding, strideW: stride, strideH: stride, filterW: kw, filterH: kh }));
    return y;
  }

  /** RESHAPE with a shape tensor and new_shape (`bare`: the shape tensor only, no options table, as newer converters write it). */
  reshape(x: T, base: string, shape: readonly number[], bare = false): T {
    const y = this.tensor(base, shape, { like: x });
    const s = this.w.addConstant({ name: `${this.prefix}${base}_shape`, shape: [shape.length], dtype: 'int32', data: shape });
    this.op('RESHAPE', [x.index, s], [y.index], bare ? undefined : tfliteOptions.reshape(shape));
    return y;
  }

  transpose(x: T, base: string, perm: readonly number[]): T {
    const y = this.tensor(base, perm.map((p) => x.shape[p]), { like: x });
    this.op('TRANSPOSE', [x.index, this.i32(`${base}_perm`, perm)], [y.index], tfliteOptions.empty(BUILTIN_OPTIONS.TransposeOptions));
    return y;
  }

  /** CONCATENATION: int8 inputs and output share one quantization (grouped at calibration). */
  concat(xs: readonly T[], axis: number, base: string): T {
    const ax = axis < 0 ? xs[0].shape.length + axis : axis;
    const shape = xs[0].shape.map((d, i) => (i === ax ? xs.reduce((s, x) => s + x.shape[i], 0) : d));
    const name = `${this.prefix}${base}`;
    for (const x of xs) this.groups.union(name, x.name);
    const y = this.tensor(base, shape, isQuantized(xs[0]) ? { like: xs[0] } : {});
    this.op('CONCATENATION', xs.map((x) => x.index), [y.index], tfliteOptions.concatenation(axis));
    return y;
  }

  softmax(x: T, base: string): T {
    const y = this.tensor(base, x.shape, { fixed: this.fixedInt8(LOGISTIC_Q) });
    this.op('SOFTMAX', [x.index], [y.index], tfliteOptions.softmax(1));
    return y;
  }

  batchMatmul(a: T, b: T, base: string, adjY = false): T {
    const r = a.shape.length;
    const n = adjY ? b.shape[b.shape.length - 2] : b.shape[b.shape.length - 1];
    const y = this.tensor(base, [...a.shape.slice(0, r - 1), n]);
    this.op('BATCH_MATMUL', [a.index, b.index], [y.index], tfliteOptions.batchMatMul({ adjY }));
    return y;
  }

  /** GATHER of rows of a constant embedding table (int8: per-tensor symmetric) by int32 ids. */
  embedding(ids: T, base: string, vocab: number, dim: number): T {
    const values = this.uniform(vocab * dim, 1);
    const name = `${this.prefix}${base}_table`;
    let table: number;
    let q: Quant | undefined;
    if (this.mode === 'float32') {
      table = this.w.addConstant({ name, shape: [vocab, dim], dtype: 'float32', data: new Float32Array(values) });
    } else {
      q = { scale: 1 / 127, zp: 0 };
      table = this.w.addConstant({ name, shape: [vocab, dim], dtype: 'int8', quant: { scale: [q.scale], zeroPoint: [0] }, data: new Int8Array(values.map((v) => Math.round(v * 127))) });
    }
    const y = this.tensor(base, [...ids.shape, dim], { fixed: q });
    this.op('GATHER', [table, ids.index], [y.index], tfliteOptions.gather(0));
    return y;
  }

  split(x: T, base: string, axis: number, n: number): T[] {
    const ax = axis < 0 ? x.shape.length + axis : axis;
    const shape = x.shape.map((d, i) => (i === ax ? d / n : d));
    const ys = Array.from({ length: n }, (_, k) => this.tensor(`${base}_${k}`, shape, { like: x }));
    this.op('SPLIT', [this.w.addConstant({ name: `${this.prefix}${base}_axis`, shape: [], dtype: 'int32', data: [axis] }), x.index], ys.map((y) => y.index), tfliteOptions.split(n));
    return ys;
  }

  /** DEQUANTIZE an int8 tensor to float (no-op description in float mode: returns `x`). */
  dequantize(x: T, base: string): T {
    if (!isQuantized(x)) return x;
    const y = this.tensor(base, x.shape, { dtype: 'float32' });
    this.op('DEQUANTIZE', [x.index], [y.index]);
    return y;
  }

  /** QUANTIZE a float tensor to int8 in int8 mode (a calibrated range); float mode: returns `x`. */
  quantize(x: T, base: string, fixed?: Quant): T {
    if (this.mode === 'float32' || x.dtype !== 'float32') return x;
    const y = this.tensor(base, x.shape, { dtype: quantizedOf(this.mode), fixed: fixed ?? this.quantFor(x.name) });
    this.op('QUANTIZE', [x.index], [y.index]);
    return y;
  }

  /**
   * UNIDIRECTIONAL_SEQUENCE_LSTM (batch-major, no peepholes/projection) with variable output
   * and cell state tensors, as the converter writes a Keras LSTM. int8: per-tensor symmetric
   * weights, int32 biases at input scale x weight scale, the output state sharing the output's
   * quantization, an int16 cell state at 2^-11, and the intermediates the converter lists.
   */
  lstm(x: T, base: string, units: number): T {
    const [batch, time, inputSize] = x.shape;
    const name = `${this.prefix}${base}`;
    const matrix = (gate: string, cols: number, amplitude: number): { index: number; scale: number } => {
      const values = this.uniform(units * cols, amplitude);
      const shape = [units, cols];
      if (this.mode === 'float32') return { index: this.w.addConstant({ name: `${name}_${gate}`, shape, dtype: 'float32', data: new Float32Array(values) }), scale: 1 };
      const scale = Math.max(...values.map(Math.abs)) / 127;
      const data = new Int8Array(values.map((v) => Math.round(v / scale)));
      return { index: this.w.addConstant({ name: `${name}_${gate}`, shape, dtype: 'int8', quant: { scale: [scale], zeroPoint: [0] }, data }), scale };
    };
    const gates = ['input', 'forget', 'cell', 'output'];
    const wx = gates.map((g) => matrix(`${g}_w`, inputSize, 0.6));
    const wh = gates.map((g) => matrix(`${g}_r`, units, 0.5));
    const biases = gates.map((g, k) => {
      const values = this.uniform(units, 0.3);
      if (this.mode === 'float32') return this.w.addConstant({ name: `${name}_${g}_b`, shape: [units], dtype: 'float32', data: new Float32Array(values) });
      const scale = Math.fround(x.q!.scale) * Math.fround(wx[k].scale);
      return this.w.addConstant({ name: `${name}_${g}_b`, shape: [units], dtype: 'int32', quant: { scale: [scale], zeroPoint: [0] }, data: values.map((v) => Math.round(v / scale)) });
    });
    const y = this.tensor(base, [batch, time, units]);
    const stateQuant = y.q ? { scale: [y.q.scale], zeroPoint: [y.q.zp] } : undefined;
    const hidden = this.w.addTensor({ name: `${name}_output_state`, shape: [batch, units], dtype: y.dtype as 'float32' | 'int8', quant: stateQuant, isVariable: true });
    const cell = this.w.addTensor({
      name: `${name}_cell_state`,
      shape: [batch, units],
      dtype: this.mode === 'int8' ? 'int16' : 'float32',
      quant: this.mode === 'int8' ? { scale: [2 ** -11], zeroPoint: [0] } : undefined,
      isVariable: true,
    });
    // The converter lists five intermediates on an int8 LSTM (gate matmul outputs, effective hidden); TFLite Micro's kernel uses fixed internal scales instead.
    const intermediates =
      this.mode === 'int8'
        ? ['input_gate', 'forget_gate', 'cell_gate', 'output_gate', 'effective_hidden'].map((g, k) =>
            this.w.addTensor({ name: `${name}_${g}_intermediate`, shape: [], dtype: k < 4 ? 'int16' : 'int8', quant: { scale: [k < 4 ? 2 ** -12 : 0.007], zeroPoint: [0] } }),
          )
        : [];
    this.w.addOperator({
      op: 'UNIDIRECTIONAL_SEQUENCE_LSTM',
      inputs: [x.index, ...wx.map((t) => t.index), ...wh.map((t) => t.index), -1, -1, -1, ...biases, -1, -1, hidden, cell, -1, -1, -1, -1],
      outputs: [y.index],
      options: tfliteOptions.unidirectionalSequenceLstm({ timeMajor: false }),
      intermediates,
    });
    return y;
  }

  /** TRANSPOSE_CONV (SAME, stride s: s times the size) with per-channel weights and a bias, as the converter writes a Conv2DTranspose. */
  transposeConv(x: T, base: string, out: number, k: number, stride: number): T {
    const { wt, bias } = this.weights(base, [out, k, k, x.shape[3]], 0, x, false);
    const shape = [x.shape[0], x.shape[1] * stride, x.shape[2] * stride, out];
    const y = this.tensor(base, shape);
    this.op('TRANSPOSE_CONV', [this.i32(`${base}_output_shape`, shape), wt, x.index, bias], [y.index], tfliteOptions.transposeConv({ padding: 'SAME', strideW: stride, strideH: stride }));
    return y;
  }

  /** RESIZE_NEAREST_NEIGHBOR / RESIZE_BILINEAR (half-pixel centers, as Keras' UpSampling2D and tf.image.resize write them). */
  resize(x: T, base: string, method: 'nearest' | 'bilinear', h: number, w: number): T {
    const y = this.tensor(base, [x.shape[0], h, w, x.shape[3]], { like: x });
    const size = this.i32(`${base}_size`, [h, w]);
    if (method === 'nearest') this.op('RESIZE_NEAREST_NEIGHBOR', [x.index, size], [y.index], tfliteOptions.resizeNearestNeighbor({ halfPixelCenters: true }));
    else this.op('RESIZE_BILINEAR', [x.index, size], [y.index], tfliteOptions.resizeBilinear({ halfPixelCenters: true }));
    return y;
  }

  /** ARG_MAX over `axis`: an int32 tensor (not calibrated). */
  argMax(x: T, base: string, axis: number): T {
    const name = `${this.prefix}${base}`;
    const shape = x.shape.filter((_, i) => i !== axis);
    const index = this.w.addTensor({ name, shape, dtype: 'int32' });
    this.op('ARG_MAX', [x.index, this.w.addConstant({ name: `${name}_axis`, shape: [1], dtype: 'int32', data: [axis] })], [index], tfliteOptions.argMax('int32'));
    return { index, name, shape, dtype: 'int32' };
  }

  /** Layers built by `build` have a pruned (all-zero) output channel 1, as a pruned network's do. */
  pruned<R>(build: () => R): R {
    this.pruning = true;
    try {
      return build();
    } finally {
      this.pruning = false;
    }
  }

  /** int8 mode: QUANTIZE int8 -> int8 to another scale and zero point (the converter's requantize); float mode: `x`. */
  requantize(x: T, base: string): T {
    if (x.dtype !== 'int8') return x;
    const y = this.tensor(base, x.shape, { fixed: { scale: x.q!.scale * 1.7, zp: Math.min(127, x.q!.zp + 5) } });
    this.op('QUANTIZE', [x.index], [y.index]);
    return y;
  }

  /**
   * CONCATENATION whose inputs keep their own quantization: in quantized modes each input the
   * converter could not give the output's scale is requantized to it first (QUANTIZE int8 ->
   * int8), as the converter emits it; float mode: a plain CONCATENATION.
   */
  concatRequantized(xs: readonly T[], axis: number, base: string): T {
    const ax = axis < 0 ? xs[0].shape.length + axis : axis;
    const shape = xs[0].shape.map((d, i) => (i === ax ? xs.reduce((s, x) => s + x.shape[i], 0) : d));
    if (!isQuantized(xs[0])) return this.concat(xs, axis, base);
    const q = this.quantFor(`${this.prefix}${base}`);
    const ins = xs.map((x, i) => {
      if (x.q!.scale === q.scale && x.q!.zp === q.zp) return x;
      const r = this.tensor(`${base}_requant${i}`, x.shape, { fixed: q });
      this.op('QUANTIZE', [x.index], [r.index]);
      return r;
    });
    const y = this.tensor(base, shape, { fixed: q });
    this.op('CONCATENATION', ins.map((x) => x.index), [y.index], tfliteOptions.concatenation(axis));
    return y;
  }

  /**
   * Keras' Flatten/Reshape with an unknown batch: SHAPE -> STRIDED_SLICE (the batch, shrunk to a
   * scalar) -> PACK with the fixed dimensions -> RESHAPE by that computed shape tensor.
   */
  flattenDynamic(x: T, base: string, rest: readonly number[], packMinusOne = false): T {
    const name = `${this.prefix}${base}`;
    const shapeT = this.w.addTensor({ name: `${name}/Shape`, shape: [x.shape.length], dtype: 'int32' });
    this.op('SHAPE', [x.index], [shapeT], tfliteOptions.shape('int32'));
    const batch = this.w.addTensor({ name: `${name}/strided_slice`, shape: [], dtype: 'int32' });
    this.op('STRIDED_SLICE', [shapeT, this.i32(`${base}/begin`, [0]), this.i32(`${base}/end`, [1]), this.i32(`${base}/strides`, [1])], [batch], tfliteOptions.stridedSlice({ shrinkAxisMask: 1 }));
    // `packMinusOne`: the last dimension packed as -1 (Keras' Flatten: reshape to (batch, -1)).
    const dims = rest.map((d, i) => this.w.addConstant({ name: `${name}/shape/${i + 1}`, shape: [], dtype: 'int32', data: [packMinusOne && i === rest.length - 1 ? -1 : d] }));
    const packed = this.w.addTensor({ name: `${name}/shape`, shape: [1 + rest.length], dtype: 'int32' });
    this.op('PACK', [batch, ...dims], [packed], tfliteOptions.pack(1 + rest.length, 0));
    const y = this.tensor(base, [x.shape[0], ...rest], { like: x });
    this.runtimeShaped.add(y);
    this.op('RESHAPE', [x.index, packed], [y.index]);
    return y;
  }

  /** SPLIT_V into `sizes` along `axis` (sizes and axis constant tensors; one size may be -1: the rest, as tf.split writes it). */
  splitV(x: T, base: string, sizes: readonly number[], axis: number): T[] {
    const known = sizes.filter((n) => n >= 0).reduce((a, n) => a + n, 0);
    const ys = sizes.map((n, k) => this.tensor(`${base}_${k}`, x.shape.map((d, i) => (i === axis ? (n < 0 ? d - known : n) : d)), { like: x }));
    const axisT = this.w.addConstant({ name: `${this.prefix}${base}_axis`, shape: [], dtype: 'int32', data: [axis] });
    this.op('SPLIT_V', [x.index, this.i32(`${base}_sizes`, sizes), axisT], ys.map((y) => y.index), tfliteOptions.splitV(sizes.length));
    return ys;
  }

  /** STRIDED_SLICE with masks; `shape` is the output's (the caller works it out). */
  stridedSlice(
    x: T,
    base: string,
    s: { begin: readonly number[]; end: readonly number[]; strides: readonly number[]; beginMask?: number; endMask?: number; shrinkAxisMask?: number; ellipsisMask?: number; newAxisMask?: number },
    shape: readonly number[],
  ): T {
    const y = this.tensor(base, shape, { like: x });
    this.op(
      'STRIDED_SLICE',
      [x.index, this.i32(`${base}_begin`, s.begin), this.i32(`${base}_end`, s.end), this.i32(`${base}_strides`, s.strides)],
      [y.index],
      tfliteOptions.stridedSlice({ beginMask: s.beginMask, endMask: s.endMask, shrinkAxisMask: s.shrinkAxisMask, ellipsisMask: s.ellipsisMask, newAxisMask: s.newAxisMask }),
    );
    return y;
  }

  /** PADV2: PAD with a constant value (quantized: at the input's scale and zero point, as the converter writes it). */
  padV2(x: T, base: string, pads: readonly (readonly [number, number])[], value: number): T {
    const p = this.w.addConstant({ name: `${this.prefix}${base}_p`, shape: [pads.length, 2], dtype: 'int32', data: pads.flat() });
    const y = this.tensor(base, x.shape.map((d, i) => d + pads[i][0] + pads[i][1]), { like: x });
    const name = `${this.prefix}${base}_value`;
    let v: number;
    if (x.dtype === 'float32') v = this.w.addConstant({ name, shape: [], dtype: 'float32', data: [value] });
    else {
      const lim = x.dtype === 'int16' ? 32767 : 127;
      const qv = Math.max(-lim - 1, Math.min(lim, Math.round(value / x.q!.scale) + x.q!.zp));
      v = this.w.addConstant({ name, shape: [], dtype: x.dtype as 'int8' | 'int16', quant: { scale: [x.q!.scale], zeroPoint: [x.q!.zp] }, data: [qv] });
    }
    this.op('PADV2', [x.index, p, v], [y.index], tfliteOptions.empty(BUILTIN_OPTIONS.PadV2Options));
    return y;
  }

  /**
   * An old converter's dilated conv: SPACE_TO_BATCH_ND (block = dilation, SAME's padding) ->
   * VALID CONV_2D -> BATCH_TO_SPACE_ND (crops back to the input size). H and W + 2 * pad must
   * divide by the dilation.
   */
  atrousConv(x: T, base: string, out: number, k: number, dilation: number, activation: WriterActivation = 'NONE'): T {
    const [n, h, w, c] = x.shape;
    const pad = ((k - 1) * dilation) / 2;
    const ph = (h + 2 * pad) / dilation;
    const pw = (w + 2 * pad) / dilation;
    const d2 = dilation * dilation;
    const blocks = this.i32(`${base}/block_shape`, [dilation, dilation]);
    const paddings = this.w.addConstant({ name: `${this.prefix}${base}/paddings`, shape: [2, 2], dtype: 'int32', data: [pad, pad, pad, pad] });
    const stb = this.tensor(`${base}/SpaceToBatchND`, [n * d2, ph, pw, c], { like: x });
    this.op('SPACE_TO_BATCH_ND', [x.index, blocks, paddings], [stb.index], tfliteOptions.empty(BUILTIN_OPTIONS.SpaceToBatchNDOptions));
    const conv = this.conv(stb, `${base}/Conv2D`, out, k, 1, 'VALID', activation);
    const crops = this.w.addConstant({ name: `${this.prefix}${base}/crops`, shape: [2, 2], dtype: 'int32', data: [0, 0, 0, 0] });
    const y = this.tensor(`${base}/BatchToSpaceND`, [n, h, w, out], { like: conv });
    this.op('BATCH_TO_SPACE_ND', [conv.index, this.i32(`${base}/block_shape2`, [dilation, dilation]), crops], [y.index], tfliteOptions.empty(BUILTIN_OPTIONS.BatchToSpaceNDOptions));
    return y;
  }

  /**
   * The custom TFLite_Detection_PostProcess (float32 box encodings [1, N, 4] and class scores
   * [1, N, classes], a constant float anchor table) as the SSD exporters append it: four float
   * outputs (boxes, classes, scores, count), `customOptions` its flexbuffer options map.
   */
  detectionPostprocess(boxes: T, scores: T, anchors: readonly number[], rows: number, customOptions: Uint8Array): T[] {
    const n = boxes.shape[1];
    const a = this.w.addConstant({ name: `${this.prefix}anchors`, shape: [n, 4], dtype: 'float32', data: new Float32Array(anchors) });
    const outs = [
      this.tensor('detection_boxes', [1, rows, 4], { dtype: 'float32' }),
      this.tensor('detection_classes', [1, rows], { dtype: 'float32' }),
      this.tensor('detection_scores', [1, rows], { dtype: 'float32' }),
      this.tensor('num_detections', [1], { dtype: 'float32' }),
    ];
    this.w.addOperator({ op: 'CUSTOM', customCode: 'TFLite_Detection_PostProcess', inputs: [boxes.index, scores.index, a], outputs: outs.map((o) => o.index), customOptions });
    return outs;
  }

  /** The model bytes and its outputs in order: the declared ones, then (`everyActivation`) every other activation. */
  finish(everyActivation = false): { bytes: Uint8Array; outputs: T[] } {
    const outputs = [...this.outputs];
    if (everyActivation) outputs.push(...this.activations.filter((a) => !this.outputs.includes(a) && !this.runtimeShaped.has(a)));
    outputs.forEach((t) => this.w.markOutput(t.index));
    return { bytes: this.w.finish(), outputs };
  }
}

/** A network description: adds inputs, operators and outputs to the builder. */
export type Network = (b: NetBuilder) => void;

/** Float inputs of a network (values in [-2, 2)), in the builder's input order. */
export interface NetInputs {
  /** Float values per non-int32 input; int32 inputs (ids) are given as is. */
  readonly values: readonly (Float32Array | Int32Array)[];
}

function bytesOf(a: Float32Array | Int32Array | Int8Array | Int16Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * The converter's calibration: the float network with every activation as an output, run
 * by the interpreter; each activation's range, merged over its quantization group.
 */
export function calibrate(net: Network, inputs: NetInputs, seed: number): Calibration {
  const b = new NetBuilder('float32', undefined, seed);
  net(b);
  const { bytes, outputs } = b.finish(true);
  const outs = interpret(
    importTflite(bytes, 'calibration.tflite'),
    inputs.values.map((v) => bytesOf(v)),
  );
  const ranges = new Map<string, [number, number]>();
  const rangeOf = (f: ArrayLike<number>): [number, number] => {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < f.length; i++) {
      lo = Math.min(lo, f[i]);
      hi = Math.max(hi, f[i]);
    }
    return [lo, hi];
  };
  outputs.forEach((t, k) => {
    if (t.dtype === 'float32') ranges.set(t.name, rangeOf(new Float32Array(outs[k].slice().buffer)));
  });
  b.inputs.forEach((t, i) => {
    if (t.dtype === 'float32') ranges.set(t.name, rangeOf(inputs.values[i]));
  });
  const merged = new Map<string, [number, number]>();
  for (const [name, r] of ranges) {
    const root = b.groups.find(name);
    const m = merged.get(root);
    merged.set(root, m ? [Math.min(m[0], r[0]), Math.max(m[1], r[1])] : [r[0], r[1]]);
  }
  const out = new Map<string, readonly [number, number]>();
  for (const name of ranges.keys()) out.set(name, merged.get(b.groups.find(name))!);
  return out;
}

/** A built network: the model bytes, its input bytes, and the int8 input quantization used. */
export interface BuiltNet {
  readonly model: Uint8Array;
  readonly inputs: Uint8Array[];
  /** The same model with every activation also an output (to compare layer by layer). */
  readonly everyActivation: Uint8Array;
}

/** Builds `net` in `mode` (int8: calibrated on `inputs`, whose float values are quantized as the model's inputs). */
export function buildNet(net: Network, mode: NetMode, inputs: NetInputs, seed: number): BuiltNet {
  const calibration = mode !== 'float32' ? calibrate(net, inputs, seed) : undefined;
  const make = (every: boolean) => {
    const b = new NetBuilder(mode, calibration, seed);
    net(b);
    return { ...b.finish(every), b };
  };
  const { bytes, b } = make(false);
  const inputBytes = b.inputs.map((t, i) => {
    const v = inputs.values[i];
    if (t.dtype === 'int16') return bytesOf(Int16Array.from(v, (x) => Math.max(-32768, Math.min(32767, Math.round(x / t.q!.scale)))));
    if (t.dtype !== 'int8') return bytesOf(v.slice());
    return bytesOf(Int8Array.from(v, (x) => Math.max(-128, Math.min(127, Math.round(x / t.q!.scale) + t.q!.zp))));
  });
  return { model: bytes, inputs: inputBytes, everyActivation: make(true).bytes };
}

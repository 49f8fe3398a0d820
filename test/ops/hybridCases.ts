/**
 * Hybrid (float32 activations, int8 constant weights) CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED models built with the TfliteWriter, with their inputs: shared by the
 * evaluator, gcc and LiteRT tests of test/ops/hybrid*.test.ts.
 */
import { TfliteWriter, tfliteOptions, WriterActivation } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';

export interface HybridCase {
  readonly name: string;
  readonly model: Uint8Array;
  readonly input: Uint8Array;
  /** Whether the model has a hybrid CONV_2D without bias, which LiteRT computes garbage for (zeros, huge values). */
  readonly convWithoutBias?: boolean;
}

function floats(n: number, seed: number, lo: number, hi: number): Float32Array {
  const r = seededRandom(seed);
  return Float32Array.from({ length: n }, () => lo + (hi - lo) * r());
}

function weights(n: number, seed: number): Int8Array {
  const r = seededRandom(seed);
  const w = Int8Array.from({ length: n }, () => Math.floor(r() * 255) - 127);
  w[0] = 127;
  if (n > 1) w[1] = -127;
  return w;
}

const bytes = (a: Float32Array): Uint8Array => new Uint8Array(a.buffer);
const perChannel = (n: number): number[] => Array.from({ length: n }, (_, c) => 0.004 + 0.0031 * ((c * 7) % 5));

interface ConvSpec {
  readonly input: [number, number, number, number];
  readonly filters: number;
  readonly kernel: [number, number];
  /** Filter depth; less than the input channels = grouped. */
  readonly depth?: number;
  readonly stride?: number;
  readonly dilation?: number;
  readonly padding: 'SAME' | 'VALID';
  readonly activation?: WriterActivation;
  readonly scales: number[];
  readonly bias?: boolean;
  readonly range?: [number, number];
  /** Values written at the first and last input element (exact range ends). */
  readonly ends?: [number, number];
}

function outSize(size: number, k: number, stride: number, dilation: number, padding: 'SAME' | 'VALID'): number {
  const eff = (k - 1) * dilation + 1;
  return padding === 'SAME' ? Math.ceil(size / stride) : Math.floor((size - eff) / stride) + 1;
}

function conv(name: string, s: ConvSpec, seed: number): HybridCase {
  const [n, h, w, c] = s.input;
  const [kh, kw] = s.kernel;
  const depth = s.depth ?? c;
  const stride = s.stride ?? 1;
  const dilation = s.dilation ?? 1;
  const oh = outSize(h, kh, stride, dilation, s.padding);
  const ow = outSize(w, kw, stride, dilation, s.padding);
  const wr = new TfliteWriter();
  const x = wr.addInput({ name: 'x', shape: [n, h, w, c], dtype: 'float32' });
  const wt = wr.addConstant({
    name: 'w',
    shape: [s.filters, kh, kw, depth],
    dtype: 'int8',
    data: weights(s.filters * kh * kw * depth, seed),
    quant: { scale: s.scales, zeroPoint: s.scales.map(() => 0), axis: 0 },
  });
  const b = s.bias === false ? -1 : wr.addConstant({ name: 'b', shape: [s.filters], dtype: 'float32', data: floats(s.filters, seed + 1, -0.5, 0.5) });
  const y = wr.addTensor({ name: 'y', shape: [n, oh, ow, s.filters], dtype: 'float32' });
  const options = tfliteOptions.conv2d({ padding: s.padding, strideW: stride, strideH: stride, dilationW: dilation, dilationH: dilation, activation: s.activation });
  wr.addOperator({ op: 'CONV_2D', inputs: [x, wt, b], outputs: [y], options });
  wr.markOutput(y);
  const [lo, hi] = s.range ?? [-2, 3];
  const values = floats(n * h * w * c, seed + 2, lo, hi);
  if (s.ends) [values[0], values[values.length - 1]] = s.ends;
  return { name, model: wr.finish(), input: bytes(values), convWithoutBias: s.bias === false };
}

function depthwise(name: string, input: [number, number, number, number], k: number, multiplier: number, stride: number, padding: 'SAME' | 'VALID', activation: WriterActivation, seed: number): HybridCase {
  const [n, h, w, c] = input;
  const oc = c * multiplier;
  const oh = outSize(h, k, stride, 1, padding);
  const ow = outSize(w, k, stride, 1, padding);
  const scales = perChannel(oc);
  const wr = new TfliteWriter();
  const x = wr.addInput({ name: 'x', shape: input, dtype: 'float32' });
  const wt = wr.addConstant({ name: 'w', shape: [1, k, k, oc], dtype: 'int8', data: weights(k * k * oc, seed), quant: { scale: scales, zeroPoint: scales.map(() => 0), axis: 3 } });
  const b = wr.addConstant({ name: 'b', shape: [oc], dtype: 'float32', data: floats(oc, seed + 1, -0.5, 0.5) });
  const y = wr.addTensor({ name: 'y', shape: [n, oh, ow, oc], dtype: 'float32' });
  const options = tfliteOptions.depthwiseConv2d({ padding, strideW: stride, strideH: stride, depthMultiplier: multiplier, activation });
  wr.addOperator({ op: 'DEPTHWISE_CONV_2D', inputs: [x, wt, b], outputs: [y], options });
  wr.markOutput(y);
  return { name, model: wr.finish(), input: bytes(floats(n * h * w * c, seed + 2, -2, 3)) };
}

/**
 * A 1x1 hybrid DEPTHWISE_CONV_2D whose input row (range [-0.332, 1.898]: scale 0.0087437,
 * zero point -90) holds -0.0481, which TFLite's builtin row quantization (LiteRT's for
 * depthwise: XNNPack has no dynamically quantized depthwise) turns into -96 and XNNPack's
 * recipe into -95: 1 LSB that the weight 127 makes a 3.5% output difference (found by a
 * realistic-model campaign on a MobileFaceNet-like network).
 */
function depthwiseNearTie(): HybridCase {
  const x = Float32Array.from([-0.3320519030094147, 0.25, 0.5, 1, -0.04809015616774559, -0.1, 0.75, 0.3, 0.2, 1.25, -0.2, 0.6, 0.9, -0.05, 0.125, 1.8975839614868164]);
  const wr = new TfliteWriter();
  const xi = wr.addInput({ name: 'x', shape: [1, 2, 2, 4], dtype: 'float32' });
  const scales = [0.0035425471141934395, 0.004, 0.005, 0.006];
  const wt = wr.addConstant({ name: 'w', shape: [1, 1, 1, 4], dtype: 'int8', data: [127, -127, 100, 90], quant: { scale: scales, zeroPoint: [0, 0, 0, 0], axis: 3 } });
  const b = wr.addConstant({ name: 'b', shape: [4], dtype: 'float32', data: new Float32Array([0.137371227145195, -0.1, 0.2, 0]) });
  const y = wr.addTensor({ name: 'y', shape: [1, 2, 2, 4], dtype: 'float32' });
  wr.addOperator({ op: 'DEPTHWISE_CONV_2D', inputs: [xi, wt, b], outputs: [y], options: tfliteOptions.depthwiseConv2d({ padding: 'VALID' }) });
  wr.markOutput(y);
  return { name: 'depthwise 1x1, an input within a float ulp of a half step after the zero point', model: wr.finish(), input: bytes(x) };
}

function dense(name: string, inputShape: number[], units: number, scales: number[], o: { asymmetric?: boolean; bias?: boolean; activation?: WriterActivation; data?: Float32Array }, seed: number): HybridCase {
  const depth = inputShape[inputShape.length - 1];
  const rows = inputShape.reduce((a, d) => a * d, 1) / depth;
  const wr = new TfliteWriter();
  const x = wr.addInput({ name: 'x', shape: inputShape, dtype: 'float32' });
  const wt = wr.addConstant({ name: 'w', shape: [units, depth], dtype: 'int8', data: weights(units * depth, seed), quant: { scale: scales, zeroPoint: scales.map(() => 0), axis: 0 } });
  const b = o.bias === false ? -1 : wr.addConstant({ name: 'b', shape: [units], dtype: 'float32', data: floats(units, seed + 1, -0.5, 0.5) });
  const y = wr.addTensor({ name: 'y', shape: [rows, units], dtype: 'float32' });
  wr.addOperator({ op: 'FULLY_CONNECTED', inputs: [x, wt, b], outputs: [y], options: tfliteOptions.fullyConnected({ activation: o.activation, asymmetricQuantizeInputs: o.asymmetric }) });
  wr.markOutput(y);
  return { name, model: wr.finish(), input: bytes(o.data ?? floats(rows * depth, seed + 2, -2, 3)) };
}

/** Rows that reach every branch of the row quantization: zero, constant, one-signed, wide, tiny. */
function edgeRows(depth: number): Float32Array {
  const rows = [
    () => 0,
    () => 1.5,
    (d: number) => -0.25 - d * 0.01,
    (d: number) => 0.01 + d * 0.3,
    (d: number) => (d % 2 ? 1000 : -3) * (d / depth),
    (d: number) => 1e-30 * (d - depth / 3),
  ];
  return Float32Array.from({ length: rows.length * depth }, (_, i) => rows[Math.floor(i / depth)](i % depth));
}

export const EDGE_ROWS = 6;

/**
 * Rows whose values land exactly halfway between two quantized steps (multiplier 2 or 4:
 * ranges 127.5 and 63.75 wide), where rounding half to even (XNNPack, LiteRT) and half away
 * from zero (TFLite's builtin kernels) part.
 */
function tieRows(depth: number, rows: number): Float32Array {
  const out = new Float32Array(rows * depth);
  for (let r = 0; r < rows; r++) {
    const wide = r % 2 === 0;
    const step = wide ? 0.25 : 0.125;
    const shift = r % 4 < 2 ? 0 : wide ? -63.75 : -31.875;
    for (let d = 0; d < depth; d++) out[r * depth + d] = shift + step * ((d * 7 + r * 3) % 24) * 2 + step;
    out[r * depth] = shift;
    out[r * depth + 1] = shift + (wide ? 127.5 : 63.75);
  }
  return out;
}

/**
 * Rows whose range is symmetric around 0 ([-m, m], m = 1, 4, 0.5, 8): multiplier 255 / 2m, so
 * -m lands exactly on -127.5. LiteRT scales by the multiplier itself (-128); the reciprocal of
 * the row scale is 1 ulp smaller and gave -127 (found by the fuzz campaign).
 */
function symmetricRows(depth: number, rows: number): Float32Array {
  const out = floats(rows * depth, 21, -1, 1);
  [1, 4, 0.5, 8].slice(0, rows).forEach((m, r) => {
    for (let d = 0; d < depth; d++) out[r * depth + d] *= m;
    out[r * depth + (r % depth)] = -m;
    out[r * depth + ((r + 5) % depth)] = m;
  });
  return out;
}

export function hybridCases(): HybridCase[] {
  return [
    conv('conv2d per-tensor 10x4 stride 2 SAME RELU (kws)', { input: [1, 49, 10, 1], filters: 8, kernel: [10, 4], stride: 2, padding: 'SAME', activation: 'RELU', scales: [0.002] }, 1),
    conv('conv2d per-channel 3x3 SAME RELU6 batch 2', { input: [2, 6, 5, 4], filters: 6, kernel: [3, 3], padding: 'SAME', activation: 'RELU6', scales: perChannel(6) }, 2),
    conv('conv2d grouped per-channel VALID', { input: [1, 5, 5, 4], filters: 6, kernel: [2, 2], depth: 2, padding: 'VALID', scales: perChannel(6) }, 3),
    conv('conv2d 1x1 per-pixel rows, batch 2', { input: [2, 3, 4, 16], filters: 8, kernel: [1, 1], padding: 'VALID', scales: perChannel(8) }, 4),
    conv('conv2d grouped 1x1 (per image)', { input: [2, 3, 3, 8], filters: 6, kernel: [1, 1], depth: 4, padding: 'VALID', scales: [0.01] }, 13),
    conv('conv2d 1x1 stride 2 (per image)', { input: [2, 5, 5, 8], filters: 4, kernel: [1, 1], stride: 2, padding: 'SAME', scales: [0.01] }, 5),
    conv('conv2d dilation 2 positive input, no bias', { input: [1, 7, 7, 2], filters: 3, kernel: [3, 3], dilation: 2, padding: 'SAME', scales: [0.02], range: [0.5, 4], bias: false }, 6),
    depthwise('depthwise multiplier 2 stride 2 SAME RELU batch 2', [2, 7, 6, 3], 3, 2, 2, 'SAME', 'RELU', 7),
    depthwise('depthwise 3x3 VALID', [1, 5, 5, 4], 3, 1, 1, 'VALID', 'NONE', 8),
    depthwiseNearTie(),
    dense('dense per-tensor batch 3', [3, 32], 8, [0.01], {}, 9),
    dense('dense per-tensor asymmetric_quantize_inputs', [3, 32], 8, [0.01], { asymmetric: true }, 10),
    dense('dense per-channel rank-3 input, no bias, RELU', [2, 3, 16], 5, perChannel(5), { bias: false, activation: 'RELU' }, 11),
    dense('dense edge rows', [EDGE_ROWS, 12], 4, perChannel(4), { data: edgeRows(12) }, 12),
    dense('dense rows with exact ties', [8, 16], 6, [0.01], { data: tieRows(16, 8) }, 14),
    dense('dense rows with symmetric ranges (an end value on a tie)', [4, 12], 5, perChannel(5), { data: symmetricRows(12, 4) }, 16),
    conv('conv2d per-tensor 3x3 SAME, image range [-4, 4]', { input: [1, 5, 5, 3], filters: 4, kernel: [3, 3], padding: 'SAME', scales: [0.01], range: [-4, 4], ends: [-4, 4] }, 17),
  ];
}

/**
 * `count` chained hybrid DEPTHWISE_CONV_2D with one weight scale for 3 channels: imports, but
 * TensorFlow Lite (and uma-ts) want one scale per channel, so lowering refuses each.
 */
export function depthwisePerTensorModel(count = 1): Uint8Array {
  const w = new TfliteWriter();
  let x = w.addInput({ name: 'x', shape: [1, 4, 4, 3], dtype: 'float32' });
  for (let i = 0; i < count; i++) {
    const wt = w.addConstant({ name: `w${i}`, shape: [1, 3, 3, 3], dtype: 'int8', data: new Int8Array(27).fill(3), quant: { scale: [0.1], zeroPoint: [0], axis: 3 } });
    const y = w.addTensor({ name: `y${i}`, shape: [1, 4, 4, 3], dtype: 'float32' });
    w.addOperator({ op: 'DEPTHWISE_CONV_2D', inputs: [x, wt, -1], outputs: [y], options: tfliteOptions.depthwiseConv2d({ padding: 'SAME' }) });
    x = y;
  }
  w.markOutput(x);
  return w.finish();
}

/**
 * Rows whose quantization range float32 cannot hold: an infinity, a range wider than
 * FLT_MAX, a NaN first (skipped by the min/max scan), subnormals only (255 / range
 * overflows). Where the zero point computes to NaN (+inf, subnormals) it is -128 (XNNPack's
 * max(NaN, -128)); +inf and the overflowing range come out NaN, the subnormal rows as the bias. Kept out of
 * hybridCases (whose outputs are finite) and of the LiteRT suite (found by the fuzz campaign:
 * the C converted the NaN zero point to int, undefined, and wrote ±FLT_MAX where the
 * interpreter wrote NaN).
 */
export function unspannableRowsCase(): HybridCase {
  const rows = [
    [1, Infinity, -2, 0.5],
    [-Infinity, 1, 2, 3],
    [3e38, -3e38, 1, 0],
    [NaN, 1, -1, 2],
    [-1e-40, 0, -1e-41, 0],
    [1e-40, 0, 2e-41, 0],
  ];
  return dense('dense rows float32 cannot span', [rows.length, 4], 3, perChannel(3), { data: Float32Array.from(rows.flat()) }, 15);
}

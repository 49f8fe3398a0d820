/**
 * The forum question's network as a graph module (int8): input → layout_transform (CPU) →
 * conv2d (offloaded: input fetcher + conv) → layout_transform (CPU) → reshape → output.
 * The layout transforms are `copy` ops that keep the element order; weights, bias and
 * quantization are pseudo-random but fixed by `seed`, with TFLite-like scales (per-channel
 * weights, bias scale = input scale × weight scale).
 */
import { GraphFunctionBuilder, IRModule, moduleOf, randomInt, seededRandom, tensorType } from '../../src/index';
import { LAYOUT_TRANSFORM_KIND } from './names';

export interface SeedNetworkOptions {
  /** NHWC input shape (default [1, 8, 8, 4]). */
  readonly input?: readonly [number, number, number, number];
  readonly outChannels?: number;
  readonly kernel?: number;
  readonly seed?: number;
}

export function buildSeedNetwork(options: SeedNetworkOptions = {}): IRModule {
  const [n, h, w, c] = options.input ?? [1, 8, 8, 4];
  const oc = options.outChannels ?? 8;
  const k = options.kernel ?? 3;
  // Seeded, so the network is the same on every run.
  const rand = seededRandom(options.seed ?? 2024);
  const int = (lo: number, hi: number): number => randomInt(rand, lo, hi);

  const inScale = 0.05;
  const inQ = { scale: [inScale], zeroPoint: [3], axis: 0 };
  const wScales = Array.from({ length: oc }, () => 0.002 + rand() * 0.008);
  const weightType = tensorType([oc, k, k, c], 'int8', { scale: wScales, zeroPoint: wScales.map(() => 0), axis: 0 });
  const biasType = tensorType([oc], 'int32', { scale: wScales.map((s) => s * inScale), zeroPoint: wScales.map(() => 0), axis: 0 });
  const actType = tensorType([n, h, w, c], 'int8', inQ);
  const convType = tensorType([n, h, w, oc], 'int8', { scale: [0.1], zeroPoint: [-5], axis: 0 });

  const weights = new Uint8Array(Int8Array.from({ length: oc * k * k * c }, () => int(-127, 127)).buffer);
  const bias = new Uint8Array(Int32Array.from({ length: oc }, () => int(-2000, 2000)).buffer);
  const pad = Math.floor(k / 2);

  const b = new GraphFunctionBuilder();
  const data = b.param('data', actType);
  const transposed = b.call('transposed', 'copy', [data], actType, { kind: LAYOUT_TRANSFORM_KIND });
  b.constant('conv_weight', weightType, weights);
  b.constant('conv_bias', biasType, bias);
  const conv = b.call('conv', 'conv2d', [transposed, 'conv_weight', 'conv_bias'], convType, {
    strides: [1, 1],
    dilation: [1, 1],
    padding: [pad, pad, k - 1 - pad, k - 1 - pad],
    activation: 'RELU',
  });
  const back = b.call('conv_out', 'copy', [conv], convType, { kind: LAYOUT_TRANSFORM_KIND });
  const output = b.call('output', 'reshape', [back], tensorType([n, h * w * oc], 'int8', convType.quant), {});
  return moduleOf([b.build([output])], 'accel seed network');
}

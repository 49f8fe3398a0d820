/**
 * Test fixtures of the vanilla backend: a small int8 graph with the conv2d variants the
 * kernel must handle (padding, stride, dilation, per-channel and per-tensor weights, with
 * and without bias, fused activation), deterministic data.
 */
import { GraphFunctionBuilder, IRModule, moduleOf, Quantization, randomInt, seededRandom, TensorType, tensorType } from '../../src';

export function randomInt8(r: () => number, n: number): Uint8Array {
  return new Uint8Array(Int8Array.from({ length: n }, () => randomInt(r, -128, 127)).buffer);
}

function randomInt32(r: () => number, n: number, lo: number, hi: number): Uint8Array {
  return new Uint8Array(Int32Array.from({ length: n }, () => randomInt(r, lo, hi)).buffer);
}

function q(scale: number | number[], zeroPoint = 0): Quantization {
  const s = (Array.isArray(scale) ? scale : [scale]).map(Math.fround);
  return { scale: s, zeroPoint: s.map(() => zeroPoint), axis: 0 };
}

const i8 = (shape: number[], scale: number | number[], zp = 0): TensorType => tensorType(shape, 'int8', q(scale, zp));

/**
 * x [1,7,7,3] → conv a (3x3, SAME-like padding 1, per-channel, bias, RELU) → [1,7,7,4]
 *   → conv b (3x3, stride 2, dilation 1, no padding, per-tensor, no bias) → [1,3,3,5]
 *   → conv c (2x2, dilation 2, padding 1/1, grouped: filter depth 1 of 5 input channels, bias) → [1,3,3,5]
 *   → dense d → [1, 6]
 */
export function tinyConvModule(seed = 7): IRModule {
  const r = seededRandom(seed);
  const b = new GraphFunctionBuilder();
  const x = b.param('x', i8([1, 7, 7, 3], 0.05, -3));
  const wa = b.constant('wa', i8([4, 3, 3, 3], [0.02, 0.011, 0.03, 0.007]), randomInt8(r, 4 * 27));
  const ba = b.constant('ba', tensorType([4], 'int32', q([0.001, 0.00055, 0.0015, 0.00035])), randomInt32(r, 4, -3000, 3000));
  const a = b.call('a', 'conv2d', [x, wa, ba], i8([1, 7, 7, 4], 0.09, -10), {
    strides: [1, 1],
    dilation: [1, 1],
    padding: [1, 1, 1, 1],
    activation: 'RELU',
  });
  const wb = b.constant('wb', i8([5, 3, 3, 4], 0.015), randomInt8(r, 5 * 36));
  const c1 = b.call('b', 'conv2d', [a, wb], i8([1, 3, 3, 5], 0.2, 4), {
    strides: [2, 2],
    dilation: [1, 1],
    padding: [0, 0, 0, 0],
    activation: 'NONE',
  });
  const wc = b.constant('wc', i8([5, 2, 2, 1], [0.03, 0.02, 0.025, 0.04, 0.01]), randomInt8(r, 20));
  const bc = b.constant('bc', tensorType([5], 'int32', q([0.006, 0.004, 0.005, 0.008, 0.002])), randomInt32(r, 5, -500, 500));
  const c2 = b.call('c', 'conv2d', [c1, wc, bc], i8([1, 3, 3, 5], 0.1, 0), {
    strides: [1, 1],
    dilation: [2, 2],
    padding: [1, 1, 1, 1],
    activation: 'RELU6',
  });
  const flat = b.call('flat', 'reshape', [c2], i8([1, 45], 0.1, 0));
  const wd = b.constant('wd', i8([6, 45], 0.01), randomInt8(r, 6 * 45));
  const bd = b.constant('bd', tensorType([6], 'int32', q(0.001)), randomInt32(r, 6, -1000, 1000));
  const d = b.call('d', 'dense', [flat, wd, bd], i8([1, 6], 0.3, 2), { activation: 'NONE', keep_num_dims: false });
  return moduleOf([b.build([d])]);
}

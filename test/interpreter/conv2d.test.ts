import { runOp, q, t } from './helpers';

// Input 1x3x3x2 and OHWI weights 2x2x2x2 with small patterned values.
const X = Array.from({ length: 18 }, (_, i) => ((i * 7) % 11) - 5);
const W = Array.from({ length: 16 }, (_, i) => ((i * 5) % 9) - 4);

function runInt8Conv(bias: number[], activation = 'NONE'): number[] {
  return runOp(
    'conv2d',
    [
      { type: t([1, 3, 3, 2], 'int8', q(0.5, -1)), values: X },
      { type: t([2, 2, 2, 2], 'int8', q([0.25, 0.125], 0, 0)), values: W, constant: true },
      { type: t([2], 'int32'), values: bias, constant: true },
    ],
    t([1, 3, 3, 2], 'int8', q(1.0, 3)),
    { strides: [1, 1], dilation: [1, 1], padding: [0, 0, 1, 1], activation },
  );
}

describe('conv2d int8', () => {
  it('matches a hand-computed element', () => {
    const out = runInt8Conv([10, -20]);
    // Output (0,0), channel 0. Taps (ky,kx,c) in order, w(0,ky,kx,c) * (x(ky,kx,c) - zp_in):
    // x(0,0,:) = [-5, 2], x(0,1,:) = [-2, 5], x(1,0,:) = [4, 0], x(1,1,:) = [-4, 3]
    // w(0,...) = [-4, 1, -3, 2, -2, 3, -1, 4]
    // (-4)(-4) + (1)(3) + (-3)(-1) + (2)(6) + (-2)(5) + (3)(1) + (-1)(-3) + (4)(4)
    const acc = 16 + 3 + 3 + 12 - 10 + 3 + 3 + 16;
    expect(acc).toBe(46);
    // Effective scale 0.5 * 0.25 / 1.0 = 1/8; (46 + 10) / 8 = 7 exactly; output zp 3 -> 10.
    expect(out[0]).toBe(10);
  });

  it('rounds a tie away from zero after the two-step requantization', () => {
    // 46 + 14 = 60 -> 7.5 -> 8 (+3 = 11); 46 - 106 = -60 -> -7.5 -> -8 (+3 = -5).
    expect(runInt8Conv([14, 0])[0]).toBe(11);
    expect(runInt8Conv([-106, 0])[0]).toBe(-5);
    // TFLite rounds twice: 46 + 13 = 59; SRDHM halves it to round(29.5) = 30, then
    // 30 / 4 = 7.5 -> 8 (+3 = 11), although 59 / 8 = 7.375 would round to 7.
    expect(runInt8Conv([13, 0])[0]).toBe(11);
  });

  it('skips taps outside the image (padding reads the input zero point)', () => {
    const out = runInt8Conv([0, 0]);
    // Output (2,2), channel 1: only tap (0,0) lies inside: x(2,2,:) = [-3, 4], w(1,0,0,:) = [0, -4].
    // 0 * (-3 + 1) + (-4) * (4 + 1) = -20; scale 0.5 * 0.125 = 1/16 -> -1.25 -> -1; +3 = 2.
    expect(out[(2 * 3 + 2) * 2 + 1]).toBe(2);
  });

  it('clamps to the quantized RELU6 range [zp, zp + round(6 / scale)]', () => {
    const out = runInt8Conv([1000, -1000], 'RELU6');
    expect(out[0]).toBe(9); // (46 + 1000) / 8 = 130.75 -> clamped to 3 + 6
    expect(out[1]).toBe(3); // negative -> clamped to the zero point
  });
});

describe('conv2d float32', () => {
  it('computes a padded, strided convolution with bias', () => {
    // 1x3x3x1 input 1..9, 1x2x2x1 kernel [1, 2, 3, 4], stride 2, SAME-like padding.
    const out = runOp(
      'conv2d',
      [
        { type: t([1, 3, 3, 1], 'float32'), values: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
        { type: t([1, 2, 2, 1], 'float32'), values: [1, 2, 3, 4], constant: true },
        { type: t([1], 'float32'), values: [0.5], constant: true },
      ],
      t([1, 2, 2, 1], 'float32'),
      { strides: [2, 2], dilation: [1, 1], padding: [0, 0, 1, 1], activation: 'NONE' },
    );
    // (0,0): 1*1+2*2+4*3+5*4 = 37; (0,1): 3*1+6*3 = 21; (1,0): 7*1+8*2 = 23; (1,1): 9.
    expect(out).toEqual([37.5, 21.5, 23.5, 9.5]);
  });
});

import { InterpreterError } from '../../src/errors';
import { FunctionBuilder, moduleOf } from '../../src/ir/graph/builder';
import { interpret } from '../../src/interpreter';
import { bytesOf, q, runOp, t, valuesOf } from './helpers';

describe('depthwise_conv2d', () => {
  it('maps output channel ic * M + m to input channel ic (float, multiplier 2)', () => {
    const out = runOp(
      'depthwise_conv2d',
      [
        { type: t([1, 2, 2, 2], 'float32'), values: [1, 2, 3, 4, 5, 6, 7, 8] },
        { type: t([1, 1, 1, 4], 'float32'), values: [1, 10, 100, 1000], constant: true },
      ],
      t([1, 2, 2, 4], 'float32'),
      { strides: [1, 1], dilation: [1, 1], padding: [0, 0, 0, 0], activation: 'NONE', depth_multiplier: 2 },
    );
    expect(out.slice(0, 8)).toEqual([1, 10, 200, 2000, 3, 30, 400, 4000]);
  });

  it('requantizes each output channel with its own scale (int8)', () => {
    const out = runOp(
      'depthwise_conv2d',
      [
        { type: t([1, 2, 2, 1], 'int8', q(1, 0)), values: [1, 2, 3, 4] },
        // 1HW(C*M): per tap [channel 0, channel 1]
        { type: t([1, 2, 2, 2], 'int8', q([0.5, 0.25], 0, 3)), values: [1, 1, 1, -1, 1, 1, 1, -1], constant: true },
      ],
      t([1, 1, 1, 2], 'int8', q(1, 0)),
      { strides: [1, 1], dilation: [1, 1], padding: [0, 0, 0, 0], activation: 'NONE', depth_multiplier: 2 },
    );
    // channel 0: (1+2+3+4) * 0.5 = 5; channel 1: (1-2+3-4) * 0.25 = -0.5 -> -1 (away from zero)
    expect(out).toEqual([5, -1]);
  });
});

describe('dense', () => {
  it('int8: offsets, per-tensor multiplier, bias, output zero point', () => {
    const out = runOp(
      'dense',
      [
        { type: t([1, 3], 'int8', q(0.5, 2)), values: [4, 0, -2] },
        { type: t([2, 3], 'int8', q(0.25, 0)), values: [1, 2, 3, -1, -1, -1], constant: true },
        { type: t([2], 'int32'), values: [4, 0], constant: true },
      ],
      t([1, 2], 'int8', q(0.5, -1)),
      { activation: 'NONE', keep_num_dims: false },
    );
    // unit 0: 1*2 + 2*(-2) + 3*(-4) + 4 = -10; *0.25 = -2.5 -> -3; -1 -> -4
    // unit 1: -(2 - 2 - 4) = 4; *0.25 = 1; -1 -> 0
    expect(out).toEqual([-4, 0]);
  });

  it('float: every row of a keep_num_dims input', () => {
    const out = runOp(
      'dense',
      [
        { type: t([2, 1, 3], 'float32'), values: [1, 2, 3, -1, 0, 1] },
        { type: t([2, 3], 'float32'), values: [1, 1, 1, 0, 0, 2], constant: true },
        { type: t([2], 'float32'), values: [0.5, -10], constant: true },
      ],
      t([2, 1, 2], 'float32'),
      { activation: 'RELU', keep_num_dims: true },
    );
    expect(out).toEqual([6.5, 0, 0.5, 0]);
  });
});

describe('add', () => {
  it('int8 stays within one step of the real-valued sum', () => {
    const lhs = Array.from({ length: 64 }, (_, i) => i * 4 - 128);
    const rhs = Array.from({ length: 64 }, (_, i) => 127 - i * 3);
    const [s1, z1, s2, z2, so, zo] = [0.05, -3, 0.02, 7, 0.06, 2];
    const out = runOp(
      'add',
      [
        { type: t([64], 'int8', q(s1, z1)), values: lhs },
        { type: t([64], 'int8', q(s2, z2)), values: rhs },
      ],
      t([64], 'int8', q(so, zo)),
      { activation: 'NONE' },
    );
    out.forEach((v, i) => {
      const real = s1 * (lhs[i] - z1) + s2 * (rhs[i] - z2);
      const ideal = Math.min(127, Math.max(-128, real / so + zo));
      expect(Math.abs(v - ideal)).toBeLessThanOrEqual(0.51 + 1e-9);
    });
  });

  it('float broadcasts a row over a matrix', () => {
    const out = runOp(
      'add',
      [
        { type: t([2, 3], 'float32'), values: [1, 2, 3, 4, 5, 6] },
        { type: t([3], 'float32'), values: [10, 20, 30] },
      ],
      t([2, 3], 'float32'),
      { activation: 'NONE' },
    );
    expect(out).toEqual([11, 22, 33, 14, 25, 36]);
  });
});

describe('pooling', () => {
  const pool = (op: string, values: number[], padding = [0, 0, 0, 0], outHW = 1) =>
    runOp(op, [{ type: t([1, 2, 2, 4], 'int8', q(1, 0)), values }], t([1, outHW, outHW, 4], 'int8', q(1, 0)), {
      pool_size: [2, 2],
      strides: [1, 1],
      padding,
      activation: 'NONE',
    });

  it('avg int8 rounds half away from zero with truncating division', () => {
    // channels: [1,2,2,2] = 1.75 -> 2; [-1,-2,-2,-2] = -1.75 -> -2; [1,1,1,-1] = 0.5 -> 1; [-1,-1,-1,1] = -0.5 -> -1
    const values = [1, -1, 1, -1, 2, -2, 1, -1, 2, -2, 1, -1, 2, -2, -1, 1];
    expect(pool('avg_pool2d', values)).toEqual([2, -2, 1, -1]);
  });

  it('avg divides by the in-image tap count at padded borders', () => {
    const values = [4, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 32, 0, 0, 0];
    const out = pool('avg_pool2d', values, [0, 0, 1, 1], 2);
    // channel 0 at (0,0): 60/4 = 15; (0,1): (8+32)/2 = 20; (1,0): (16+32)/2 = 24; (1,1): 32
    expect([out[0], out[4], out[8], out[12]]).toEqual([15, 20, 24, 32]);
  });

  it('max takes the window maximum', () => {
    const values = [1, -1, 1, -1, 2, -2, 1, -1, 2, -2, 1, -1, 2, -2, -1, 1];
    expect(pool('max_pool2d', values)).toEqual([2, -1, 1, 1]);
  });
});

describe('softmax', () => {
  it('float matches exp(x - max) / sum', () => {
    const x = [1, 2, 3, 4];
    const out = runOp('softmax', [{ type: t([1, 4], 'float32'), values: x }], t([1, 4], 'float32'), { beta: 1 });
    const e = x.map((v) => Math.exp(v - 4));
    const s = e.reduce((a, b) => a + b, 0);
    out.forEach((v, i) => expect(v).toBeCloseTo(e[i] / s, 6));
  });

  it('int8 fixed-point result is within one step of the real softmax', () => {
    const x = [10, 20, 30, 40, -128, 127, 0, 0];
    const scale = 0.1;
    const out = runOp(
      'softmax',
      [{ type: t([2, 4], 'int8', q(scale, 0)), values: x }],
      t([2, 4], 'int8', q(1 / 256, -128)),
      { beta: 1 },
    );
    for (const row of [0, 1]) {
      const xs = x.slice(row * 4, row * 4 + 4).map((v) => v * scale);
      const m = Math.max(...xs);
      const e = xs.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      e.forEach((v, i) => {
        const ideal = Math.min(127, (v / s) * 256 - 128);
        expect(Math.abs(out[row * 4 + i] - ideal)).toBeLessThanOrEqual(1);
      });
    }
  });
});

describe('quantize / dequantize', () => {
  it('float -> int8 rounds half away from zero and clamps', () => {
    const out = runOp('quantize', [{ type: t([5], 'float32'), values: [1.25, -1.25, 100, -100, 0.2] }], t([5], 'int8', q(0.5, 1)));
    // 2.5 -> 3 (+1); -2.5 -> -3 (+1); 201 -> 127; -199 -> -128; 0.4 -> 0 (+1)
    expect(out).toEqual([4, -2, 127, -128, 1]);
  });

  it('int8 -> int8 requantizes with MultiplyByQuantizedMultiplier', () => {
    const out = runOp('quantize', [{ type: t([3], 'int8', q(1, 0)), values: [3, -3, 5] }], t([3], 'int8', q(2, 0)));
    // 1.5 -> 2; -1.5 -> -1 (SRDHM rounds the negative tie toward zero); 2.5 -> 3
    expect(out).toEqual([2, -1, 3]);
  });

  it('dequantizes scale * (q - zero_point)', () => {
    expect(runOp('dequantize', [{ type: t([3], 'int8', q(0.5, 1)), values: [3, -1, 1] }], t([3], 'float32'))).toEqual([1, -1, 0]);
  });
});

describe('svdf', () => {
  const stateZeros = (dtype: 'float32' | 'int16', quant?: ReturnType<typeof q>) => ({
    type: t([1, 6], dtype, quant),
    values: [0, 0, 0, 0, 0, 0],
    constant: true,
  });

  it('float: one step from zero state is bias + feature activation * newest time weight', () => {
    const out = runOp(
      'svdf',
      [
        { type: t([1, 2], 'float32'), values: [1, 2] },
        { type: t([2, 2], 'float32'), values: [1, 1, 2, -1], constant: true },
        { type: t([2, 3], 'float32'), values: [0.1, 0.2, 0.5, 1, 1, 2], constant: true },
        { type: t([2], 'float32'), values: [1, -1], constant: true },
        stateZeros('float32'),
      ],
      t([1, 2], 'float32'),
      { rank: 1, activation: 'NONE' },
    );
    // features [3, 0]; unit 0: 1 + 3 * 0.5 = 2.5; unit 1: -1 + 0 * 2 = -1
    expect(out).toEqual([2.5, -1]);
  });

  it('float: rank 2 sums both filters of a unit; no-bias form has four args', () => {
    const out = runOp(
      'svdf',
      [
        { type: t([1, 2], 'float32'), values: [1, 2] },
        { type: t([2, 2], 'float32'), values: [1, 1, 2, 1], constant: true },
        { type: t([2, 3], 'float32'), values: [0, 0, 0.5, 0, 0, 2], constant: true },
        stateZeros('float32'),
      ],
      t([1, 1], 'float32'),
      { rank: 2, activation: 'NONE' },
    );
    expect(out).toEqual([3 * 0.5 + 4 * 2]);
  });

  it('int8 with int16 state: two requantizations', () => {
    const out = runOp(
      'svdf',
      [
        { type: t([1, 2], 'int8', q(1, 0)), values: [1, 2] },
        { type: t([2, 2], 'int8', q(1, 0)), values: [1, 1, 2, -1], constant: true },
        { type: t([2, 3], 'int16', q(0.5, 0)), values: [0, 0, 4, 0, 0, 6], constant: true },
        { type: t([2], 'int32'), values: [1, 0], constant: true },
        stateZeros('int16', q(1, 0)),
      ],
      t([1, 2], 'int8', q(1, 0)),
      { rank: 1, activation: 'NONE' },
    );
    // state newest = [3, 0]; unit 0: (3*4 + 1) * 0.5 = 6.5 -> 7; unit 1: 0
    expect(out).toEqual([7, 0]);
  });

  it('int8 state: the state zero point is added before the clamp (TFLite Micro), so it saturates instead of wrapping', () => {
    const out = runOp(
      'svdf',
      [
        { type: t([1, 2], 'int8', q(1, 0)), values: [1, 2] },
        { type: t([1, 2], 'int8', q(1, 0)), values: [100, 0], constant: true },
        { type: t([1, 3], 'int8', q(1, 0)), values: [0, 0, 1], constant: true },
        { type: t([1], 'int32'), values: [0], constant: true },
        // real zero state: every element at the zero point 100
        { type: t([1, 3], 'int8', q(1, 100)), values: [100, 100, 100], constant: true },
      ],
      t([1, 1], 'int8', q(1, 0)),
      { rank: 1, activation: 'NONE' },
    );
    // feature 100 -> state min(100 + 100, 127) = 127; output 1 * (127 - 100) = 27.
    // Clamping before adding the zero point would store 200 -> -56 and give -128.
    expect(out).toEqual([27]);
  });
});

describe('graph execution', () => {
  it('reshape keeps the elements', () => {
    expect(runOp('reshape', [{ type: t([2, 2], 'int8', q(1, 0)), values: [1, 2, 3, 4] }], t([4], 'int8', q(1, 0)))).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('an unknown operator is an InterpreterError naming it', () => {
    expect(() => runOp('frobnicate', [{ type: t([1], 'float32'), values: [1] }], t([1], 'float32'))).toThrow(InterpreterError);
    expect(() => runOp('frobnicate', [{ type: t([1], 'float32'), values: [1] }], t([1], 'float32'))).toThrow(/frobnicate/);
  });

  it('calls of partitioned functions give the same result as the inlined graph', () => {
    const ty = t([4], 'int8', q(0.1, 0));
    const inner = new FunctionBuilder('ext_main_0');
    inner.param('a', ty);
    inner.param('b', ty);
    inner.call('s', 'add', ['a', 'b'], ty, { activation: 'RELU' });
    const ext = inner.build(['s'], { Compiler: 'ext', global_symbol: 'ext_main_0' });
    const main = new FunctionBuilder();
    main.param('x', ty);
    main.constant('k', ty, bytesOf('int8', [5, -5, 50, -50]));
    main.callFunction('y', 'ext_main_0', ['x', 'k'], ty);
    main.call('z', 'add', ['y', 'y'], ty, { activation: 'NONE' });
    const partitioned = moduleOf([main.build(['z']), ext]);

    const flat = new FunctionBuilder();
    flat.param('x', ty);
    flat.constant('k', ty, bytesOf('int8', [5, -5, 50, -50]));
    flat.call('y', 'add', ['x', 'k'], ty, { activation: 'RELU' });
    flat.call('z', 'add', ['y', 'y'], ty, { activation: 'NONE' });

    const input = bytesOf('int8', [1, 2, -100, 100]);
    const a = valuesOf('int8', interpret(partitioned, [input])[0]);
    const b = valuesOf('int8', interpret(moduleOf([flat.build(['z'])]), [input])[0]);
    expect(a).toEqual(b);
    expect(a).toEqual([12, 0, 0, 100]);
  });

  it('rejects inputs of the wrong size', () => {
    const b = new FunctionBuilder();
    b.param('x', t([4], 'float32'));
    b.call('y', 'reshape', ['x'], t([2, 2], 'float32'));
    expect(() => interpret(moduleOf([b.build(['y'])]), [new Uint8Array(4)])).toThrow(InterpreterError);
  });
});

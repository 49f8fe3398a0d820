import { CONV_KERNEL_SCALARS, LoweringError, OpLoweringInput, TensorType, convKernelParams, tensorType, tir } from '../../src/index';

const q = (scale: number[], zp: number) => ({ scale, zeroPoint: scale.map(() => zp), axis: 0 });

/** A conv2d call input: data [1,5,5,4], weights [6,3,3,wC], output [1,3,3,6]. */
function convInput(opts: { dtype?: 'int8' | 'float32'; filterDepth?: number; weightScales?: number[]; activation?: string } = {}): OpLoweringInput {
  const dtype = opts.dtype ?? 'int8';
  const wC = opts.filterDepth ?? 2;
  const scales = opts.weightScales ?? [0.5, 0.25, 0.5, 0.25, 0.5, 0.25];
  const data: TensorType = tensorType([1, 5, 5, 4], dtype, q([0.5], -3));
  const weights: TensorType = tensorType([6, 3, 3, wC], 'int8', q(scales, 0));
  const outType: TensorType = tensorType([1, 3, 3, 6], dtype, q([0.0625], 5));
  const call = {
    kind: 'call' as const,
    name: 'conv',
    callee: { kind: 'op' as const, op: 'conv2d' },
    args: ['x', 'w'],
    attrs: { strides: [2, 2], dilation: [1, 1], padding: [1, 1, 0, 0], activation: opts.activation ?? 'RELU6' },
    type: outType,
  };
  return {
    call,
    argTypes: [data, weights],
    args: [tir.makeBuffer('x', dtype, data.shape), tir.makeBuffer('w', 'int8', weights.shape)],
    constants: new Map(),
    out: tir.makeBuffer('conv', dtype, outType.shape),
    target: 'c',
  };
}

describe('convKernelParams', () => {
  it('reads shapes, window and zero points of a grouped int8 conv2d', () => {
    const { scalars } = convKernelParams(convInput());
    expect(Object.keys(scalars).sort()).toEqual([...CONV_KERNEL_SCALARS].sort());
    expect(scalars).toMatchObject({
      batches: 1,
      in_h: 5,
      in_w: 5,
      in_c: 4,
      out_h: 3,
      out_w: 3,
      out_c: 6,
      kernel_h: 3,
      kernel_w: 3,
      filter_c: 2,
      stride_h: 2,
      stride_w: 2,
      pad_top: 1,
      pad_left: 1,
      input_offset: 3,
      output_offset: 5,
    });
  });

  it('clamps RELU6 to [zp, zp + round(6 / scale)] and NONE to the int8 range', () => {
    expect(convKernelParams(convInput()).scalars).toMatchObject({ act_min: 5, act_max: 5 + 96 });
    expect(convKernelParams(convInput({ activation: 'NONE' })).scalars).toMatchObject({ act_min: -128, act_max: 127 });
  });

  it('requantizes per channel: input 0.5 x weight 0.5 (or 0.25) over output 1/16 is 4 = 0.5 x 2^3 (or 2 = 0.5 x 2^2)', () => {
    const { multipliers, shifts } = convKernelParams(convInput());
    // 0.5 in Q31 is 2^30; the shift is the power of two (positive = left).
    expect(Array.from(multipliers)).toEqual(new Array(6).fill(2 ** 30));
    expect(Array.from(shifts)).toEqual([3, 2, 3, 2, 3, 2]);
  });

  it('rejects float tensors, filters that do not fit and a wrong number of weight scales', () => {
    expect(() => convKernelParams(convInput({ dtype: 'float32' }))).toThrow(LoweringError);
    expect(() => convKernelParams(convInput({ dtype: 'float32' }))).toThrow(/unsupported dtype float32/);
    expect(() => convKernelParams(convInput({ filterDepth: 3 }))).toThrow(/does not fit input \[1, 5, 5, 4\]/);
    expect(() => convKernelParams(convInput({ weightScales: [0.5, 0.5, 0.5, 0.5] }))).toThrow(/4 scales for 6 output channels/);
  });
});

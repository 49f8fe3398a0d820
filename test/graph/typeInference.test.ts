import { TypeInferenceError } from '../../src/errors';
import { FunctionBuilder, moduleOf, tensorType as tt } from '../../src/ir/graph/builder';
import { OPS } from '../../src/ir/graph/ops';
import { broadcastShapes, checkFunctionTypes, inferCallType } from '../../src/ir/graph/typeInference';
import { TensorType } from '../../src/ir/graph/types';

const convAttrs = { strides: [1, 1], dilation: [1, 1], padding: [0, 0, 0, 0], activation: 'NONE' };

function shapeOf(op: string, attrs: Record<string, unknown>, args: TensorType[], declared?: TensorType): readonly number[] {
  return inferCallType(op, attrs as never, args, declared).shape;
}

describe('inferCallType', () => {
  it('has a rule for every op in ops.ts', () => {
    for (const op of Object.keys(OPS)) {
      // An unknown op throws "no type rule"; a known op with no args throws an arity error instead.
      expect(() => inferCallType(op, {}, [])).toThrow(/takes/);
    }
    expect(() => inferCallType('no_such_op', {}, [])).toThrow(/no type rule/);
  });

  it('conv2d: output extent floor((in + pads - dilated k) / stride) + 1', () => {
    const input = tt([1, 49, 10, 1], 'int8');
    const weight = tt([64, 10, 4, 1], 'int8');
    const bias = tt([64], 'int32');
    // kws_ref_model's first layer: SAME padding [4, 1, 5, 1], stride 2 -> (49+9-10)/2+1 = 25, (10+2-4)/2+1 = 5.
    const attrs = { ...convAttrs, strides: [2, 2], padding: [4, 1, 5, 1] };
    expect(inferCallType('conv2d', attrs, [input, weight, bias])).toEqual({ shape: [1, 25, 5, 64], dtype: 'int8' });
    // Dilation 2 on a 3x3 filter acts as 5x5: 9 - 5 + 1 = 5.
    const dilated = { ...convAttrs, dilation: [2, 2] };
    expect(shapeOf('conv2d', dilated, [tt([1, 9, 9, 2], 'float32'), tt([3, 3, 3, 2], 'float32')])).toEqual([1, 5, 5, 3]);
  });

  it('conv2d: channel and bias mismatches name the op and the shapes', () => {
    const input = tt([1, 8, 8, 3], 'int8');
    const weight = tt([4, 3, 3, 2], 'int8');
    expect(() => inferCallType('conv2d', convAttrs, [input, weight])).toThrow(TypeInferenceError);
    expect(() => inferCallType('conv2d', convAttrs, [input, weight])).toThrow(
      'conv2d: input has 3 channels but the weight expects 2 (or a multiple of it, grouped) (arguments: [1, 8, 8, 3] int8, [4, 3, 3, 2] int8)',
    );
    // Grouped (TFLite: groups = input depth / filter depth): 6 channels in 3 groups of 2, 6 filters.
    expect(inferCallType('conv2d', convAttrs, [tt([1, 8, 8, 6], 'int8'), tt([6, 3, 3, 2], 'int8')]).shape[3]).toBe(6);
    expect(() => inferCallType('conv2d', convAttrs, [tt([1, 8, 8, 6], 'int8'), tt([4, 3, 3, 2], 'int8')])).toThrow(
      /4 filters do not split into 3 groups/,
    );
    const badBias = [input, tt([4, 3, 3, 3], 'int8'), tt([5], 'int32')];
    expect(() => inferCallType('conv2d', convAttrs, badBias)).toThrow(/bias has 5 elements, expected 4/);
    const floatWeightsInt8Input = [input, tt([4, 3, 3, 3], 'float32')];
    expect(() => inferCallType('conv2d', convAttrs, floatWeightsInt8Input)).toThrow(/weight dtype float32/);
  });

  it('depthwise_conv2d: channels times depth multiplier', () => {
    const attrs = { ...convAttrs, strides: [2, 2], padding: [0, 0, 1, 1], depth_multiplier: 8 };
    const args = [tt([1, 96, 96, 1], 'int8'), tt([1, 3, 3, 8], 'int8'), tt([8], 'int32')];
    expect(shapeOf('depthwise_conv2d', attrs, args)).toEqual([1, 48, 48, 8]);
    expect(() => inferCallType('depthwise_conv2d', { ...attrs, depth_multiplier: 4 }, args)).toThrow(/depth_multiplier 4/);
  });

  it('dense: rows of the flattened input, or keep_num_dims', () => {
    const w = tt([10, 64], 'int8');
    expect(shapeOf('dense', { activation: 'NONE', keep_num_dims: false }, [tt([1, 1, 1, 64], 'int8'), w])).toEqual([1, 10]);
    expect(shapeOf('dense', { activation: 'NONE', keep_num_dims: false }, [tt([2, 128], 'int8'), w])).toEqual([4, 10]);
    expect(shapeOf('dense', { activation: 'NONE', keep_num_dims: true }, [tt([3, 5, 64], 'int8'), w])).toEqual([3, 5, 10]);
    expect(() => inferCallType('dense', {}, [tt([1, 63], 'int8'), w])).toThrow(/not a whole number of rows of 64/);
    // Fuzzed: no output units failed in the strategy with a TypeError; no rows, a DMA copy from nowhere.
    expect(() => inferCallType('dense', {}, [tt([1, 64], 'int8'), tt([0, 64], 'int8')])).toThrow(/no output units/);
    expect(() => inferCallType('dense', {}, [tt([0, 64], 'int8'), w])).toThrow(/has no elements/);
    // Fuzzed: both were told "input of 1 elements is not a whole number of rows of 1" (or of 0).
    expect(() => inferCallType('dense', {}, [tt([], 'int8'), tt([10, 1], 'int8')])).toThrow(/input is a scalar \(shape \[\]\)/);
    expect(() => inferCallType('dense', {}, [tt([1, 64], 'int8'), tt([10, 0], 'int8')])).toThrow(/weight has no input features \(shape \[10, 0\]\)/);
    expect(() => inferCallType('conv2d', convAttrs, [tt([1, 4, 4, 3], 'int8'), tt([0, 1, 1, 3], 'int8')])).toThrow(/no filters/);
    // A mean over an axis of length 0 divides by zero; a sum of nothing is 0.
    expect(() => inferCallType('mean', { axes: [1] }, [tt([1, 0], 'float32')])).toThrow(/axis of length 0/);
    expect(shapeOf('sum', { axes: [1] }, [tt([1, 0], 'float32')])).toEqual([1]);
    // Hybrid (weights-only quantized) models keep float activations with int8 weights.
    expect(inferCallType('dense', {}, [tt([1, 64], 'float32'), w, tt([10], 'float32')]).dtype).toBe('float32');
  });

  it('add broadcasts like NumPy', () => {
    expect(broadcastShapes([1, 4, 4, 8], [8])).toEqual([1, 4, 4, 8]);
    expect(broadcastShapes([2, 1], [1, 3])).toEqual([2, 3]);
    expect(broadcastShapes([2, 3], [3, 2])).toBeNull();
    expect(shapeOf('add', {}, [tt([1, 4, 1], 'int8'), tt([5, 1, 3], 'int8')])).toEqual([5, 4, 3]);
    expect(() => inferCallType('add', {}, [tt([2, 3], 'int8'), tt([3, 2], 'int8')])).toThrow(/add: shapes do not broadcast/);
    expect(() => inferCallType('add', {}, [tt([2], 'int8'), tt([2], 'int16')])).toThrow(/dtypes differ/);
  });

  it('pools keep channels', () => {
    const attrs = { pool_size: [25, 5], strides: [25, 5], padding: [0, 0, 0, 0], activation: 'NONE' };
    expect(shapeOf('avg_pool2d', attrs, [tt([1, 25, 5, 64], 'int8')])).toEqual([1, 1, 1, 64]);
    const same = { pool_size: [2, 2], strides: [2, 2], padding: [0, 0, 1, 1], activation: 'NONE' };
    expect(shapeOf('max_pool2d', same, [tt([1, 5, 5, 3], 'float32')])).toEqual([1, 3, 3, 3]);
    expect(() => inferCallType('max_pool2d', { ...same, pool_size: [9, 9] }, [tt([1, 5, 5, 3], 'float32')])).toThrow(/larger than/);
  });

  it('reshape takes the declared shape and checks the element count', () => {
    const x = tt([1, 1, 1, 64], 'int8');
    expect(shapeOf('reshape', {}, [x], tt([1, 64], 'int8'))).toEqual([1, 64]);
    expect(shapeOf('reshape', { newshape: [8, 8] }, [x])).toEqual([8, 8]);
    expect(() => inferCallType('reshape', {}, [x], tt([1, 65], 'int8'))).toThrow(/cannot reshape 64 elements to \[1, 65\]/);
    expect(() => inferCallType('reshape', {}, [x])).toThrow(/declared output type/);
  });

  it('softmax, quantize, dequantize dtypes', () => {
    expect(inferCallType('softmax', { beta: 1 }, [tt([1, 2], 'int8')], tt([1, 2], 'int16')).dtype).toBe('int16');
    expect(inferCallType('softmax', { beta: 1 }, [tt([1, 2], 'float32')], tt([1, 2], 'int16')).dtype).toBe('float32');
    expect(inferCallType('quantize', {}, [tt([1, 3], 'float32')], tt([1, 3], 'int8')).dtype).toBe('int8');
    expect(() => inferCallType('quantize', {}, [tt([1, 3], 'float32')], tt([1, 3], 'float32'))).toThrow(/quantize/);
    expect(inferCallType('dequantize', {}, [tt([1, 3], 'int8')])).toEqual({ shape: [1, 3], dtype: 'float32' });
    expect(() => inferCallType('dequantize', {}, [tt([1, 3], 'float32')])).toThrow(/not quantized/);
  });

  it('svdf: units = filters / rank, with or without bias', () => {
    // batch 1, input 40, filters 16 (rank 2 -> 8 units), memory 10, state 1 x 10 x 16.
    const input = tt([1, 40], 'int8');
    const feature = tt([16, 40], 'int8');
    const time = tt([16, 10], 'int16');
    const state = tt([1, 160], 'int16');
    expect(shapeOf('svdf', { rank: 2 }, [input, feature, time, tt([8], 'int32'), state])).toEqual([1, 8]);
    expect(shapeOf('svdf', { rank: 2 }, [input, feature, time, state])).toEqual([1, 8]);
    expect(() => inferCallType('svdf', { rank: 2 }, [input, feature, time, tt([1, 100], 'int16')])).toThrow(/state has 100/);
    expect(() => inferCallType('svdf', { rank: 3 }, [input, feature, time, state])).toThrow(/rank 3 does not divide 16/);
  });
});

describe('checkFunctionTypes', () => {
  function denseFn(declared: TensorType) {
    const b = new FunctionBuilder();
    b.param('x', tt([1, 4], 'int8'));
    b.constant('w', tt([3, 4], 'int8'));
    b.call('y', 'dense', ['x', 'w'], declared, { activation: 'NONE', keep_num_dims: false });
    return b.build(['y']);
  }

  it('accepts matching types and reports mismatches with function, op and both types', () => {
    expect(() => checkFunctionTypes(denseFn(tt([1, 3], 'int8')))).not.toThrow();
    expect(() => checkFunctionTypes(denseFn(tt([1, 4], 'int8')))).toThrow(
      "main: dense 'y' declares [1, 4] int8 but its arguments give [1, 3] int8",
    );
  });

  it('prefixes rule errors with the function and node', () => {
    const b = new FunctionBuilder();
    b.param('x', tt([1, 5], 'int8'));
    b.constant('w', tt([3, 4], 'int8'));
    b.call('y', 'dense', ['x', 'w'], tt([1, 3], 'int8'));
    expect(() => checkFunctionTypes(b.build(['y']))).toThrow(/^main: 'y': dense: input of 5 elements/);
  });

  it('checks calls of other functions against their signatures when given the module', () => {
    const inner = new FunctionBuilder('f');
    inner.param('a', tt([1, 4], 'int8'));
    inner.call('r', 'softmax', ['a'], tt([1, 4], 'int8'), { beta: 1 });
    const f = inner.build(['r']);
    const outer = new FunctionBuilder();
    outer.param('x', tt([1, 4], 'int8'));
    outer.callFunction('y', 'f', ['x'], tt([1, 4], 'int8'));
    const good = outer.build(['y']);
    expect(() => checkFunctionTypes(good, moduleOf([good, f]))).not.toThrow();

    const badOuter = new FunctionBuilder();
    badOuter.param('x', tt([1, 5], 'int8'));
    badOuter.callFunction('y', 'f', ['x'], tt([1, 4], 'int8'));
    const bad = badOuter.build(['y']);
    expect(() => checkFunctionTypes(bad, moduleOf([bad, f]))).toThrow(/argument 0 is \[1, 5\] int8, parameter 'a' is \[1, 4\] int8/);
  });
});

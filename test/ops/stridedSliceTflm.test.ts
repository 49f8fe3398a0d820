/**
 * STRIDED_SLICE against TensorFlow Lite Micro's own kernel test vectors
 * (tensorflow/lite/micro/kernels/strided_slice_test.cc: input, begin, end, strides, masks,
 * expected output), run through the importer, the interpreter and the TIR evaluator.
 */
import { importTflite } from '../../src/frontend/tflite';
import { resolveStridedSlice } from '../../src/frontend/tflite/converters/stridedSlice';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { runBoth } from '../lower/helpers';
import { elementsOf } from '../oracle/litert';
import { singleOpTflite } from './tfliteModels';

interface TflmCase {
  readonly shape: number[];
  readonly begin: number[];
  readonly end: number[];
  readonly strides: number[];
  /** begin_mask, end_mask, shrink_axis_mask */
  readonly masks?: [number, number, number];
  readonly outShape: number[];
  readonly golden: number[];
}

const IN1D = [1, 2, 3, 4];
const IN2D = [1, 2, 3, 4, 5, 6];
const CASES: Record<string, TflmCase & { input: number[] }> = {
  In1D: { input: IN1D, shape: [4], begin: [1], end: [3], strides: [1], outShape: [2], golden: [2, 3] },
  In1D_NegativeBegin: { input: IN1D, shape: [4], begin: [-3], end: [3], strides: [1], outShape: [2], golden: [2, 3] },
  In1D_OutOfRangeBegin: { input: IN1D, shape: [4], begin: [-5], end: [3], strides: [1], outShape: [3], golden: [1, 2, 3] },
  In1D_NegativeEnd: { input: IN1D, shape: [4], begin: [1], end: [-2], strides: [1], outShape: [1], golden: [2] },
  In1D_OutOfRangeEnd: { input: IN1D, shape: [4], begin: [-3], end: [5], strides: [1], outShape: [3], golden: [2, 3, 4] },
  In1D_BeginMask: { input: IN1D, shape: [4], begin: [1], end: [3], strides: [1], masks: [1, 0, 0], outShape: [3], golden: [1, 2, 3] },
  In1D_NegativeBeginNegativeStride: { input: IN1D, shape: [4], begin: [-2], end: [-3], strides: [-1], outShape: [1], golden: [3] },
  In1D_OutOfRangeBeginNegativeStride: { input: IN1D, shape: [4], begin: [5], end: [2], strides: [-1], outShape: [1], golden: [4] },
  In1D_NegativeEndNegativeStride: { input: IN1D, shape: [4], begin: [2], end: [-4], strides: [-1], outShape: [2], golden: [3, 2] },
  In1D_OutOfRangeEndNegativeStride: { input: IN1D, shape: [4], begin: [-3], end: [-5], strides: [-1], outShape: [2], golden: [2, 1] },
  In1D_EndMask: { input: IN1D, shape: [4], begin: [1], end: [3], strides: [1], masks: [0, 1, 0], outShape: [3], golden: [2, 3, 4] },
  In1D_NegStride: { input: [1, 2, 3], shape: [3], begin: [-1], end: [-4], strides: [-1], outShape: [3], golden: [3, 2, 1] },
  In1D_EvenLenStride2: { input: [1, 2], shape: [2], begin: [0], end: [4], strides: [2], outShape: [1], golden: [1] },
  In1D_OddLenStride2: { input: [1, 2, 3], shape: [3], begin: [0], end: [3], strides: [2], outShape: [2], golden: [1, 3] },
  In2D_Identity: { input: IN2D, shape: [2, 3], begin: [0, 0], end: [2, 3], strides: [1, 1], outShape: [2, 3], golden: IN2D },
  In2D: { input: IN2D, shape: [2, 3], begin: [1, 0], end: [2, 2], strides: [1, 1], outShape: [1, 2], golden: [4, 5] },
  In2D_Stride2: { input: IN2D, shape: [2, 3], begin: [0, 0], end: [2, 3], strides: [2, 2], outShape: [1, 2], golden: [1, 3] },
  In2D_NegStride: { input: IN2D, shape: [2, 3], begin: [1, -1], end: [2, -4], strides: [2, -1], outShape: [1, 3], golden: [6, 5, 4] },
  In2D_BeginMask: { input: IN2D, shape: [2, 3], begin: [1, 0], end: [2, 2], strides: [1, 1], masks: [1, 0, 0], outShape: [2, 2], golden: [1, 2, 4, 5] },
  In2D_EndMask: { input: IN2D, shape: [2, 3], begin: [1, 0], end: [2, 2], strides: [1, 1], masks: [0, 2, 0], outShape: [1, 3], golden: [4, 5, 6] },
  In2D_NegStrideBeginMask: { input: IN2D, shape: [2, 3], begin: [1, -2], end: [2, -4], strides: [1, -1], masks: [2, 0, 0], outShape: [1, 3], golden: [6, 5, 4] },
  In1D_ShrinkAxisMask1_NegativeSlice: { input: [0, 1, 2, 3], shape: [4], begin: [-1], end: [0], strides: [1], masks: [0, 0, 1], outShape: [], golden: [3] },
  In2D_ShrinkAxis3_NegativeSlice: { input: [0, 1, 2, 3], shape: [4, 1], begin: [-2, -1], end: [-1, 0], strides: [1, 1], masks: [0, 0, 3], outShape: [], golden: [2] },
};

describe("STRIDED_SLICE on TensorFlow Lite Micro's kernel test vectors", () => {
  it.each(Object.entries(CASES))('%s', (_name, c) => {
    const [beginMask, endMask, shrink] = c.masks ?? [0, 0, 0];
    const ints = (v: number[]) => ({ shape: [v.length], dtype: 'int32' as const, data: v });
    const model = singleOpTflite({
      name: _name,
      op: 'STRIDED_SLICE',
      inputs: [{ shape: c.shape, dtype: 'float32' }, ints(c.begin), ints(c.end), ints(c.strides)],
      outputs: [{ shape: c.outShape, dtype: 'float32' }],
      options: tfliteOptions.stridedSlice({ beginMask, endMask, shrinkAxisMask: shrink }),
    });
    const { lowered, reference } = runBoth(importTflite(model), [new Uint8Array(Float32Array.from(c.input).buffer)]);
    expect(elementsOf('float32', reference[0])).toEqual(c.golden);
    expect(Array.from(lowered[0])).toEqual(Array.from(reference[0]));
  });

  it('In1D_EmptyOutput: a begin past the end slices nothing', () => {
    expect(resolveStridedSlice([4], [10], [3], [1], { begin: 0, end: 0, shrink: 0, offset: false }).sizes).toEqual([0]);
  });
});

/** The data-movement operator cases: each operator in each dtype it supports, several shapes and parameters. */
import { tfliteOptions, WriterDType } from '../../src/frontend/tflite/writer';
import { i32c, SingleOp, t } from './tfliteModels';

const ALL: WriterDType[] = ['float32', 'int8', 'int16', 'int32'];

function each(dtypes: readonly WriterDType[], make: (d: WriterDType) => SingleOp[]): SingleOp[] {
  return dtypes.flatMap(make);
}

export const DATA_MOVEMENT_CASES: SingleOp[] = [
  // TFLite Micro also concatenates int64 and bool, packs int64 and slices bool.
  ...each(['int64', 'bool'], (d) => [
    {
      name: `CONCATENATION axis 1 ${d}`,
      op: 'CONCATENATION',
      inputs: [t([2, 3], d), t([2, 1], d)],
      outputs: [t([2, 4], d)],
      options: tfliteOptions.concatenation(1),
    },
  ]),
  {
    name: 'PACK axis 1 int64',
    op: 'PACK',
    inputs: [t([2, 2], 'int64'), t([2, 2], 'int64')],
    outputs: [t([2, 2, 2], 'int64')],
    options: tfliteOptions.pack(2, 1),
  },
  ...each(['bool'], (d) => [
    {
      name: `STRIDED_SLICE ${d}`,
      op: 'STRIDED_SLICE',
      inputs: [t([4, 5], d), i32c([1, 0]), i32c([4, 5]), i32c([2, 2])],
      outputs: [t([2, 3], d)],
      options: tfliteOptions.stridedSlice(),
    },
    {
      name: `SLICE ${d}`,
      op: 'SLICE',
      inputs: [t([4, 5], d), i32c([1, 2]), i32c([2, 3])],
      outputs: [t([2, 3], d)],
    },
  ]),
  ...each(ALL, (d) => [
    {
      name: `PAD 4-d ${d}`,
      op: 'PAD',
      inputs: [t([1, 3, 4, 2], d), i32c([0, 0, 1, 2, 2, 1, 0, 1], [4, 2])],
      outputs: [t([1, 6, 7, 3], d)],
      options: tfliteOptions.empty(22),
    },
    {
      name: `PAD 2-d ${d}`,
      op: 'PAD',
      inputs: [t([3, 2], d), i32c([2, 0, 0, 3], [2, 2])],
      outputs: [t([5, 5], d)],
    },
    {
      name: `PADV2 ${d}`,
      op: 'PADV2',
      inputs: [t([2, 3], d), i32c([1, 1, 2, 0], [2, 2]), { ...t([1], d), data: [d === 'float32' ? 1.5 : 7] }],
      outputs: [t([4, 5], d)],
      options: tfliteOptions.empty(43),
    },
  ]),
  ...each(['float32', 'int8'], (d) => [
    {
      name: `MIRROR_PAD REFLECT ${d}`,
      op: 'MIRROR_PAD',
      inputs: [t([1, 4, 5, 2], d), i32c([0, 0, 2, 3, 4, 1, 0, 1], [4, 2])],
      outputs: [t([1, 9, 10, 3], d)],
      options: tfliteOptions.mirrorPad('REFLECT'),
    },
    {
      name: `MIRROR_PAD SYMMETRIC ${d}`,
      op: 'MIRROR_PAD',
      inputs: [t([3, 4], d), i32c([3, 1, 4, 2], [2, 2])],
      outputs: [t([7, 10], d)],
      options: tfliteOptions.mirrorPad('SYMMETRIC'),
    },
  ]),
  ...each(['float32', 'int8', 'int16'], (d) => [
    {
      name: `TRANSPOSE 3-d ${d}`,
      op: 'TRANSPOSE',
      inputs: [t([2, 3, 4], d), i32c([2, 0, 1])],
      outputs: [t([4, 2, 3], d)],
      options: tfliteOptions.empty(26),
    },
    {
      name: `TRANSPOSE NCHW->NHWC ${d}`,
      op: 'TRANSPOSE',
      inputs: [t([1, 3, 4, 5], d), i32c([0, 2, 3, 1])],
      outputs: [t([1, 4, 5, 3], d)],
    },
  ]),
  ...each(ALL, (d) => [
    {
      name: `CONCATENATION axis 1 of 3 ${d}`,
      op: 'CONCATENATION',
      inputs: [t([1, 2, 3], d), t([1, 4, 3], d), t([1, 1, 3], d)],
      outputs: [t([1, 7, 3], d)],
      options: tfliteOptions.concatenation(1),
    },
    {
      name: `CONCATENATION axis -1 ${d}`,
      op: 'CONCATENATION',
      inputs: [t([2, 3], d), t([2, 5], d)],
      outputs: [t([2, 8], d)],
      options: tfliteOptions.concatenation(-1),
    },
    {
      name: `CONCATENATION with a constant ${d}`,
      op: 'CONCATENATION',
      inputs: [{ ...t([2, 2], d), data: [1, 2, 3, 4] }, t([1, 2], d)],
      outputs: [t([3, 2], d)],
      options: tfliteOptions.concatenation(0),
    },
    {
      name: `PACK axis 0 ${d}`,
      op: 'PACK',
      inputs: [t([2, 3], d), t([2, 3], d), t([2, 3], d)],
      outputs: [t([3, 2, 3], d)],
      options: tfliteOptions.pack(3, 0),
    },
    {
      name: `PACK axis 2 ${d}`,
      op: 'PACK',
      inputs: [t([2, 3], d), t([2, 3], d)],
      outputs: [t([2, 3, 2], d)],
      options: tfliteOptions.pack(2, 2),
    },
    {
      name: `PACK axis -2 ${d}`,
      op: 'PACK',
      inputs: [t([4], d), t([4], d)],
      outputs: [t([2, 4], d)],
      options: tfliteOptions.pack(2, -2),
    },
    {
      name: `SQUEEZE ${d}`,
      op: 'SQUEEZE',
      inputs: [t([1, 3, 1, 4], d)],
      outputs: [t([3, 4], d)],
      options: tfliteOptions.squeeze([0, 2]),
    },
    {
      name: `EXPAND_DIMS ${d}`,
      op: 'EXPAND_DIMS',
      inputs: [t([3, 4], d), i32c([1])],
      outputs: [t([3, 1, 4], d)],
      options: tfliteOptions.empty(52),
    },
    {
      name: `STRIDED_SLICE strides 2, negative begin ${d}`,
      op: 'STRIDED_SLICE',
      inputs: [t([1, 5, 6, 3], d), i32c([0, 1, -5, 0]), i32c([1, 5, 6, 3]), i32c([1, 2, 2, 1])],
      outputs: [t([1, 2, 3, 3], d)],
      options: tfliteOptions.stridedSlice(),
    },
    {
      name: `STRIDED_SLICE masks and shrink ${d}`,
      op: 'STRIDED_SLICE',
      inputs: [t([4, 5, 6], d), i32c([9, 2, 1]), i32c([0, -1, 0]), i32c([1, 1, 2])],
      // begin_mask axis 0, end_mask axis 2, shrink axis 1: [4, 6]/2 → [4, 3]
      outputs: [t([4, 3], d)],
      options: tfliteOptions.stridedSlice({ beginMask: 1, endMask: 5, shrinkAxisMask: 2 }),
    },
    {
      name: `STRIDED_SLICE reversed ${d}`,
      op: 'STRIDED_SLICE',
      inputs: [t([3, 7], d), i32c([0, -1]), i32c([3, 0]), i32c([1, -2])],
      outputs: [t([3, 3], d)],
      options: tfliteOptions.stridedSlice({ endMask: 0 }),
    },
    {
      name: `STRIDED_SLICE offset ${d}`,
      op: 'STRIDED_SLICE',
      inputs: [t([6, 4], d), i32c([1, 1]), i32c([3, 2]), i32c([1, 1])],
      outputs: [t([3, 2], d)],
      options: tfliteOptions.stridedSlice({ offset: true }),
    },
    {
      name: `SLICE ${d}`,
      op: 'SLICE',
      inputs: [t([3, 4, 5], d), i32c([1, 0, 2]), i32c([2, -1, 3])],
      outputs: [t([2, 4, 3], d)],
      options: tfliteOptions.empty(48),
    },
    {
      name: `SPLIT ${d}`,
      op: 'SPLIT',
      inputs: [i32c([1], []), t([2, 6, 3], d)],
      outputs: [t([2, 2, 3], d), t([2, 2, 3], d), t([2, 2, 3], d)],
      options: tfliteOptions.split(3),
    },
    {
      name: `SPLIT_V ${d}`,
      op: 'SPLIT_V',
      inputs: [t([2, 7], d), i32c([2, -1, 1]), i32c([-1], [])],
      outputs: [t([2, 2], d), t([2, 4], d), t([2, 1], d)],
      options: tfliteOptions.splitV(3),
    },
    {
      name: `UNPACK ${d}`,
      op: 'UNPACK',
      inputs: [t([3, 2, 4], d)],
      outputs: [t([3, 4], d), t([3, 4], d)],
      options: tfliteOptions.unpack(2, 1),
    },
  ]),
];

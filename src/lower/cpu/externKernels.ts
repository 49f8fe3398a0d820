/**
 * Host runtime kernels the CPU strategies call instead of emitting loops, for kernels whose
 * TFLite fixed-point pipelines are too intricate to express as loop nests. The C runtime
 * (src/codegen/c) and the TIR evaluator implement each bit-exactly against TFLite Micro.
 * Buffer arguments are the buffers' handle vars; scalars are int32 unless noted.
 */
export interface ExternKernel {
  readonly name: string;
  /** Parameters in call order, as `name: C type`. */
  readonly params: readonly string[];
  readonly doc: string;
}

export const SOFTMAX_INT8 = 'uma_ref_softmax_int8';

export const EXTERN_KERNELS: readonly ExternKernel[] = [
  {
    name: SOFTMAX_INT8,
    params: [
      'input: const int8_t*',
      'output: int8_t*',
      'outer_size: int32_t',
      'depth: int32_t',
      'input_multiplier: int32_t',
      'input_left_shift: int32_t',
      'diff_min: int32_t',
    ],
    doc:
      'TFLite reference_ops::Softmax (int8 in, int8 out, output scale 1/256 zp -128) over the last axis; ' +
      'multiplier/shift/diff_min are SoftmaxPrepare\'s (PreprocessSoftmaxScaling with 5 integer bits, CalculateInputRadius).',
  },
];

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
export const SVDF_INT8 = 'uma_ref_svdf_int8';
export const SVDF_FLOAT32 = 'uma_ref_svdf_f32';

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
  {
    name: SVDF_INT8,
    params: [
      'input: const int8_t*',
      'weights_feature: const int8_t*',
      'weights_time: const int16_t* (or int8_t*, the tensor dtype)',
      'bias: const int32_t* (NULL when absent)',
      'state: int16_t* (or int8_t*; zero-initialised scratch, updated in place)',
      'scratch: int32_t* [batch * num_filters]',
      'scratch_output: int32_t* [batch * num_units]',
      'output: int8_t*',
      'batch_size, memory_size, input_size, num_filters, num_units, rank: int32_t',
      'input_zero_point, state_zero_point, output_zero_point: int32_t',
      'scale_1_multiplier, scale_1_shift, scale_2_multiplier, scale_2_shift: int32_t',
      'activation: int32_t (index into FUSED_ACTIVATIONS)',
    ],
    doc: 'TFLite Micro EvalIntegerSvdfReference for one invocation; scales 1 and 2 are SVDF Prepare\'s effective scales.',
  },
  {
    name: SVDF_FLOAT32,
    params: [
      'input, weights_feature, weights_time: const float*',
      'bias: const float* (NULL when absent)',
      'state: float* (zero-initialised scratch, updated in place)',
      'scratch: float* [batch * num_filters]',
      'output: float*',
      'batch_size, memory_size, input_size, num_filters, num_units, rank: int32_t',
      'activation: int32_t (index into FUSED_ACTIVATIONS)',
    ],
    doc: 'TFLite Micro EvalFloatSvdfReference for one invocation.',
  },
];

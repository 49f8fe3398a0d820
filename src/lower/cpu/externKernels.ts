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
export const SOFTMAX_INT8_INT16 = 'uma_ref_softmax_int8_int16';
export const SOFTMAX_INT16 = 'uma_ref_softmax_int16';
export const L2NORM_INT8 = 'uma_ref_l2norm_int8';
export const LOG_SOFTMAX_INT8 = 'uma_ref_log_softmax_int8';
export const LSTM_INT8 = 'uma_ref_lstm_int8';
export const LSTM_INT16 = 'uma_ref_lstm_int16';
export const DETECTION_POSTPROCESS = 'uma_ref_detection_postprocess';
export const QUANTIZE_ROWS_F32_ASYM = 'uma_ref_quantize_rows_f32_asym';
export const SIGNAL_WINDOW = 'uma_ref_signal_window';
export const SIGNAL_FFT_AUTO_SCALE = 'uma_ref_signal_fft_auto_scale';
export const SIGNAL_FFT_AUTO_SCALE_BITS = 'uma_ref_signal_fft_auto_scale_bits';
export const SIGNAL_RFFT_INT16 = 'uma_ref_signal_rfft_int16';
export const SIGNAL_ENERGY = 'uma_ref_signal_energy';
export const SIGNAL_FILTER_BANK = 'uma_ref_signal_filter_bank';
export const SIGNAL_FILTER_BANK_SQRT = 'uma_ref_signal_filter_bank_sqrt';
export const SIGNAL_SPECTRAL_SUBTRACTION = 'uma_ref_signal_spectral_subtraction';
export const SIGNAL_PCAN = 'uma_ref_signal_pcan';
export const SIGNAL_FILTER_BANK_LOG = 'uma_ref_signal_filter_bank_log';
export const SIGNAL_DELAY = 'uma_ref_signal_delay';
export const SIGNAL_OVERLAP_ADD_INT16 = 'uma_ref_signal_overlap_add_int16';
export const SIGNAL_OVERLAP_ADD_FLOAT = 'uma_ref_signal_overlap_add_float';
export const SIGNAL_STACKER = 'uma_ref_signal_stacker';
export const SIGNAL_FRAMER = 'uma_ref_signal_framer';
export const SIGNAL_IRFFT_INT16 = 'uma_ref_signal_irfft_int16';
export const SIGNAL_RFFT_INT32 = 'uma_ref_signal_rfft_i32';
export const SIGNAL_IRFFT_INT32 = 'uma_ref_signal_irfft_i32';
export const SIGNAL_RFFT_FLOAT = 'uma_ref_signal_rfft_f32';
export const SIGNAL_IRFFT_FLOAT = 'uma_ref_signal_irfft_f32';
/** The signal-library kernels (uma_ref_signal.c), TFLite Micro's signal/src. */
export const SIGNAL_KERNELS: readonly string[] = [
  SIGNAL_WINDOW,
  SIGNAL_FFT_AUTO_SCALE,
  SIGNAL_FFT_AUTO_SCALE_BITS,
  SIGNAL_RFFT_INT16,
  SIGNAL_ENERGY,
  SIGNAL_FILTER_BANK,
  SIGNAL_FILTER_BANK_SQRT,
  SIGNAL_SPECTRAL_SUBTRACTION,
  SIGNAL_PCAN,
  SIGNAL_FILTER_BANK_LOG,
  SIGNAL_DELAY,
  SIGNAL_OVERLAP_ADD_INT16,
  SIGNAL_OVERLAP_ADD_FLOAT,
  SIGNAL_STACKER,
  SIGNAL_FRAMER,
  SIGNAL_IRFFT_INT16,
  SIGNAL_RFFT_INT32,
  SIGNAL_IRFFT_INT32,
  SIGNAL_RFFT_FLOAT,
  SIGNAL_IRFFT_FLOAT,
];

function wideFftKernels(): ExternKernel[] {
  return (
    [
      ['int32_t', SIGNAL_RFFT_INT32, SIGNAL_IRFFT_INT32, 'int32 (kissfft FIXED_POINT=32: Q31 with int64 products)'],
      ['float', SIGNAL_RFFT_FLOAT, SIGNAL_IRFFT_FLOAT, 'float32 (kissfft float; the IRFFT divided by fft_length, as TFLite Micro)'],
    ] as const
  ).flatMap(([t, rfft, irfft, what]) => [
    {
      name: rfft,
      params: [`input: const ${t}*`, `output: ${t}*`, `scratch: ${t}*`, `twiddles: const ${t}*`, 'factors: const int32_t*', 'rows: int32_t', 'input_length: int32_t', 'fft_length: int32_t'],
      doc: `TFLite Micro's ${what} SignalRfft, power-of-two lengths.`,
    },
    {
      name: irfft,
      params: [`input: const ${t}*`, `output: ${t}*`, `scratch: ${t}*`, `twiddles: const ${t}*`, 'factors: const int32_t*', 'rows: int32_t', 'fft_length: int32_t'],
      doc: `TFLite Micro's ${what} SignalIrfft, power-of-two lengths.`,
    },
  ]);
}
export const QUANTIZE_ROWS_F32_ASYM_TFLITE = 'uma_ref_quantize_rows_f32_asym_tflite';

/** The LSTM kernels' operands: the int8 and 16x8 kernels differ only in activation and bias types. */
function lstmParams(act: 'int8_t' | 'int16_t', bias: 'int32_t' | 'int64_t'): string[] {
  const gates = ['forget', 'input', 'cell', 'output'];
  return [
    `input: const ${act}*`,
    ...gates.map((g) => `wx_${g}: const int8_t*`),
    ...gates.map((g) => `wh_${g}: const int8_t*`),
    ...gates.map((g) => `b_${g}: const ${bias}*`),
    `hidden: ${act}*`,
    'cell: int16_t*',
    `output: ${act}*`,
    'scratch: int16_t*',
    'params: const int32_t*',
  ];
}

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
    name: SOFTMAX_INT8_INT16,
    params: [
      'input: const int8_t*',
      'output: int16_t*',
      'outer_size: int32_t',
      'depth: int32_t',
      'input_multiplier: int32_t',
      'input_left_shift: int32_t',
      'diff_min: int32_t',
    ],
    doc:
      'TFLite reference_ops::Softmax<int8_t, int16_t> (int8 in, int16 out, output scale 1/65536 zp -32768) over the last axis; ' +
      'the same SoftmaxPrepare parameters as the int8 output, the final shift keeps 16 bits.',
  },
  {
    name: SOFTMAX_INT16,
    params: [
      'input: const int16_t*',
      'output: int16_t*',
      'outer_size: int32_t',
      'depth: int32_t',
      'input_multiplier: int32_t',
      'input_left_shift: int32_t',
      'exp_lut: const int16_t*',
      'one_over_one_plus_x_lut: const int16_t*',
    ],
    doc:
      'TFLite reference_ops::SoftmaxInt16 (int16 in with zero point 0, int16 out with scale 1/32768 zp 0) over the last axis; ' +
      'the two 513-entry Q0.15 tables (exp on [-10, 0], 1/(1+x) on [0, 1]) are gen_lut\'s, passed as operator constants.',
  },
  {
    name: L2NORM_INT8,
    params: ['input: const int8_t*', 'output: int8_t*', 'outer_size: int32_t', 'depth: int32_t', 'input_zero_point: int32_t'],
    doc:
      'TFLite reference_integer_ops::L2Normalization over the last axis: per row GetInvSqrtQuantizedMultiplierExp of the ' +
      'sum of squared offsets (gemmlowp Newton-Raphson), output in Q0.7 (scale 1/128, zero point 0).',
  },
  {
    name: LOG_SOFTMAX_INT8,
    params: [
      'input: const int8_t*',
      'output: int8_t*',
      'outer_size: int32_t',
      'depth: int32_t',
      'input_multiplier: int32_t',
      'input_left_shift: int32_t',
      'reverse_scaling_divisor: int32_t',
      'reverse_scaling_left_shift: int32_t',
      'diff_min: int32_t',
    ],
    doc:
      'TFLite reference_integer_ops::LogSoftmax (int8 in, int8 out with scale 16/256 and zero point 127) over the last axis; ' +
      'parameters from PreprocessLogSoftmaxScalingExp (5 integer bits, beta 1) and CalculateInputRadius.',
  },
  {
    name: LSTM_INT8,
    params: lstmParams('int8_t', 'int32_t'),
    doc:
      'TFLite Micro integer UNIDIRECTIONAL_SEQUENCE_LSTM (int8 activations/weights, int32 bias, int16 cell state and gates) ' +
      'over the packed int32 parameter table of src/arith/lstmInteger.ts; hidden and cell state are updated in place.',
  },
  {
    name: LSTM_INT16,
    params: lstmParams('int16_t', 'int64_t'),
    doc:
      'TFLite Micro 16x8 UNIDIRECTIONAL_SEQUENCE_LSTM (int16 activations, int8 weights, int64 bias, int16 cell state): ' +
      'as uma_ref_lstm_int8 with int64 accumulators and the 64-bit requantize.',
  },
  {
    name: DETECTION_POSTPROCESS,
    params: [
      'boxes: const float*',
      'scores: const float*',
      'anchors: const float*',
      'out: float*',
      'float_scratch: float*',
      'int_scratch: int32_t*',
      'num_boxes: int32_t',
      'box_stride: int32_t',
      'classes_with_background: int32_t',
      'num_classes: int32_t',
      'max_detections: int32_t',
      'classes_per_anchor: int32_t',
      'detections_per_class: int32_t',
      'use_regular_nms: int32_t',
      'output_rows: int32_t',
      'score_threshold: float',
      'iou_threshold: float',
      'y_scale: float',
      'x_scale: float',
      'h_scale: float',
      'w_scale: float',
    ],
    doc:
      "TFLite Micro's TFLite_Detection_PostProcess (float32): center-size decoding against the anchors, fast or regular NMS; " +
      'packed output (boxes, classes, scores, count) and the scratch layout of src/arith/detectionPostprocess.ts.',
  },
  {
    name: SIGNAL_WINDOW,
    params: ['input: const int16_t*', 'weights: const int16_t*', 'output: int16_t*', 'size: int32_t', 'weight_size: int32_t', 'shift: int32_t'],
    doc: "TFLite Micro's SignalWindow: each weight_size run of the input times the weights, >> shift, saturated to int16.",
  },
  {
    name: SIGNAL_FFT_AUTO_SCALE,
    params: ['input: const int16_t*', 'output: int16_t*', 'size: int32_t'],
    doc: "TFLite Micro's SignalFftAutoScale output: the input times 2^(15 - MSB(max |x|)), at least 2^0.",
  },
  {
    name: SIGNAL_FFT_AUTO_SCALE_BITS,
    params: ['input: const int16_t*', 'bits: int32_t*', 'size: int32_t'],
    doc: "TFLite Micro's SignalFftAutoScale scale_bit output: the shift the output got.",
  },
  {
    name: SIGNAL_RFFT_INT16,
    params: [
      'input: const int16_t*',
      'output: int16_t*',
      'scratch: int16_t*',
      'twiddles: const int16_t*',
      'factors: const int32_t*',
      'rows: int32_t',
      'input_length: int32_t',
      'fft_length: int32_t',
    ],
    doc: "TFLite Micro's int16 SignalRfft: kissfft's FIXED_POINT=16 real FFT of each zero-padded row (power-of-two lengths; tables of src/arith/signal.ts rfftTables).",
  },
  {
    name: SIGNAL_ENERGY,
    params: ['input: const int16_t*', 'output: uint32_t*', 'size: int32_t', 'start: int32_t', 'end: int32_t'],
    doc: "TFLite Micro's SignalEnergy: re^2 + im^2 of complex bins [start, end) as uint32 (other bins 0).",
  },
  {
    name: SIGNAL_FILTER_BANK,
    params: [
      'input: const uint32_t*',
      'weights: const int16_t*',
      'unweights: const int16_t*',
      'frequency_starts: const int16_t*',
      'weight_starts: const int16_t*',
      'widths: const int16_t*',
      'output: uint64_t*',
      'num_channels: int32_t',
    ],
    doc: "TFLite Micro's SignalFilterBank: uint64 weighted sums of num_channels + 1 channels, channel 0 dropped.",
  },
  {
    name: SIGNAL_FILTER_BANK_SQRT,
    params: ['input: const uint64_t*', 'scale_bits: const int32_t*', 'output: uint32_t*', 'size: int32_t'],
    doc: "TFLite Micro's SignalFilterBankSquareRoot: Sqrt64(x) >> scale_bits.",
  },
  {
    name: SIGNAL_SPECTRAL_SUBTRACTION,
    params: [
      'input: const uint32_t*',
      'noise: uint32_t*',
      'output: uint32_t*',
      'num_channels: int32_t',
      'smoothing: int32_t',
      'one_minus_smoothing: int32_t',
      'alternate_smoothing: int32_t',
      'alternate_one_minus_smoothing: int32_t',
      'min_signal_remaining: int32_t',
      'smoothing_bits: int32_t',
      'spectral_subtraction_bits: int32_t',
      'clamping: int32_t',
    ],
    doc: "TFLite Micro's SignalFilterBankSpectralSubtraction: the noise estimate (persistent state) updated in place.",
  },
  {
    name: SIGNAL_PCAN,
    params: ['input: const uint32_t*', 'noise: const uint32_t*', 'gain_lut: const int16_t*', 'output: uint32_t*', 'size: int32_t', 'snr_shift: int32_t'],
    doc: "TFLite Micro's SignalPCAN: per-channel automatic gain from the noise estimate, shrunk to 6 fractional bits.",
  },
  {
    name: SIGNAL_FILTER_BANK_LOG,
    params: ['input: const uint32_t*', 'output: int16_t*', 'size: int32_t', 'output_scale: int32_t', 'correction_bits: int32_t'],
    doc: "TFLite Micro's SignalFilterBankLog: Log32(x << correction_bits, output_scale), at most INT16_MAX.",
  },
  {
    name: SIGNAL_DELAY,
    params: ['input: const int16_t*', 'state: int16_t*', 'output: int16_t*', 'rows: int32_t', 'frame: int32_t', 'delay_length: int32_t'],
    doc: "TFLite Micro's SignalDelay: each row delayed by delay_length samples (the state: each row's last delay_length samples).",
  },
  {
    name: SIGNAL_OVERLAP_ADD_INT16,
    params: ['input: const int16_t*', 'state: int16_t*', 'output: int16_t*', 'rows: int32_t', 'frames: int32_t', 'frame_size: int32_t', 'frame_step: int32_t'],
    doc: "TFLite Micro's int16 SignalOverlapAdd (saturating adds into each row's persistent buffer).",
  },
  {
    name: SIGNAL_OVERLAP_ADD_FLOAT,
    params: ['input: const float*', 'state: float*', 'output: float*', 'rows: int32_t', 'frames: int32_t', 'frame_size: int32_t', 'frame_step: int32_t'],
    doc: "TFLite Micro's float32 SignalOverlapAdd.",
  },
  {
    name: SIGNAL_STACKER,
    params: ['input: const int16_t*', 'state: int32_t*', 'output: int16_t*', 'channels: int32_t', 'left: int32_t', 'right: int32_t', 'step: int32_t'],
    doc: "TFLite Micro's SignalStacker over a queue state (available, first frame seen, samples); packed output: the stacked frame then output_valid.",
  },
  {
    name: SIGNAL_FRAMER,
    params: ['input: const int16_t*', 'state: int32_t*', 'output: int16_t*', 'rows: int32_t', 'frames: int32_t', 'frame_size: int32_t', 'frame_step: int32_t', 'capacity: int32_t'],
    doc: "TFLite Micro's SignalFramer over per-row queue states; packed output: the frames then output_valid.",
  },
  {
    name: SIGNAL_IRFFT_INT16,
    params: ['input: const int16_t*', 'output: int16_t*', 'scratch: int16_t*', 'twiddles: const int16_t*', 'factors: const int32_t*', 'rows: int32_t', 'fft_length: int32_t'],
    doc: "TFLite Micro's int16 SignalIrfft: kissfft's FIXED_POINT=16 inverse real FFT (kiss_fftri) per row (tables of rfftTables(n, true)).",
  },
  ...wideFftKernels(),
  {
    name: QUANTIZE_ROWS_F32_ASYM,
    params: ['input: const float*', 'output: int8_t*', 'scales: float*', 'zero_points: int32_t*', 'rows: int32_t', 'row_length: int32_t'],
    doc:
      'The input stage of the hybrid (float activations, int8 weights) conv2d/depthwise/dense: each row quantized to int8 on its own ' +
      "as LiteRT's XNNPack (TFLite's AsymmetricQuantizeFloats recipe in float, halves to even; src/arith/hybrid.ts), its scale and zero point stored per row.",
  },
  {
    name: QUANTIZE_ROWS_F32_ASYM_TFLITE,
    params: ['input: const float*', 'output: int8_t*', 'scales: float*', 'zero_points: int32_t*', 'rows: int32_t', 'row_length: int32_t'],
    doc:
      'The input stage of the hybrid depthwise_conv2d: each row quantized to int8 on its own as TFLite\'s builtin AsymmetricQuantizeFloats, ' +
      'which LiteRT runs for it (parameters in double, zero point added in float before rounding half away from zero; src/arith/hybrid.ts).',
  },
];

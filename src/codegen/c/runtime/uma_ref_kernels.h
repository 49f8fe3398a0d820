/*
 * uma_ref_kernels.h: host reference kernels that lowered code calls through
 * tir.call_extern (see src/lower/cpu/externKernels.ts). Bit-exact with TFLite Micro's
 * reference kernels given the compile-time parameters lowering passes. Each returns 0 on
 * success and non-zero when its parameters are out of the supported range.
 */
#ifndef UMA_REF_KERNELS_H_
#define UMA_REF_KERNELS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TFLite reference_ops::Softmax, int8 -> int8 (output zero point -128, scale 1/256), over
 * the last axis of an [outer_size, depth] tensor. */
int32_t uma_ref_softmax_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                             int32_t input_multiplier, int32_t input_left_shift, int32_t diff_min);

/* TFLite reference_ops::Softmax<int8_t, int16_t>: int8 in, int16 out (output zero point
 * -32768, scale 1/65536), same parameters as uma_ref_softmax_int8. */
int32_t uma_ref_softmax_int8_int16(const int8_t* input, int16_t* output, int32_t outer_size, int32_t depth,
                                   int32_t input_multiplier, int32_t input_left_shift, int32_t diff_min);

/* TFLite reference_ops::SoftmaxInt16: int16 in (zero point 0), int16 out (zero point 0,
 * scale 1/32768), with SoftmaxPrepare's 513-entry Q0.15 tables exp on [-10, 0] and
 * 1/(1+x) on [0, 1]. */
int32_t uma_ref_softmax_int16(const int16_t* input, int16_t* output, int32_t outer_size, int32_t depth,
                              int32_t input_multiplier, int32_t input_left_shift, const int16_t* exp_lut,
                              const int16_t* one_over_one_plus_x_lut);

/* TFLite reference_integer_ops::L2Normalization over the last axis of an [outer_size,
 * depth] int8 tensor: output in Q0.7 (scale 1/128, zero point 0). */
int32_t uma_ref_l2norm_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                            int32_t input_zero_point);
/* TFLite Micro's integer UNIDIRECTIONAL_SEQUENCE_LSTM (int8 activations and weights, int32
 * bias, int16 cell state and gates). Weights and biases per gate in the order forget, input,
 * cell, output; hidden/cell state updated in place; scratch holds 4 x units int16; params
 * is the packed int32 table of src/arith/lstmInteger.ts (LSTM_PARAM). */
int32_t uma_ref_lstm_int8(const int8_t* input, const int8_t* wx_forget, const int8_t* wx_input, const int8_t* wx_cell,
                          const int8_t* wx_output, const int8_t* wh_forget, const int8_t* wh_input, const int8_t* wh_cell,
                          const int8_t* wh_output, const int32_t* b_forget, const int32_t* b_input, const int32_t* b_cell,
                          const int32_t* b_output, int8_t* hidden, int16_t* cell, int8_t* output, int16_t* scratch,
                          const int32_t* params);

/* TFLite reference_integer_ops::LogSoftmax over the last axis of an [outer_size, depth]
 * int8 tensor: output scale 16/256, zero point 127; parameters from LOG_SOFTMAX's Prepare
 * (PreprocessLogSoftmaxScalingExp, 5 integer bits; the reverse shift is the
 * MultiplyByQuantizedMultiplier shift, <= 0). */
int32_t uma_ref_log_softmax_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                                 int32_t input_multiplier, int32_t input_left_shift, int32_t reverse_scaling_divisor,
                                 int32_t reverse_scaling_left_shift, int32_t diff_min);
/* The 16x8 variant: int16 activations (input, hidden state, output), int64 biases. */
int32_t uma_ref_lstm_int16(const int16_t* input, const int8_t* wx_forget, const int8_t* wx_input, const int8_t* wx_cell,
                           const int8_t* wx_output, const int8_t* wh_forget, const int8_t* wh_input, const int8_t* wh_cell,
                           const int8_t* wh_output, const int64_t* b_forget, const int64_t* b_input, const int64_t* b_cell,
                           const int64_t* b_output, int16_t* hidden, int16_t* cell, int16_t* output, int16_t* scratch,
                           const int32_t* params);

/* TFLite Micro's TFLite_Detection_PostProcess (float32): decodes num_boxes center-size box
 * encodings (box_stride floats each) against anchors [num_boxes, 4], then fast or regular
 * non-max suppression over scores [num_boxes, classes_with_background]. out is packed:
 * boxes [output_rows, 4], classes [output_rows], scores [output_rows], count [1]; rows not
 * written by the algorithm are 0. Scratch sizes and layout: src/arith/detectionPostprocess.ts
 * (detectionScratchLayout). Returns 1 for a decoded box with ymin >= ymax or xmin >= xmax
 * (TFLite Micro's error), 2 for parameters outside the supported range. */
int32_t uma_ref_detection_postprocess(const float* boxes, const float* scores, const float* anchors, float* out,
                                      float* float_scratch, int32_t* int_scratch, int32_t num_boxes, int32_t box_stride,
                                      int32_t classes_with_background, int32_t num_classes, int32_t max_detections,
                                      int32_t classes_per_anchor, int32_t detections_per_class, int32_t use_regular_nms,
                                      int32_t output_rows, float score_threshold, float iou_threshold, float y_scale,
                                      float x_scale, float h_scale, float w_scale);

/* Hybrid (float activations, int8 weights) input quantization: each of `rows` rows of
 * `row_length` floats quantized to int8 on its own, asymmetrically, as LiteRT's XNNPack does
 * (xnn_f32_qd8_asymmetric_quantization_params: range widened to include 0, multiplier
 * 255 / (max - min), nudged zero point; values rounded half to even); scales[r] (the
 * dequantization scale) and zero_points[r] receive the row's parameters. */
int32_t uma_ref_quantize_rows_f32_asym(const float* input, int8_t* output, float* scales, int32_t* zero_points,
                                       int32_t rows, int32_t row_length);

/* The same as TFLite's builtin AsymmetricQuantizeFloats, which LiteRT runs for the hybrid
 * depthwise convolution (XNNPack has none): scale (max - min) / 255 and the nudged zero point
 * in double, each value round_half_away((float)zero_point + x * (1.0f / (float)scale)); a
 * constant row gives zeros at scale 1, zero point 0. */
int32_t uma_ref_quantize_rows_f32_asym_tflite(const float* input, int8_t* output, float* scales, int32_t* zero_points,
                                              int32_t rows, int32_t row_length);

/* TFLite Micro's signal library (tflite-micro/signal, the micro_speech audio front end), in
 * uma_ref_signal.c; src/arith/signal.ts is the same code. */
/* SignalWindow: each weight_size run of the input times the weights, >> shift, saturated. */
int32_t uma_ref_signal_window(const int16_t* input, const int16_t* weights, int16_t* output, int32_t size, int32_t weight_size,
                              int32_t shift);
/* SignalFftAutoScale: the input shifted left as far as its largest magnitude allows; the shift. */
int32_t uma_ref_signal_fft_auto_scale(const int16_t* input, int16_t* output, int32_t size);
int32_t uma_ref_signal_fft_auto_scale_bits(const int16_t* input, int32_t* bits, int32_t size);
/* SignalRfft (int16): kissfft's fixed-point real FFT of each zero-padded row; twiddles holds
 * the complex FFT's fft_length / 2 twiddles then fft_length / 4 super twiddles, factors
 * kf_factor's pairs; scratch 2 * fft_length int16. Power-of-two lengths. */
int32_t uma_ref_signal_rfft_int16(const int16_t* input, int16_t* output, int16_t* scratch, const int16_t* twiddles,
                                  const int32_t* factors, int32_t rows, int32_t input_length, int32_t fft_length);
/* SignalEnergy: re^2 + im^2 of complex bins [start, end) as uint32, the other bins 0. */
int32_t uma_ref_signal_energy(const int16_t* input, uint32_t* output, int32_t size, int32_t start, int32_t end);
/* SignalFilterBank: uint64 weighted sums of num_channels + 1 channels, channel 0 dropped. */
int32_t uma_ref_signal_filter_bank(const uint32_t* input, const int16_t* weights, const int16_t* unweights,
                                   const int16_t* frequency_starts, const int16_t* weight_starts, const int16_t* widths,
                                   uint64_t* output, int32_t num_channels);
/* SignalFilterBankSquareRoot: Sqrt64(x) >> *scale_bits (0 for a shift outside [0, 31]). */
int32_t uma_ref_signal_filter_bank_sqrt(const uint64_t* input, const int32_t* scale_bits, uint32_t* output, int32_t size);
/* SignalFilterBankSpectralSubtraction: noise (the persistent estimate) updated in place,
 * output the noise-reduced channels. */
int32_t uma_ref_signal_spectral_subtraction(const uint32_t* input, uint32_t* noise, uint32_t* output, int32_t num_channels,
                                            int32_t smoothing, int32_t one_minus_smoothing, int32_t alternate_smoothing,
                                            int32_t alternate_one_minus_smoothing, int32_t min_signal_remaining,
                                            int32_t smoothing_bits, int32_t spectral_subtraction_bits, int32_t clamping);
/* SignalPCAN: per-channel gain from the noise estimate through gain_lut (125 entries), shrunk. */
int32_t uma_ref_signal_pcan(const uint32_t* input, const uint32_t* noise, const int16_t* gain_lut, uint32_t* output, int32_t size,
                            int32_t snr_shift);
/* SignalFilterBankLog: Log32(x << correction_bits, output_scale), at most INT16_MAX. */
int32_t uma_ref_signal_filter_bank_log(const uint32_t* input, int16_t* output, int32_t size, int32_t output_scale,
                                       int32_t correction_bits);

/* SignalDelay: each row delayed by delay_length samples; state holds each row's last
 * delay_length samples (zeros at first), updated in place. */
int32_t uma_ref_signal_delay(const int16_t* input, int16_t* state, int16_t* output, int32_t rows, int32_t frame,
                             int32_t delay_length);
/* SignalOverlapAdd: frames added into each row's frame_size buffer (state), frame_step values
 * out per frame, the buffer shifted; int16 saturates. */
int32_t uma_ref_signal_overlap_add_int16(const int16_t* input, int16_t* state, int16_t* output, int32_t rows, int32_t frames,
                                         int32_t frame_size, int32_t frame_step);
int32_t uma_ref_signal_overlap_add_float(const float* input, float* state, float* output, int32_t rows, int32_t frames,
                                         int32_t frame_size, int32_t frame_step);

/* SignalStacker: state = [available, first frame seen, queue]; output the stacked frame then
 * output_valid (1/0) as one more int16; an invalid output is 0. */
int32_t uma_ref_signal_stacker(const int16_t* input, int32_t* state, int16_t* output, int32_t channels, int32_t left,
                               int32_t right, int32_t step);
/* SignalFramer: state = per row [available, capacity samples]; output the frames then
 * output_valid (1/0) as one more int16; frames not ready are 0. */
int32_t uma_ref_signal_framer(const int16_t* input, int32_t* state, int16_t* output, int32_t rows, int32_t frames,
                              int32_t frame_size, int32_t frame_step, int32_t capacity);

/* SignalIrfft (int16): kissfft's fixed-point inverse real FFT (kiss_fftri) of each row of
 * fft_length / 2 + 1 complex bins; twiddles and factors as for the RFFT, but the inverse
 * transform's (rfftTables(n, true)); scratch fft_length int16. */
int32_t uma_ref_signal_irfft_int16(const int16_t* input, int16_t* output, int16_t* scratch, const int16_t* twiddles,
                                   const int32_t* factors, int32_t rows, int32_t fft_length);

/* SignalRfft / SignalIrfft of int32 (kissfft FIXED_POINT=32) and float32: as the int16 ones,
 * twiddles of the type (src/arith/signal.ts wideFftTwiddles); the float IRFFT divides by
 * fft_length as TFLite Micro's does. Scratch: 2 * fft_length (rfft), fft_length (irfft). */
int32_t uma_ref_signal_rfft_i32(const int32_t* input, int32_t* output, int32_t* scratch, const int32_t* twiddles,
                                const int32_t* factors, int32_t rows, int32_t input_length, int32_t fft_length);
int32_t uma_ref_signal_irfft_i32(const int32_t* input, int32_t* output, int32_t* scratch, const int32_t* twiddles,
                                 const int32_t* factors, int32_t rows, int32_t fft_length);
int32_t uma_ref_signal_rfft_f32(const float* input, float* output, float* scratch, const float* twiddles,
                                const int32_t* factors, int32_t rows, int32_t input_length, int32_t fft_length);
int32_t uma_ref_signal_irfft_f32(const float* input, float* output, float* scratch, const float* twiddles,
                                 const int32_t* factors, int32_t rows, int32_t fft_length);

#ifdef __cplusplus
}
#endif

#endif /* UMA_REF_KERNELS_H_ */

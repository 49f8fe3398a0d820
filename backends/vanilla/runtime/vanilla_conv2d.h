/*
 * vanilla accelerator kernels (uma-ts example backend, after TVM's apps/uma/_template).
 *
 * vanilla_conv2dnchw keeps the name of TVM's template kernel, but its layout is uma-ts's:
 *   input   [batches, in_h, in_w, in_c]            int8, NHWC
 *   weights [out_c, kernel_h, kernel_w, filter_c]  int8, OHWI
 *   bias    [out_c]                                int32 (zeros when the conv has none)
 *   output  [batches, out_h, out_w, out_c]         int8, NHWC
 *   out_multiplier / out_shift [out_c]             TFLite per-channel requantization
 *                                                  (Q31 multiplier, shift > 0 = left)
 * Grouped convolution: groups = in_c / filter_c; output channel oc reads the input channels
 * of group oc / (out_c / groups).
 * padding: pad_top/pad_left rows/columns before the input; taps outside it contribute 0
 * (TFLite's "skip", identical to padding with the input zero point).
 * input_offset = -input zero point, output_offset = output zero point, act_min/act_max the
 * fused-activation clamp. Arithmetic is TFLite Micro's reference ConvPerChannel, bit exact.
 * Returns 0 on success, -1 on inconsistent shapes.
 */
#ifndef VANILLA_CONV2D_H_
#define VANILLA_CONV2D_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

int32_t vanilla_conv2dnchw(const int8_t* input, const int8_t* weights, const int32_t* bias, int8_t* output,
                           const int32_t* out_multiplier, const int32_t* out_shift, int32_t batches, int32_t in_h,
                           int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c, int32_t kernel_h,
                           int32_t kernel_w, int32_t filter_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                           int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                           int32_t output_offset, int32_t act_min, int32_t act_max);

#ifdef __cplusplus
}
#endif

#endif /* VANILLA_CONV2D_H_ */

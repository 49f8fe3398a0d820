/*
 * vanilla_conv2dnchw: see vanilla_conv2d.h for layouts and parameters.
 * Self-contained (no uma-ts runtime header) as a vendor kernel library would be; free of
 * undefined behaviour: sums are formed in 64 bits and wrapped to int32 the way TFLite's
 * int32 accumulators wrap on the targets it runs on.
 */
#include "vanilla_conv2d.h"

static int32_t vanilla_wrap_i32(int64_t x) {
  uint32_t u = (uint32_t)(uint64_t)x;
  return u <= 0x7fffffffu ? (int32_t)u : (int32_t)(u - 0x80000000u) - 0x7fffffff - 1;
}

/* gemmlowp SaturatingRoundingDoublingHighMul */
static int32_t vanilla_srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  int64_t ab = (int64_t)a * (int64_t)b;
  int64_t nudge = ab >= 0 ? (1ll << 30) : (1 - (1ll << 30));
  /* C division truncates toward zero, as gemmlowp relies on. */
  return (int32_t)((ab + nudge) / (1ll << 31));
}

/* gemmlowp RoundingDivideByPOT, exponent in [0, 31] */
static int32_t vanilla_rounding_divide_by_pot(int32_t x, int exponent) {
  if (exponent == 0) return x;
  int32_t mask = (int32_t)((1ll << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  /* Arithmetic right shift of negative values: implementation-defined, arithmetic on gcc/clang. */
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/* TFLite MultiplyByQuantizedMultiplier (double-rounding variant) */
static int32_t vanilla_requantize(int32_t x, int32_t multiplier, int32_t shift) {
  int left_shift = shift > 0 ? (int)shift : 0;
  int right_shift = shift > 0 ? 0 : (int)-shift;
  int32_t shifted = vanilla_wrap_i32((int64_t)((uint32_t)x << left_shift));
  return vanilla_rounding_divide_by_pot(vanilla_srdhm(shifted, multiplier), right_shift);
}

int32_t vanilla_conv2dnchw(const int8_t* input, const int8_t* weights, const int32_t* bias, int8_t* output,
                           const int32_t* out_multiplier, const int32_t* out_shift, int32_t batches, int32_t in_h,
                           int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c, int32_t kernel_h,
                           int32_t kernel_w, int32_t filter_c, int32_t stride_h, int32_t stride_w, int32_t dilation_h,
                           int32_t dilation_w, int32_t pad_top, int32_t pad_left, int32_t input_offset,
                           int32_t output_offset, int32_t act_min, int32_t act_max) {
  if (filter_c <= 0 || in_c % filter_c != 0) return -1;
  int32_t groups = in_c / filter_c;
  if (out_c % groups != 0) return -1;
  int32_t filters_per_group = out_c / groups;
  for (int32_t b = 0; b < batches; ++b) {
    for (int32_t oy = 0; oy < out_h; ++oy) {
      for (int32_t ox = 0; ox < out_w; ++ox) {
        for (int32_t oc = 0; oc < out_c; ++oc) {
          int32_t group_base = (oc / filters_per_group) * filter_c;
          int64_t acc = 0;
          for (int32_t ky = 0; ky < kernel_h; ++ky) {
            int32_t iy = oy * stride_h - pad_top + ky * dilation_h;
            if (iy < 0 || iy >= in_h) continue;
            for (int32_t kx = 0; kx < kernel_w; ++kx) {
              int32_t ix = ox * stride_w - pad_left + kx * dilation_w;
              if (ix < 0 || ix >= in_w) continue;
              const int8_t* in_row = input + (((int64_t)b * in_h + iy) * in_w + ix) * in_c + group_base;
              const int8_t* w_row = weights + (((int64_t)oc * kernel_h + ky) * kernel_w + kx) * filter_c;
              for (int32_t ic = 0; ic < filter_c; ++ic) {
                acc += (int64_t)w_row[ic] * ((int64_t)in_row[ic] + input_offset);
              }
            }
          }
          int32_t acc32 = vanilla_wrap_i32(acc + bias[oc]);
          int64_t v = (int64_t)vanilla_requantize(acc32, out_multiplier[oc], out_shift[oc]) + output_offset;
          if (v < act_min) v = act_min;
          if (v > act_max) v = act_max;
          output[(((int64_t)b * out_h + oy) * out_w + ox) * out_c + oc] = (int8_t)v;
        }
      }
    }
  }
  return 0;
}

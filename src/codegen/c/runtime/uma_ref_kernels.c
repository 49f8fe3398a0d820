/*
 * uma_ref_kernels.c: see uma_ref_kernels.h. The gemmlowp fixed-point helpers below follow
 * gemmlowp's fixedpoint.h; raw additions wrap and shifts go through the UB-free helpers of
 * uma_runtime.h, so the results match the TypeScript reference bit for bit.
 */
#include "uma_ref_kernels.h"

#include "uma_runtime.h"

#define UMA_SOFTMAX_SCALED_DIFF_INTEGER_BITS 5
#define UMA_SOFTMAX_ACCUMULATION_INTEGER_BITS 12

static int32_t add_wrap(int32_t a, int32_t b) { return uma_wrap_i32((int64_t)a + (int64_t)b); }

static int32_t sat_mul_by_pot(int32_t x, int exponent) {
  int32_t threshold;
  if (exponent == 0) return x;
  if (exponent < 0) return uma_rounding_divide_by_pot(x, -exponent);
  threshold = (int32_t)((((int64_t)1) << (31 - exponent)) - 1);
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return uma_shl_i32(x, exponent);
}

static int32_t rescale(int32_t x, int src_bits, int dst_bits) { return sat_mul_by_pot(x, src_bits - dst_bits); }

static int32_t rounding_half_sum(int32_t a, int32_t b) {
  int64_t sum = (int64_t)a + (int64_t)b;
  int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

static int32_t exp_on_interval_between_negative_one_quarter_and_0_excl(int32_t a) {
  const int32_t constant_term = 1895147668;
  const int32_t constant_1_over_3 = 715827883;
  int32_t x = add_wrap(a, 1 << 28);
  int32_t x2 = uma_srdhm(x, x);
  int32_t x3 = uma_srdhm(x2, x);
  int32_t x4 = uma_srdhm(x2, x2);
  int32_t x4_over_4 = sat_mul_by_pot(x4, -2);
  int32_t poly = sat_mul_by_pot(add_wrap(uma_srdhm(add_wrap(x4_over_4, x3), constant_1_over_3), x2), -1);
  return add_wrap(constant_term, uma_srdhm(constant_term, add_wrap(x, poly)));
}

static int32_t exp_on_negative_values(int32_t a, int integer_bits) {
  static const int32_t barrel[7][2] = {
    {-2, 1672461947}, {-1, 1302514674}, {0, 790015084}, {1, 290630308}, {2, 39332535}, {3, 720401}, {4, 242},
  };
  int fractional_bits = 31 - integer_bits;
  int32_t one_quarter = (int32_t)1 << (fractional_bits - 2);
  int32_t mask = one_quarter - 1;
  int32_t a_mod_quarter_minus_one_quarter = add_wrap(a & mask, -one_quarter);
  int32_t result = exp_on_interval_between_negative_one_quarter_and_0_excl(
      rescale(a_mod_quarter_minus_one_quarter, integer_bits, 0));
  int32_t remainder = add_wrap(a_mod_quarter_minus_one_quarter, uma_wrap_i32(-(int64_t)a));
  int k;
  for (k = 0; k < 7; ++k) {
    int exponent = (int)barrel[k][0];
    if (integer_bits > exponent) {
      int shift_amount = fractional_bits + exponent;
      if (((uint32_t)remainder & ((uint32_t)1 << shift_amount)) != 0u) result = uma_srdhm(result, barrel[k][1]);
    }
  }
  if (integer_bits > 5) {
    int32_t clamp = -((int32_t)1 << (36 - integer_bits));
    if (a < clamp) result = 0;
  }
  if (a == 0) result = INT32_MAX;
  return result;
}

static int32_t one_over_one_plus_x_for_x_in_0_1(int32_t a) {
  const int32_t constant_48_over_17 = 1515870810;
  const int32_t constant_neg_32_over_17 = -1010580540;
  const int32_t one_q2 = (int32_t)1 << 29;
  int32_t half_denominator = rounding_half_sum(a, INT32_MAX);
  int32_t x = add_wrap(constant_48_over_17, uma_srdhm(half_denominator, constant_neg_32_over_17));
  int i;
  for (i = 0; i < 3; ++i) {
    int32_t half_denominator_times_x = uma_srdhm(half_denominator, x);
    int32_t one_minus = add_wrap(one_q2, uma_wrap_i32(-(int64_t)half_denominator_times_x));
    x = add_wrap(x, rescale(uma_srdhm(x, one_minus), 4, 2));
  }
  return rescale(x, 1, 0);
}

static int count_leading_zeros32(uint32_t x) {
  int n = 0;
  if (x == 0u) return 32;
  while ((x & 0x80000000u) == 0u) {
    x <<= 1;
    ++n;
  }
  return n;
}

/* TFLite GetReciprocal: scale in Q0.31 and how many bits x exceeds one by. */
static int32_t get_reciprocal(int32_t x, int x_integer_digits, int* num_bits_over_unit) {
  int headroom_plus_one = count_leading_zeros32((uint32_t)x);
  /* A shift by 32 does nothing on the reference's int32 (it shifts mod 32). */
  int32_t shifted = headroom_plus_one >= 32 ? x : uma_shl_i32(x, headroom_plus_one);
  int32_t shifted_sum_minus_one = uma_wrap_i32((int64_t)shifted + 2147483648LL);
  *num_bits_over_unit = x_integer_digits - headroom_plus_one;
  return one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);
}

static int32_t exp_of_diff(int32_t diff, int32_t multiplier, int32_t left_shift) {
  int32_t scaled = uma_srdhm(uma_shl_i32(diff, (int)left_shift), multiplier);
  return exp_on_negative_values(scaled, UMA_SOFTMAX_SCALED_DIFF_INTEGER_BITS);
}

/* The int8-input softmax of TFLite's reference kernel for an output of output_bits bits
 * (8 or 16): exactly one of out8/out16 is non-null. The output zero point is the output
 * type's minimum, so the result is offset by it and clamped to the type's range. */
static int32_t softmax_from_int8(const int8_t* input, int8_t* out8, int16_t* out16, int output_bits,
                                 int32_t outer_size, int32_t depth, int32_t input_multiplier,
                                 int32_t input_left_shift, int32_t diff_min) {
  const int32_t out_min = -((int32_t)1 << (output_bits - 1));
  const int32_t out_max = ((int32_t)1 << (output_bits - 1)) - 1;
  int32_t r;
  if (outer_size < 0 || depth < 0 || input_left_shift < 0 || input_left_shift > 31) return -1;
  for (r = 0; r < outer_size; ++r) {
    const int8_t* x = input + (int64_t)r * depth;
    const int64_t row = (int64_t)r * depth;
    int32_t max_in_row = -128;
    int32_t sum_of_exps = 0;
    int32_t c;
    int num_bits_over_unit;
    int32_t shifted_scale;
    int exponent;
    for (c = 0; c < depth; ++c) max_in_row = x[c] > max_in_row ? x[c] : max_in_row;
    for (c = 0; c < depth; ++c) {
      int32_t diff = x[c] - max_in_row;
      if (diff >= diff_min) {
        sum_of_exps = add_wrap(sum_of_exps, rescale(exp_of_diff(diff, input_multiplier, input_left_shift), 0,
                                                    UMA_SOFTMAX_ACCUMULATION_INTEGER_BITS));
      }
    }
    shifted_scale = get_reciprocal(sum_of_exps, UMA_SOFTMAX_ACCUMULATION_INTEGER_BITS, &num_bits_over_unit);
    exponent = num_bits_over_unit + 31 - output_bits;
    if (exponent < 0 || exponent > 31) return -1;
    for (c = 0; c < depth; ++c) {
      int32_t diff = x[c] - max_in_row;
      int32_t v = out_min;
      if (diff >= diff_min) {
        int32_t unsat = uma_rounding_divide_by_pot(
            uma_srdhm(shifted_scale, exp_of_diff(diff, input_multiplier, input_left_shift)), exponent);
        v = unsat + out_min;
        v = v < out_min ? out_min : (v > out_max ? out_max : v);
      }
      if (out8 != 0) {
        out8[row + c] = (int8_t)v;
      } else {
        out16[row + c] = (int16_t)v;
      }
    }
  }
  return 0;
}

int32_t uma_ref_softmax_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                             int32_t input_multiplier, int32_t input_left_shift, int32_t diff_min) {
  return softmax_from_int8(input, output, 0, 8, outer_size, depth, input_multiplier, input_left_shift, diff_min);
}

int32_t uma_ref_softmax_int8_int16(const int8_t* input, int16_t* output, int32_t outer_size, int32_t depth,
                                   int32_t input_multiplier, int32_t input_left_shift, int32_t diff_min) {
  return softmax_from_int8(input, 0, output, 16, outer_size, depth, input_multiplier, input_left_shift, diff_min);
}

/* TFLite lut_lookup (int16): 512 intervals of 128 values, linear interpolation. */
static int16_t lut_lookup_int16(int16_t value, const int16_t* lut) {
  int32_t index = 256 + uma_asr_i32(value, 7);
  int32_t offset = value & 0x7f;
  int32_t base = lut[index];
  int32_t slope = uma_wrap_i16((int64_t)lut[index + 1] - base);
  int32_t delta = uma_asr_i32(slope * offset + 64, 7);
  return uma_wrap_i16((int64_t)base + delta);
}

static int32_t clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

int32_t uma_ref_softmax_int16(const int16_t* input, int16_t* output, int32_t outer_size, int32_t depth,
                              int32_t input_multiplier, int32_t input_left_shift, const int16_t* exp_lut,
                              const int16_t* one_over_one_plus_x_lut) {
  int32_t i;
  int32_t c;
  for (i = 0; i < outer_size; ++i) {
    const int16_t* x = input + (int64_t)i * depth;
    int16_t* y = output + (int64_t)i * depth;
    int32_t max_in_row = -32768;
    int32_t sum_of_exps = 0;
    int headroom_plus_one;
    int32_t shifted_sum;
    int16_t reciprocal;
    int right_shift;
    int64_t round;
    for (c = 0; c < depth; ++c) max_in_row = x[c] > max_in_row ? x[c] : max_in_row;
    for (c = 0; c < depth; ++c) {
      int32_t scaled = uma_q_multiply_shift(x[c] - max_in_row, input_multiplier, input_left_shift);
      int16_t sym = (int16_t)clamp_i32(uma_wrap_i32((int64_t)scaled + 32767), -32768, 32767);
      y[c] = lut_lookup_int16(sym, exp_lut);
      sum_of_exps = uma_wrap_i32((int64_t)sum_of_exps + y[c]);
    }
    /* Count leading zeros of the sum as uint32. */
    {
      uint32_t u = (uint32_t)sum_of_exps;
      headroom_plus_one = 0;
      if (u == 0) headroom_plus_one = 32;
      else while ((u & 0x80000000u) == 0) { u <<= 1; ++headroom_plus_one; }
    }
    if (headroom_plus_one < 1 || headroom_plus_one > 31) return -1;
    shifted_sum = (int32_t)uma_asr_i64((int64_t)(((uint64_t)(uint32_t)sum_of_exps << (headroom_plus_one - 1)) + (1u << 13)), 14);
    reciprocal = lut_lookup_int16((int16_t)clamp_i32(shifted_sum - (32768 + 65536), -32768, 32767), one_over_one_plus_x_lut);
    right_shift = 31 - headroom_plus_one;
    if (right_shift < 1) return -1;
    round = (int64_t)1 << (right_shift - 1);
    for (c = 0; c < depth; ++c) {
      int64_t r = uma_asr_i64((int64_t)y[c] * (int64_t)reciprocal + round, right_shift);
      y[c] = (int16_t)clamp_i32(uma_wrap_i32(r), 0, 32767);
    }
  }
  return 0;
}

/* gemmlowp-style GetInvSqrtQuantizedMultiplierExp (TFLite common.h): five Newton-Raphson
 * steps in FixedPoint<int32, 3>; raw subtraction wraps like the reference. */
static void inv_sqrt_quantized_multiplier_exp(int32_t input, int reverse_shift, int32_t* inv_sqrt, int* shift_out) {
  int shift = 11;
  int left_shift_bit_pairs;
  int i;
  int32_t half_input;
  const int32_t half_three = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28;
  if (input <= 1) {
    *inv_sqrt = INT32_MAX;
    *shift_out = 0;
    return;
  }
  while (input >= (1 << 29)) {
    input /= 4;
    ++shift;
  }
  left_shift_bit_pairs = (count_leading_zeros32((uint32_t)input) - 1) / 2 - 1;
  shift -= left_shift_bit_pairs;
  input = uma_shl_i32(input, 2 * left_shift_bit_pairs);
  half_input = sat_mul_by_pot(input >> 1, -1);
  for (i = 0; i < 5; ++i) {
    int32_t x3 = rescale(uma_srdhm(uma_srdhm(x, x), x), 9, 3);
    x = rescale(uma_wrap_i32((int64_t)uma_srdhm(half_three, x) - (int64_t)uma_srdhm(half_input, x3)), 6, 3);
  }
  x = uma_srdhm(x, 1518500250);
  if (shift < 0) {
    x = uma_shl_i32(x, -shift);
    shift = 0;
  }
  *inv_sqrt = x;
  *shift_out = shift * reverse_shift;
}

int32_t uma_ref_l2norm_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                            int32_t input_zero_point) {
  int32_t o, c;
  if (outer_size < 0 || depth < 0) return -1;
  for (o = 0; o < outer_size; ++o) {
    const int8_t* row = input + (int64_t)o * depth;
    int8_t* out = output + (int64_t)o * depth;
    int32_t acc = 0;
    int32_t multiplier;
    int shift;
    for (c = 0; c < depth; ++c) {
      int32_t v = (int32_t)row[c] - input_zero_point;
      acc = uma_wrap_i32((int64_t)acc + (int64_t)v * v);
    }
    inv_sqrt_quantized_multiplier_exp(acc, -1, &multiplier, &shift);
    for (c = 0; c < depth; ++c) {
      int32_t v = uma_q_multiply_shift((int32_t)row[c] - input_zero_point, multiplier, shift + 7);
      out[c] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
  }
  return 0;
}

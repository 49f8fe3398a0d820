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

/* exp_of_diff of an int8 difference (-255..0), computed once per call: the reference
 * computes it twice per element, and its fixed-point exp is most of softmax's time. */
struct exp_memo {
  int32_t value[256];
  uint8_t known[256];
  int32_t multiplier;
  int32_t left_shift;
};

static int32_t memo_exp_of_diff(struct exp_memo* m, int32_t diff) {
  int32_t k = -diff;
  if (!m->known[k]) {
    m->value[k] = exp_of_diff(diff, m->multiplier, m->left_shift);
    m->known[k] = 1u;
  }
  return m->value[k];
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
  struct exp_memo memo;
  if (outer_size < 0 || depth < 0 || input_left_shift < 0 || input_left_shift > 31) return -1;
  memset(memo.known, 0, sizeof memo.known);
  memo.multiplier = input_multiplier;
  memo.left_shift = input_left_shift;
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
        sum_of_exps = add_wrap(sum_of_exps, rescale(memo_exp_of_diff(&memo, diff), 0, UMA_SOFTMAX_ACCUMULATION_INTEGER_BITS));
      }
    }
    shifted_scale = get_reciprocal(sum_of_exps, UMA_SOFTMAX_ACCUMULATION_INTEGER_BITS, &num_bits_over_unit);
    exponent = num_bits_over_unit + 31 - output_bits;
    if (exponent < 0) return -1;
    for (c = 0; c < depth; ++c) {
      int32_t diff = x[c] - max_in_row;
      int32_t v = out_min;
      if (diff >= diff_min) {
        /* Past 31 (an int8 row whose sum of exps reaches 512) the non-negative value rounds to
         * 0, where TFLite Micro's shift is undefined: every probability is under half a step. */
        int32_t unsat = exponent > 31 ? 0 : uma_rounding_divide_by_pot(
            uma_srdhm(shifted_scale, memo_exp_of_diff(&memo, diff)), exponent);
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

static int32_t saturating_add_i32(int32_t a, int32_t b) {
  int64_t v = (int64_t)a + (int64_t)b;
  return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

static int32_t saturating_sub_i32(int32_t a, int32_t b) {
  int64_t v = (int64_t)a - (int64_t)b;
  return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

/* TFLite's log_x_for_x_greater_than_or_equal_to_1_impl: a Q(input_bits) raw >= 1 to its
 * natural log as a Q(output_bits) raw. */
static int32_t log_x_for_x_ge_1(int32_t x, int output_bits, int input_bits) {
  const int accum_bits = output_bits + 1;
  const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250, one_quarter = 536870912;
  const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769, alpha_f = 638450708;
  const int32_t shifted_quarter = rescale(one_quarter, 0, accum_bits);
  int z_a_headroom_plus_1 = count_leading_zeros32((uint32_t)x);
  int32_t r_a_tmp = sat_mul_by_pot(x, z_a_headroom_plus_1 - 1);
  int32_t r_a_raw = sat_mul_by_pot(uma_srdhm(r_a_tmp, sqrt_half), 1);
  int32_t z_a_pow_2_adj = saturating_add_i32(sat_mul_by_pot(input_bits - z_a_headroom_plus_1, 31 - accum_bits), shifted_quarter);
  int32_t z_b = uma_srdhm(x, sqrt_half);
  int z_b_headroom = count_leading_zeros32((uint32_t)z_b) - 1;
  int32_t r_b_raw = sat_mul_by_pot(x, z_b_headroom);
  int32_t z_b_pow_2_adj = saturating_sub_i32(sat_mul_by_pot(input_bits - z_b_headroom, 31 - accum_bits), shifted_quarter);
  int32_t r = r_a_raw < r_b_raw ? r_a_raw : r_b_raw;
  int32_t z_pow_2_adj = z_a_pow_2_adj > z_b_pow_2_adj ? z_a_pow_2_adj : z_b_pow_2_adj;
  int32_t p = rounding_half_sum(r, sqrt_sqrt_half);
  int32_t q = add_wrap(r, -sqrt_sqrt_half);
  int32_t common_sq, num, denom_minus_one, recip_denom, num_scaled;
  q = add_wrap(q, q);
  common_sq = uma_srdhm(q, q);
  num = add_wrap(uma_srdhm(q, r), uma_srdhm(uma_srdhm(q, common_sq), alpha_n));
  denom_minus_one = add_wrap(uma_srdhm(p, add_wrap(add_wrap(alpha_i, q), uma_srdhm(alpha_d, common_sq))), uma_srdhm(alpha_f, q));
  recip_denom = one_over_one_plus_x_for_x_in_0_1(denom_minus_one);
  num_scaled = rescale(num, 0, accum_bits);
  return rescale(add_wrap(uma_srdhm(z_pow_2_adj, log_2), uma_srdhm(num_scaled, recip_denom)), accum_bits, output_bits);
}

int32_t uma_ref_log_softmax_int8(const int8_t* input, int8_t* output, int32_t outer_size, int32_t depth,
                                 int32_t input_multiplier, int32_t input_left_shift, int32_t reverse_scaling_divisor,
                                 int32_t reverse_scaling_left_shift, int32_t diff_min) {
  int32_t o, c;
  if (outer_size < 0 || depth < 0) return -1;
  for (o = 0; o < outer_size; ++o) {
    const int8_t* row = input + (int64_t)o * depth;
    int8_t* out = output + (int64_t)o * depth;
    int32_t max_in_row = -128;
    int32_t sum_of_exps = 0;
    int32_t log_sum, adjusted_diff_min, reverse;
    for (c = 0; c < depth; ++c) {
      if (row[c] > max_in_row) max_in_row = row[c];
    }
    for (c = 0; c < depth; ++c) {
      int32_t diff = (int32_t)row[c] - max_in_row;
      if (diff >= diff_min) {
        int32_t diff_q5 = uma_q_multiply_shift(diff, input_multiplier, input_left_shift);
        sum_of_exps = add_wrap(sum_of_exps, rescale(exp_on_negative_values(diff_q5, 5), 0, 12));
      }
    }
    log_sum = log_x_for_x_ge_1(sum_of_exps, 5, 12);
    reverse = uma_q_multiply_shift(add_wrap(log_sum, INT32_MIN), reverse_scaling_divisor, reverse_scaling_left_shift);
    adjusted_diff_min = diff_min - 1 > reverse ? diff_min - 1 : reverse;
    for (c = 0; c < depth; ++c) {
      int32_t diff = (int32_t)row[c] - max_in_row;
      if (diff > adjusted_diff_min) {
        int32_t diff_q5 = uma_q_multiply_shift(diff, input_multiplier, input_left_shift);
        int32_t v = uma_rounding_divide_by_pot(add_wrap(diff_q5, uma_wrap_i32(-(int64_t)log_sum)), 31 - 5 - 4) + 127;
        out[c] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
      } else {
        out[c] = -128;
      }
    }
  }
  return 0;
}

/* TFLite's sigmoid(i / 24) in unsigned Q0.16 (reference_integer_ops logistic/tanh table). */
static const uint16_t uma_sigmoid_table_uint16[256] = {
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
  40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
  47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
  53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
  57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
  60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
  62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
  63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
  64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
  64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
  65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
  65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
  65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
  65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
  65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
  65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
  65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
  65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
  65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
  65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
  65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
  65534, 65534, 65534, 65535,
};

/* The input rescale reference_integer_ops Logistic and Tanh (int16) share, rounding; a zero
   multiplier selects TFLite's default (multiplier 3 << shift, no shift). */
static int32_t lstm_scaled_input(int16_t x, int32_t input_multiplier, int32_t input_left_shift) {
  int32_t round;
  if (input_multiplier == 0) {
    input_multiplier = 3 << input_left_shift;
    input_left_shift = 0;
  }
  round = input_left_shift > 0 ? 1 << (input_left_shift - 1) : 0;
  return uma_asr_i32(x * input_multiplier + round, input_left_shift);
}

/* reference_integer_ops::Logistic, int16. */
static int16_t lstm_logistic_int16(int16_t x, int32_t input_multiplier, int32_t input_left_shift) {
  int32_t input;
  uint32_t abs_input;
  uint32_t uh;
  uint32_t result;
  input = lstm_scaled_input(x, input_multiplier, input_left_shift);
  abs_input = (uint32_t)(input >= 0 ? input : -input);
  uh = abs_input >> 9;
  if (uh >= 255) {
    result = 0x7FFFu << 10;
  } else {
    uint32_t ua = uma_sigmoid_table_uint16[uh];
    uint32_t ub = uma_sigmoid_table_uint16[uh + 1];
    result = (ua << 9) + (abs_input & 0x1ffu) * (ub - ua);
  }
  result = input >= 0 ? result + (1u << 9) : (1u << 25) - result + (1u << 9) - 1u;
  return uma_wrap_i16((int64_t)(result >> 10));
}

/* reference_integer_ops::Tanh, int16. */
static int16_t lstm_tanh_int16(int16_t x, int32_t input_multiplier, int32_t input_left_shift) {
  int32_t input;
  uint32_t abs_input;
  uint32_t uh;
  int32_t result;
  input = lstm_scaled_input(x, input_multiplier, input_left_shift);
  abs_input = (uint32_t)(input >= 0 ? input : -input);
  uh = abs_input >> 8;
  if (uh >= 255) {
    result = 0xFFFF << 8;
  } else {
    uint32_t ua = uma_sigmoid_table_uint16[uh];
    uint32_t ub = uma_sigmoid_table_uint16[uh + 1];
    result = (int32_t)((ua << 8) + (abs_input & 0xffu) * (ub - ua));
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return uma_wrap_i16(uma_asr_i32(result, 8));
}

static int32_t lstm_sat16(int32_t v) { return v < -32768 ? -32768 : (v > 32767 ? 32767 : v); }

/* The integer LSTM step loop shared by the int8 (int32 bias, 32-bit accumulators) and 16x8
 * (int16 activations, int64 bias and accumulators, 64-bit requantize) kernels. */
static void lstm_integer(const void* input, const int8_t* const* wx, const int8_t* const* wh, const void* const* bias,
                         void* hidden, int16_t* cell, void* output, int16_t* scratch, const int32_t* params) {
  const int32_t time = params[0], batch = params[1], n = params[2], units = params[3], time_major = params[4];
  const int32_t in_offset = -params[5], hidden_zp = params[6];
  const int32_t clip = params[29];
  const int act16 = params[32] == 16;
  const int32_t hidden_min = act16 ? -32768 : -128, hidden_max = act16 ? 32767 : 127;
  int32_t t, row, k, u, i;
#define UMA_LSTM_ACT(ptr, idx) (act16 ? (int32_t)((const int16_t*)(ptr))[idx] : (int32_t)((const int8_t*)(ptr))[idx])
  for (t = 0; t < time; ++t) {
    for (row = 0; row < batch; ++row) {
      const int64_t step = time_major ? (int64_t)t * batch + row : (int64_t)row * time + t;
      const int64_t x0 = step * n;
      const int64_t h0 = (int64_t)row * units;
      int16_t* c = cell + h0;
      for (k = 0; k < 4; ++k) {
        const int32_t* q = params + 7 + 4 * k;
        for (u = 0; u < units; ++u) {
          int32_t from_input;
          int32_t from_hidden;
          int32_t pre;
          if (act16) {
            int64_t acc = 0;
            int64_t rec = 0;
            for (i = 0; i < n; ++i) acc += (int64_t)wx[k][u * n + i] * (UMA_LSTM_ACT(input, x0 + i) + in_offset);
            /* The products cannot overflow; the bias can be anything: the add wraps (as the interpreter's). */
            acc = (int64_t)((uint64_t)acc + (uint64_t)((const int64_t*)bias[k])[u]);
            for (i = 0; i < units; ++i) rec += (int64_t)wh[k][u * units + i] * (UMA_LSTM_ACT(hidden, h0 + i) - hidden_zp);
            from_input = lstm_sat16(uma_q_multiply_shift64(acc, q[0], q[1]));
            from_hidden = lstm_sat16(uma_q_multiply_shift64(rec, q[2], q[3]));
          } else {
            int32_t acc = 0;
            int32_t rec = 0;
            for (i = 0; i < n; ++i) acc = uma_wrap_i32((int64_t)acc + wx[k][u * n + i] * (UMA_LSTM_ACT(input, x0 + i) + in_offset));
            acc = uma_wrap_i32((int64_t)acc + ((const int32_t*)bias[k])[u]);
            for (i = 0; i < units; ++i) rec = uma_wrap_i32((int64_t)rec + wh[k][u * units + i] * (UMA_LSTM_ACT(hidden, h0 + i) - hidden_zp));
            from_input = lstm_sat16(uma_q_multiply_shift(acc, q[0], q[1]));
            from_hidden = lstm_sat16(uma_q_multiply_shift(rec, q[2], q[3]));
          }
          pre = lstm_sat16(from_input + from_hidden);
          scratch[k * units + u] = k == 2 ? lstm_tanh_int16((int16_t)pre, 0, 0) : lstm_logistic_int16((int16_t)pre, 0, 0);
        }
      }
      for (u = 0; u < units; ++u) {
        int32_t kept = lstm_sat16(uma_q_multiply_shift(scratch[u] * c[u], params[23], params[24]));
        int32_t added = lstm_sat16(uma_q_multiply_shift(scratch[units + u] * scratch[2 * units + u], params[25], params[26]));
        int32_t v = lstm_sat16(kept + added);
        if (clip >= 0) v = v > clip ? clip : (v < -clip ? -clip : v);
        c[u] = (int16_t)v;
      }
      for (u = 0; u < units; ++u) {
        int16_t tc = lstm_tanh_int16(c[u], params[30], params[31]);
        int32_t v = hidden_zp + uma_q_multiply_shift(tc * scratch[3 * units + u], params[27], params[28]);
        v = v < hidden_min ? hidden_min : (v > hidden_max ? hidden_max : v);
        if (act16) {
          ((int16_t*)hidden)[h0 + u] = (int16_t)v;
          ((int16_t*)output)[step * units + u] = (int16_t)v;
        } else {
          ((int8_t*)hidden)[h0 + u] = (int8_t)v;
          ((int8_t*)output)[step * units + u] = (int8_t)v;
        }
      }
    }
  }
#undef UMA_LSTM_ACT
}

/* The int8 and 16x8 entry points differ only in their pointer types; params[32] (the activation
   width the compiler planned for) guards against calling one with the other's operands. */
static int32_t lstm_entry(int32_t act_bits, const void* input, const int8_t* wx_forget, const int8_t* wx_input,
                          const int8_t* wx_cell, const int8_t* wx_output, const int8_t* wh_forget, const int8_t* wh_input,
                          const int8_t* wh_cell, const int8_t* wh_output, const void* b_forget, const void* b_input,
                          const void* b_cell, const void* b_output, void* hidden, int16_t* cell, void* output,
                          int16_t* scratch, const int32_t* params) {
  const int8_t* wx[4];
  const int8_t* wh[4];
  const void* bias[4];
  if (params[32] != act_bits) return -1;
  wx[0] = wx_forget; wx[1] = wx_input; wx[2] = wx_cell; wx[3] = wx_output;
  wh[0] = wh_forget; wh[1] = wh_input; wh[2] = wh_cell; wh[3] = wh_output;
  bias[0] = b_forget; bias[1] = b_input; bias[2] = b_cell; bias[3] = b_output;
  lstm_integer(input, wx, wh, bias, hidden, cell, output, scratch, params);
  return 0;
}

int32_t uma_ref_lstm_int8(const int8_t* input, const int8_t* wx_forget, const int8_t* wx_input, const int8_t* wx_cell,
                          const int8_t* wx_output, const int8_t* wh_forget, const int8_t* wh_input, const int8_t* wh_cell,
                          const int8_t* wh_output, const int32_t* b_forget, const int32_t* b_input, const int32_t* b_cell,
                          const int32_t* b_output, int8_t* hidden, int16_t* cell, int8_t* output, int16_t* scratch,
                          const int32_t* params) {
  return lstm_entry(8, input, wx_forget, wx_input, wx_cell, wx_output, wh_forget, wh_input, wh_cell, wh_output, b_forget,
                    b_input, b_cell, b_output, hidden, cell, output, scratch, params);
}

int32_t uma_ref_lstm_int16(const int16_t* input, const int8_t* wx_forget, const int8_t* wx_input, const int8_t* wx_cell,
                           const int8_t* wx_output, const int8_t* wh_forget, const int8_t* wh_input, const int8_t* wh_cell,
                           const int8_t* wh_output, const int64_t* b_forget, const int64_t* b_input, const int64_t* b_cell,
                           const int64_t* b_output, int16_t* hidden, int16_t* cell, int16_t* output, int16_t* scratch,
                           const int32_t* params) {
  return lstm_entry(16, input, wx_forget, wx_input, wx_cell, wx_output, wh_forget, wh_input, wh_cell, wh_output, b_forget,
                    b_input, b_cell, b_output, hidden, cell, output, scratch, params);
}

/* rintf in the default rounding mode (halves to even), without the target's libm; |v| < 2^31. */
static int32_t round_half_even(float v) {
  int32_t t = (int32_t)v;
  float frac = v - (float)t;
  if (frac > 0.5f || (frac == 0.5f && (t & 1))) return t + 1;
  if (frac < -0.5f || (frac == -0.5f && (t & 1))) return t - 1;
  return t;
}

/* A row's smallest and largest values, the range widened to hold 0 (both row recipes start so). */
static void row_range(const float* x, int32_t n, float* rmin, float* rmax) {
  float mn = 0.0f, mx = 0.0f;
  int32_t i;
  if (n > 0) {
    mn = x[0];
    mx = x[0];
    for (i = 1; i < n; ++i) {
      if (x[i] < mn) mn = x[i];
      if (x[i] > mx) mx = x[i];
    }
  }
  *rmin = mn < 0.0f ? mn : 0.0f;
  *rmax = mx > 0.0f ? mx : 0.0f;
}

int32_t uma_ref_quantize_rows_f32_asym(const float* input, int8_t* output, float* scales, int32_t* zero_points,
                                       int32_t rows, int32_t row_length) {
  int32_t r, i;
  if (rows < 0 || row_length < 0) return -1;
  for (r = 0; r < rows; ++r) {
    const float* x = input + (int64_t)r * row_length;
    int8_t* q = output + (int64_t)r * row_length;
    float rmin, rmax, multiplier, descaled_min, descaled_max, zero, scale;
    float lo, hi;
    int32_t zero_point;
    row_range(x, row_length, &rmin, &rmax);
    multiplier = rmin == rmax ? 1.0f : 255.0f / (rmax - rmin);
    descaled_min = rmin * multiplier;
    descaled_max = rmax * multiplier;
    zero = (-128.0f + descaled_min) + (127.0f + descaled_max) > 0.0f ? -128.0f - descaled_min : 127.0f - descaled_max;
    /* A NaN (an infinite value, a range float32 cannot span) fails the first comparison and
     * becomes -128, as XNNPack's max(zero, -128); converting it to int would be undefined. */
    zero = !(zero >= -128.0f) ? -128.0f : zero > 127.0f ? 127.0f : zero;
    zero_point = round_half_even(zero);
    scale = 1.0f / multiplier;
    lo = (float)(-128 - zero_point);
    hi = (float)(127 - zero_point);
    for (i = 0; i < row_length; ++i) {
      float y = x[i] * multiplier; /* the multiplier itself, as XNNPack */
      /* A NaN fails the first comparison and becomes the low end. */
      if (!(y >= lo)) y = lo;
      if (y > hi) y = hi;
      q[i] = (int8_t)(round_half_even(y) + zero_point);
    }
    scales[r] = scale;
    zero_points[r] = zero_point;
  }
  return 0;
}

/* roundf without the target's libm: halves away from zero; |v| < 2^31. */
static int32_t round_half_away_f(float v) {
  int32_t t = (int32_t)v;
  float frac = v - (float)t;
  if (frac >= 0.5f) return t + 1;
  if (frac <= -0.5f) return t - 1;
  return t;
}

/* round() of a double in (-128, 127): halves away from zero. */
static int32_t round_half_away_d(double v) {
  int32_t t = (int32_t)v;
  double frac = v - (double)t;
  if (frac >= 0.5) return t + 1;
  if (frac <= -0.5) return t - 1;
  return t;
}

int32_t uma_ref_quantize_rows_f32_asym_tflite(const float* input, int8_t* output, float* scales, int32_t* zero_points,
                                              int32_t rows, int32_t row_length) {
  int32_t r, i;
  if (rows < 0 || row_length < 0) return -1;
  for (r = 0; r < rows; ++r) {
    const float* x = input + (int64_t)r * row_length;
    int8_t* q = output + (int64_t)r * row_length;
    float row_min, row_max, scale, inverse;
    double rmin, rmax, dscale, from_min, from_max, err_min, err_max, zero;
    int32_t zero_point;
    row_range(x, row_length, &row_min, &row_max);
    rmin = (double)row_min;
    rmax = (double)row_max;
    if (rmin == rmax) {
      for (i = 0; i < row_length; ++i) q[i] = 0;
      scales[r] = 1.0f;
      zero_points[r] = 0;
      continue;
    }
    dscale = (rmax - rmin) / 255.0;
    from_min = -128.0 - rmin / dscale;
    from_max = 127.0 - rmax / dscale;
    err_min = 128.0 + (rmin / dscale < 0.0 ? -(rmin / dscale) : rmin / dscale);
    err_max = 127.0 + (rmax / dscale < 0.0 ? -(rmax / dscale) : rmax / dscale);
    zero = err_min < err_max ? from_min : from_max;
    /* A NaN zero point (an infinite range) fails the first comparison and becomes -128. */
    zero_point = !(zero > -128.0) ? -128 : zero >= 127.0 ? 127 : round_half_away_d(zero);
    scale = (float)dscale;
    inverse = 1.0f / scale;
    for (i = 0; i < row_length; ++i) {
      float y = x[i] * inverse;
      y = (float)zero_point + y; /* the zero point added in float before rounding, as TFLite */
      /* A NaN fails the first comparison and becomes the low end. */
      q[i] = (int8_t)(!(y >= -128.0f) ? -128 : y >= 127.0f ? 127 : round_half_away_f(y));
    }
    scales[r] = scale;
    zero_points[r] = zero_point;
  }
  return 0;
}

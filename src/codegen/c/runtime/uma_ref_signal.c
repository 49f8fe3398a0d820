/*
 * uma_ref_signal.c: TFLite Micro's signal library kernels (tflite-micro/signal), the audio
 * front end of the micro_speech preprocessor (see uma_ref_kernels.h). A file of its own,
 * shipped only to models that use it. src/arith/signal.ts is the same code: every signed
 * overflow C would leave undefined is done in unsigned arithmetic here, with the wrap gcc
 * gives TFLite Micro's code.
 */
#include "uma_ref_kernels.h"

static int16_t uma_sig_s16(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }

/* MostSignificantBit32/64 as TFLite Micro builds them with gcc or clang (32/64 for 0). */
static int32_t uma_sig_msb32(uint32_t x) {
  int32_t n = 0;
  if (x == 0) return 32;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}

static int32_t uma_sig_msb64(uint64_t x) {
  int32_t n = 0;
  if (x == 0) return 64;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}

int32_t uma_ref_signal_window(const int16_t* input, const int16_t* weights, int16_t* output, int32_t size, int32_t weight_size,
                              int32_t shift) {
  for (int32_t base = 0; base < size; base += weight_size) {
    for (int32_t i = 0; i < weight_size; i++) {
      int32_t raw = ((int32_t)input[base + i] * weights[i]) >> shift;
      output[base + i] = raw < -32768 ? (int16_t)-32768 : raw > 32767 ? (int16_t)32767 : (int16_t)raw;
    }
  }
  return 0;
}

static int32_t uma_sig_fft_auto_scale_bits(const int16_t* input, int32_t size) {
  int16_t max = 0;
  for (int32_t i = 0; i < size; i++) {
    int16_t v = input[i];
    if (v > max) {
      max = v;
    } else if (-v > max) {
      max = uma_sig_s16(-v);
    }
  }
  int32_t bits = 16 - uma_sig_msb32((uint32_t)(int32_t)max) - 1;
  return bits <= 0 ? 0 : bits;
}

int32_t uma_ref_signal_fft_auto_scale(const int16_t* input, int16_t* output, int32_t size) {
  int32_t scale = 1 << uma_sig_fft_auto_scale_bits(input, size);
  for (int32_t i = 0; i < size; i++) output[i] = uma_sig_s16(input[i] * scale);
  return 0;
}

int32_t uma_ref_signal_fft_auto_scale_bits(const int16_t* input, int32_t* bits, int32_t size) {
  *bits = uma_sig_fft_auto_scale_bits(input, size);
  return 0;
}

int32_t uma_ref_signal_energy(const int16_t* input, uint32_t* output, int32_t size, int32_t start, int32_t end) {
  for (int32_t i = 0; i < size; i++) output[i] = 0;
  for (int32_t i = start; i < end; i++) {
    int32_t re = input[2 * i];
    int32_t im = input[2 * i + 1];
    output[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
  }
  return 0;
}

int32_t uma_ref_signal_filter_bank(const uint32_t* input, const int16_t* weights, const int16_t* unweights,
                                   const int16_t* frequency_starts, const int16_t* weight_starts, const int16_t* widths,
                                   uint64_t* output, int32_t num_channels) {
  uint64_t weighted = 0;
  uint64_t unweighted = 0;
  for (int32_t i = 0; i < num_channels + 1; i++) {
    int32_t freq_start = frequency_starts[i];
    int32_t weight_start = weight_starts[i];
    for (int32_t j = 0; j < widths[i]; j++) {
      uint64_t x = input[freq_start + j];
      weighted += (uint64_t)(int64_t)weights[weight_start + j] * x;
      unweighted += (uint64_t)(int64_t)unweights[weight_start + j] * x;
    }
    if (i > 0) output[i - 1] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
  return 0;
}

static uint32_t uma_sig_sqrt32(uint32_t num) {
  if (num == 0) return 0;
  uint32_t res = 0;
  int32_t max_bit = (32 - uma_sig_msb32(num)) | 1;
  uint32_t bit = (uint32_t)1 << (31 - max_bit);
  int32_t iterations = (31 - max_bit) / 2 + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xFFFF) ++res;
  return res & 0xFFFF;
}

static uint32_t uma_sig_sqrt64(uint64_t num) {
  if ((num >> 32) == 0) return uma_sig_sqrt32((uint32_t)num);
  uint64_t res = 0;
  int32_t max_bit = (64 - uma_sig_msb64(num)) | 1;
  uint64_t bit = (uint64_t)1 << (63 - max_bit);
  int32_t iterations = (63 - max_bit) / 2 + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xFFFFFFFFu) ++res;
  return (uint32_t)res;
}

int32_t uma_ref_signal_filter_bank_sqrt(const uint64_t* input, const int32_t* scale_bits, uint32_t* output, int32_t size) {
  int32_t shift = *scale_bits;
  for (int32_t i = 0; i < size; i++) output[i] = shift < 0 || shift > 31 ? 0 : uma_sig_sqrt64(input[i]) >> shift;
  return 0;
}

int32_t uma_ref_signal_spectral_subtraction(const uint32_t* input, uint32_t* noise, uint32_t* output, int32_t num_channels,
                                            int32_t smoothing, int32_t one_minus_smoothing, int32_t alternate_smoothing,
                                            int32_t alternate_one_minus_smoothing, int32_t min_signal_remaining,
                                            int32_t smoothing_bits, int32_t spectral_subtraction_bits, int32_t clamping) {
  for (int32_t i = 0; i < num_channels; i++) {
    uint32_t s = (uint32_t)((i & 1) == 0 ? smoothing : alternate_smoothing);
    uint32_t oms = (uint32_t)((i & 1) == 0 ? one_minus_smoothing : alternate_one_minus_smoothing);
    uint32_t signal_scaled_up = input[i] << smoothing_bits;
    noise[i] = (uint32_t)((((uint64_t)signal_scaled_up * s) + ((uint64_t)noise[i] * oms)) >> spectral_subtraction_bits);
    uint32_t estimate_scaled_up = noise[i];
    if (estimate_scaled_up > signal_scaled_up) {
      estimate_scaled_up = signal_scaled_up;
      if (clamping) noise[i] = estimate_scaled_up;
    }
    uint32_t floor = (uint32_t)(((uint64_t)input[i] * (uint32_t)min_signal_remaining) >> spectral_subtraction_bits);
    uint32_t subtracted = (signal_scaled_up - estimate_scaled_up) >> smoothing_bits;
    output[i] = subtracted > floor ? subtracted : floor;
  }
  return 0;
}

static int16_t uma_sig_wide_dynamic(uint32_t x, const int16_t* lut) {
  if (x <= 2) return lut[x];
  int32_t interval = uma_sig_msb32(x);
  lut += 4 * interval - 6;
  int32_t frac = (int32_t)(((interval < 11) ? (x << (11 - interval)) : (x >> (interval - 11))) & 0x3FF);
  int32_t result = ((int32_t)lut[2] * frac) >> 5;
  result = (int32_t)((uint32_t)result + ((uint32_t)(int32_t)lut[1] << 5));
  result = (int32_t)((uint32_t)result * (uint32_t)frac);
  result = (int32_t)((uint32_t)result + (1u << 14)) >> 15;
  result = (int32_t)((uint32_t)result + (uint32_t)(int32_t)lut[0]);
  return uma_sig_s16(result);
}

static uint32_t uma_sig_pcan_shrink(uint32_t x) {
  if (x < (2u << 12)) return (x * x) >> (2 + 2 * 12 - 6);
  return (x >> (12 - 6)) - (1u << 6);
}

int32_t uma_ref_signal_pcan(const uint32_t* input, const uint32_t* noise, const int16_t* gain_lut, uint32_t* output, int32_t size,
                            int32_t snr_shift) {
  for (int32_t i = 0; i < size; i++) {
    uint32_t gain = (uint32_t)(int32_t)uma_sig_wide_dynamic(noise[i], gain_lut);
    uint32_t snr = (uint32_t)(((uint64_t)input[i] * gain) >> snr_shift);
    output[i] = uma_sig_pcan_shrink(snr);
  }
  return 0;
}

static const uint16_t uma_sig_log_lut[] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611,
    3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368,
    5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568, 5547,
    5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490,
    4416, 4341, 4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981, 2875, 2768, 2659, 2549, 2437,
    2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224, 1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};

static uint32_t uma_sig_log2_fraction(uint32_t x, uint32_t log2x) {
  int32_t frac = (int32_t)(x - ((uint32_t)1 << log2x));
  if (log2x < 16) {
    frac <<= 16 - log2x;
  } else {
    frac >>= log2x - 16;
  }
  uint32_t base_seg = (uint32_t)frac >> 9;
  int32_t c0 = uma_sig_log_lut[base_seg];
  int32_t c1 = uma_sig_log_lut[base_seg + 1];
  int32_t seg_base = (int32_t)(512 * base_seg);
  int32_t rel_pos = ((c1 - c0) * (frac - seg_base)) >> 16;
  return (uint32_t)(frac + c0 + rel_pos);
}

static uint32_t uma_sig_log32(uint32_t x, uint32_t out_scale) {
  uint32_t integer = (uint32_t)uma_sig_msb32(x) - 1;
  uint32_t fraction = uma_sig_log2_fraction(x, integer);
  uint32_t log2 = (integer << 16) + fraction;
  uint32_t loge = (uint32_t)(((uint64_t)45426 * log2 + 32768) >> 16);
  return (out_scale * loge + 32768u) >> 16;
}

int32_t uma_ref_signal_filter_bank_log(const uint32_t* input, int16_t* output, int32_t size, int32_t output_scale,
                                       int32_t correction_bits) {
  for (int32_t i = 0; i < size; i++) {
    uint32_t scaled = input[i] << correction_bits;
    if (scaled > 1) {
      uint32_t v = uma_sig_log32(scaled, (uint32_t)output_scale);
      output[i] = (int16_t)(v < 32767u ? v : 32767u);
    } else {
      output[i] = 0;
    }
  }
  return 0;
}

int32_t uma_ref_signal_delay(const int16_t* input, int16_t* state, int16_t* output, int32_t rows, int32_t frame,
                             int32_t delay_length) {
  for (int32_t r = 0; r < rows; r++) {
    int16_t* s = state + r * delay_length;
    const int16_t* x = input + r * frame;
    int16_t* y = output + r * frame;
    for (int32_t i = 0; i < frame; i++) y[i] = i < delay_length ? s[i] : x[i - delay_length];
    for (int32_t j = 0; j < delay_length; j++) {
      int32_t k = frame + j;
      s[j] = k < delay_length ? s[k] : x[k - delay_length];
    }
  }
  return 0;
}

int32_t uma_ref_signal_overlap_add_int16(const int16_t* input, int16_t* state, int16_t* output, int32_t rows, int32_t frames,
                                         int32_t frame_size, int32_t frame_step) {
  for (int32_t r = 0; r < rows; r++) {
    int16_t* b = state + r * frame_size;
    for (int32_t f = 0; f < frames; f++) {
      const int16_t* x = input + (r * frames + f) * frame_size;
      int16_t* y = output + (r * frames + f) * frame_step;
      for (int32_t i = 0; i < frame_size; i++) {
        int32_t sum = (int32_t)b[i] + x[i];
        b[i] = sum < -32768 ? (int16_t)-32768 : sum > 32767 ? (int16_t)32767 : (int16_t)sum;
      }
      for (int32_t i = 0; i < frame_step; i++) y[i] = b[i];
      for (int32_t i = 0; i < frame_size - frame_step; i++) b[i] = b[i + frame_step];
      for (int32_t i = frame_size - frame_step; i < frame_size; i++) b[i] = 0;
    }
  }
  return 0;
}

int32_t uma_ref_signal_overlap_add_float(const float* input, float* state, float* output, int32_t rows, int32_t frames,
                                         int32_t frame_size, int32_t frame_step) {
  for (int32_t r = 0; r < rows; r++) {
    float* b = state + r * frame_size;
    for (int32_t f = 0; f < frames; f++) {
      const float* x = input + (r * frames + f) * frame_size;
      float* y = output + (r * frames + f) * frame_step;
      for (int32_t i = 0; i < frame_size; i++) b[i] += x[i];
      for (int32_t i = 0; i < frame_step; i++) y[i] = b[i];
      for (int32_t i = 0; i < frame_size - frame_step; i++) b[i] = b[i + frame_step];
      for (int32_t i = frame_size - frame_step; i < frame_size; i++) b[i] = 0.0f;
    }
  }
  return 0;
}

int32_t uma_ref_signal_stacker(const int16_t* input, int32_t* state, int16_t* output, int32_t channels, int32_t left,
                               int32_t right, int32_t step) {
  int32_t size = channels * (left + right + 1);
  int32_t* queue = state + 2;
  int32_t available = state[0];
  for (int32_t c = 0; c < channels; c++) queue[available + c] = input[c];
  available += channels;
  if (state[1] == 0) {
    for (int32_t k = 0; k < left; k++) {
      for (int32_t c = 0; c < channels; c++) queue[available + c] = queue[available - channels + c];
      available += channels;
    }
    state[1] = 1;
  }
  if (available >= size) {
    int32_t drop = channels * step;
    for (int32_t i = 0; i < size; i++) output[i] = (int16_t)queue[i];
    for (int32_t i = 0; i < available - drop; i++) queue[i] = queue[i + drop];
    available -= drop;
    output[size] = 1;
  } else {
    for (int32_t i = 0; i < size; i++) output[i] = 0;
    output[size] = 0;
  }
  state[0] = available;
  return 0;
}

int32_t uma_ref_signal_framer(const int16_t* input, int32_t* state, int16_t* output, int32_t rows, int32_t frames,
                              int32_t frame_size, int32_t frame_step, int32_t capacity) {
  int16_t valid = 1;
  for (int32_t r = 0; r < rows; r++) {
    int32_t* s = state + r * (capacity + 1);
    int32_t available = s[0];
    for (int32_t f = 0; f < frames; f++) {
      const int16_t* x = input + (r * frames + f) * frame_step;
      int16_t* y = output + (r * frames + f) * frame_size;
      for (int32_t i = 0; i < frame_step; i++) s[1 + available + i] = x[i];
      available += frame_step;
      if (available >= frame_size) {
        for (int32_t i = 0; i < frame_size; i++) y[i] = (int16_t)s[1 + i];
        for (int32_t i = 0; i < available - frame_step; i++) s[1 + i] = s[1 + i + frame_step];
        available -= frame_step;
      } else {
        valid = 0;
        for (int32_t i = 0; i < frame_size; i++) y[i] = 0;
      }
    }
    s[0] = available;
  }
  output[rows * frames * frame_size] = valid;
  return 0;
}

/* kissfft (v130) with FIXED_POINT=16 for power-of-two lengths: radix-4 and radix-2 stages. */
static int16_t uma_sig_sround(int32_t x) { return uma_sig_s16((int32_t)((uint32_t)x + 16384u) >> 15); }

static void uma_sig_fixdiv(int16_t* c, int32_t div) {
  int32_t m = 32767 / div;
  c[0] = uma_sig_sround(c[0] * m);
  c[1] = uma_sig_sround(c[1] * m);
}

static void uma_sig_cmul(int16_t* r, const int16_t* a, const int16_t* b) {
  int16_t re = uma_sig_sround(a[0] * b[0] - a[1] * b[1]);
  int16_t im = uma_sig_sround(a[0] * b[1] + a[1] * b[0]);
  r[0] = re;
  r[1] = im;
}

static void uma_sig_bfly2(int16_t* out, int32_t fstride, const int16_t* tw, int32_t m) {
  for (int32_t u = 0; u < m; u++) {
    int16_t* a = out + 2 * u;
    int16_t* b = out + 2 * (u + m);
    int16_t t[2];
    uma_sig_fixdiv(a, 2);
    uma_sig_fixdiv(b, 2);
    uma_sig_cmul(t, b, tw + 2 * u * fstride);
    b[0] = uma_sig_s16(a[0] - t[0]);
    b[1] = uma_sig_s16(a[1] - t[1]);
    a[0] = uma_sig_s16(a[0] + t[0]);
    a[1] = uma_sig_s16(a[1] + t[1]);
  }
}

static void uma_sig_bfly4(int16_t* out, int32_t fstride, const int16_t* tw, int32_t m, int32_t inverse) {
  for (int32_t u = 0; u < m; u++) {
    int16_t* f0 = out + 2 * u;
    int16_t* f1 = f0 + 2 * m;
    int16_t* f2 = f0 + 4 * m;
    int16_t* f3 = f0 + 6 * m;
    int16_t s0[2], s1[2], s2[2], s3[2], s4[2], s5[2];
    uma_sig_fixdiv(f0, 4);
    uma_sig_fixdiv(f1, 4);
    uma_sig_fixdiv(f2, 4);
    uma_sig_fixdiv(f3, 4);
    uma_sig_cmul(s0, f1, tw + 2 * u * fstride);
    uma_sig_cmul(s1, f2, tw + 2 * u * fstride * 2);
    uma_sig_cmul(s2, f3, tw + 2 * u * fstride * 3);
    s5[0] = uma_sig_s16(f0[0] - s1[0]);
    s5[1] = uma_sig_s16(f0[1] - s1[1]);
    f0[0] = uma_sig_s16(f0[0] + s1[0]);
    f0[1] = uma_sig_s16(f0[1] + s1[1]);
    s3[0] = uma_sig_s16(s0[0] + s2[0]);
    s3[1] = uma_sig_s16(s0[1] + s2[1]);
    s4[0] = uma_sig_s16(s0[0] - s2[0]);
    s4[1] = uma_sig_s16(s0[1] - s2[1]);
    f2[0] = uma_sig_s16(f0[0] - s3[0]);
    f2[1] = uma_sig_s16(f0[1] - s3[1]);
    f0[0] = uma_sig_s16(f0[0] + s3[0]);
    f0[1] = uma_sig_s16(f0[1] + s3[1]);
    if (inverse) {
      f1[0] = uma_sig_s16(s5[0] - s4[1]);
      f1[1] = uma_sig_s16(s5[1] + s4[0]);
      f3[0] = uma_sig_s16(s5[0] + s4[1]);
      f3[1] = uma_sig_s16(s5[1] - s4[0]);
    } else {
      f1[0] = uma_sig_s16(s5[0] + s4[1]);
      f1[1] = uma_sig_s16(s5[1] - s4[0]);
      f3[0] = uma_sig_s16(s5[0] - s4[1]);
      f3[1] = uma_sig_s16(s5[1] + s4[0]);
    }
  }
}

static void uma_sig_kf_work(int16_t* out, const int16_t* in, int32_t fstride, const int32_t* factors, const int16_t* tw,
                            int32_t inverse) {
  int32_t p = factors[0];
  int32_t m = factors[1];
  for (int32_t q = 0; q < p; q++) {
    if (m == 1) {
      out[2 * q] = in[2 * q * fstride];
      out[2 * q + 1] = in[2 * q * fstride + 1];
    } else {
      uma_sig_kf_work(out + 2 * q * m, in + 2 * q * fstride, fstride * p, factors + 2, tw, inverse);
    }
  }
  if (p == 4) {
    uma_sig_bfly4(out, fstride, tw, m, inverse);
  } else {
    uma_sig_bfly2(out, fstride, tw, m);
  }
}

int32_t uma_ref_signal_rfft_int16(const int16_t* input, int16_t* output, int16_t* scratch, const int16_t* twiddles,
                                  const int32_t* factors, int32_t rows, int32_t input_length, int32_t fft_length) {
  int32_t ncfft = fft_length / 2;
  int16_t* work = scratch;
  int16_t* tmp = scratch + fft_length;
  const int16_t* super_twiddles = twiddles + 2 * ncfft;
  for (int32_t r = 0; r < rows; r++) {
    int16_t* freq = output + r * (fft_length + 2);
    for (int32_t i = 0; i < fft_length; i++) work[i] = i < input_length ? input[r * input_length + i] : 0;
    uma_sig_kf_work(tmp, work, 1, factors, twiddles, 0);
    int16_t tdc[2] = {tmp[0], tmp[1]};
    uma_sig_fixdiv(tdc, 2);
    freq[0] = uma_sig_s16(tdc[0] + tdc[1]);
    freq[2 * ncfft] = uma_sig_s16(tdc[0] - tdc[1]);
    freq[1] = 0;
    freq[2 * ncfft + 1] = 0;
    for (int32_t k = 1; k <= ncfft / 2; k++) {
      int16_t fpk[2] = {tmp[2 * k], tmp[2 * k + 1]};
      int16_t fpnk[2] = {tmp[2 * (ncfft - k)], uma_sig_s16(-tmp[2 * (ncfft - k) + 1])};
      int16_t f1k[2], f2k[2], tw[2];
      uma_sig_fixdiv(fpk, 2);
      uma_sig_fixdiv(fpnk, 2);
      f1k[0] = uma_sig_s16(fpk[0] + fpnk[0]);
      f1k[1] = uma_sig_s16(fpk[1] + fpnk[1]);
      f2k[0] = uma_sig_s16(fpk[0] - fpnk[0]);
      f2k[1] = uma_sig_s16(fpk[1] - fpnk[1]);
      uma_sig_cmul(tw, f2k, super_twiddles + 2 * (k - 1));
      freq[2 * k] = uma_sig_s16((f1k[0] + tw[0]) >> 1);
      freq[2 * k + 1] = uma_sig_s16((f1k[1] + tw[1]) >> 1);
      freq[2 * (ncfft - k)] = uma_sig_s16((f1k[0] - tw[0]) >> 1);
      freq[2 * (ncfft - k) + 1] = uma_sig_s16((tw[1] - f1k[1]) >> 1);
    }
  }
  return 0;
}

int32_t uma_ref_signal_irfft_int16(const int16_t* input, int16_t* output, int16_t* scratch, const int16_t* twiddles,
                                   const int32_t* factors, int32_t rows, int32_t fft_length) {
  int32_t ncfft = fft_length / 2;
  int16_t* tmp = scratch;
  const int16_t* super_twiddles = twiddles + 2 * ncfft;
  for (int32_t r = 0; r < rows; r++) {
    const int16_t* freq = input + r * (fft_length + 2);
    tmp[0] = uma_sig_s16(freq[0] + freq[2 * ncfft]);
    tmp[1] = uma_sig_s16(freq[0] - freq[2 * ncfft]);
    uma_sig_fixdiv(tmp, 2);
    for (int32_t k = 1; k <= ncfft / 2; k++) {
      int16_t fk[2] = {freq[2 * k], freq[2 * k + 1]};
      int16_t fnkc[2] = {freq[2 * (ncfft - k)], uma_sig_s16(-freq[2 * (ncfft - k) + 1])};
      int16_t fek[2], t[2], fok[2];
      uma_sig_fixdiv(fk, 2);
      uma_sig_fixdiv(fnkc, 2);
      fek[0] = uma_sig_s16(fk[0] + fnkc[0]);
      fek[1] = uma_sig_s16(fk[1] + fnkc[1]);
      t[0] = uma_sig_s16(fk[0] - fnkc[0]);
      t[1] = uma_sig_s16(fk[1] - fnkc[1]);
      uma_sig_cmul(fok, t, super_twiddles + 2 * (k - 1));
      tmp[2 * k] = uma_sig_s16(fek[0] + fok[0]);
      tmp[2 * k + 1] = uma_sig_s16(fek[1] + fok[1]);
      tmp[2 * (ncfft - k)] = uma_sig_s16(fek[0] - fok[0]);
      tmp[2 * (ncfft - k) + 1] = uma_sig_s16(-uma_sig_s16(fek[1] - fok[1]));
    }
    uma_sig_kf_work(output + r * fft_length, tmp, 1, factors, twiddles, 1);
  }
  return 0;
}

/* kissfft's FIXED_POINT=32 (Q31, int64 products) and float builds, power-of-two lengths: the
 * radix-4/2 code above over each type's arithmetic (src/arith/signal.ts rfftWide/irfftWide). */
static int32_t uma_sig_sround31(int64_t x) { return (int32_t)(uint32_t)(uint64_t)((x + ((int64_t)1 << 30)) >> 31); }
static void uma_sig_mul_i32(int32_t* r, int32_t ar, int32_t ai, int32_t br, int32_t bi) {
  int32_t re = uma_sig_sround31((int64_t)ar * br - (int64_t)ai * bi);
  int32_t im = uma_sig_sround31((int64_t)ar * bi + (int64_t)ai * br);
  r[0] = re;
  r[1] = im;
}
static int32_t uma_sig_fixdiv_i32(int32_t v, int32_t div) { return uma_sig_sround31((int64_t)v * (2147483647 / div)); }
static int32_t uma_sig_add_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t uma_sig_sub_i32(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t uma_sig_half_i32(int32_t sum) { return sum >> 1; }
static int32_t uma_sig_neg_i32(int32_t a) { return (int32_t)(0u - (uint32_t)a); }
static int32_t uma_sig_unscale_i32(int32_t v, int32_t n) {
  (void)n;
  return v;
}

static void uma_sig_mul_f32(float* r, float ar, float ai, float br, float bi) {
  float p1 = ar * br;
  float p2 = ai * bi;
  float p3 = ar * bi;
  float p4 = ai * br;
  r[0] = p1 - p2;
  r[1] = p3 + p4;
}
static float uma_sig_fixdiv_f32(float v, int32_t div) {
  (void)div;
  return v;
}
static float uma_sig_add_f32(float a, float b) { return a + b; }
static float uma_sig_sub_f32(float a, float b) { return a - b; }
/* kissfft's HALF_OF(x) is x * .5 in double: scaling by a half is exact, so x * 0.5f is the same float. */
static float uma_sig_half_f32(float sum) { return sum * 0.5f; }
static float uma_sig_neg_f32(float a) { return -a; }
/* TFLM's float IRFFT divides kissfft's unscaled output by fft_length. */
static float uma_sig_unscale_f32(float v, int32_t n) { return v / (float)n; }

#define UMA_SIG_WIDE_FFT(S, T)                                                                                       \
  static void uma_sig_bfly2_##S(T* out, int32_t fstride, const T* tw, int32_t m) {                                   \
    for (int32_t u = 0; u < m; u++) {                                                                                \
      T* a = out + 2 * u;                                                                                            \
      T* b = out + 2 * (u + m);                                                                                      \
      T t[2];                                                                                                        \
      a[0] = uma_sig_fixdiv_##S(a[0], 2);                                                                            \
      a[1] = uma_sig_fixdiv_##S(a[1], 2);                                                                            \
      b[0] = uma_sig_fixdiv_##S(b[0], 2);                                                                            \
      b[1] = uma_sig_fixdiv_##S(b[1], 2);                                                                            \
      uma_sig_mul_##S(t, b[0], b[1], tw[2 * u * fstride], tw[2 * u * fstride + 1]);                                  \
      b[0] = uma_sig_sub_##S(a[0], t[0]);                                                                            \
      b[1] = uma_sig_sub_##S(a[1], t[1]);                                                                            \
      a[0] = uma_sig_add_##S(a[0], t[0]);                                                                            \
      a[1] = uma_sig_add_##S(a[1], t[1]);                                                                            \
    }                                                                                                                \
  }                                                                                                                  \
  static void uma_sig_bfly4_##S(T* out, int32_t fstride, const T* tw, int32_t m, int32_t inverse) {                  \
    for (int32_t u = 0; u < m; u++) {                                                                                \
      T* f[4];                                                                                                       \
      T s0[2], s1[2], s2[2], s3[2], s4[2], s5[2];                                                                    \
      for (int32_t j = 0; j < 4; j++) {                                                                              \
        f[j] = out + 2 * (u + j * m);                                                                                \
        f[j][0] = uma_sig_fixdiv_##S(f[j][0], 4);                                                                    \
        f[j][1] = uma_sig_fixdiv_##S(f[j][1], 4);                                                                    \
      }                                                                                                              \
      uma_sig_mul_##S(s0, f[1][0], f[1][1], tw[2 * u * fstride], tw[2 * u * fstride + 1]);                           \
      uma_sig_mul_##S(s1, f[2][0], f[2][1], tw[4 * u * fstride], tw[4 * u * fstride + 1]);                           \
      uma_sig_mul_##S(s2, f[3][0], f[3][1], tw[6 * u * fstride], tw[6 * u * fstride + 1]);                           \
      s5[0] = uma_sig_sub_##S(f[0][0], s1[0]);                                                                       \
      s5[1] = uma_sig_sub_##S(f[0][1], s1[1]);                                                                       \
      f[0][0] = uma_sig_add_##S(f[0][0], s1[0]);                                                                     \
      f[0][1] = uma_sig_add_##S(f[0][1], s1[1]);                                                                     \
      s3[0] = uma_sig_add_##S(s0[0], s2[0]);                                                                         \
      s3[1] = uma_sig_add_##S(s0[1], s2[1]);                                                                         \
      s4[0] = uma_sig_sub_##S(s0[0], s2[0]);                                                                         \
      s4[1] = uma_sig_sub_##S(s0[1], s2[1]);                                                                         \
      f[2][0] = uma_sig_sub_##S(f[0][0], s3[0]);                                                                     \
      f[2][1] = uma_sig_sub_##S(f[0][1], s3[1]);                                                                     \
      f[0][0] = uma_sig_add_##S(f[0][0], s3[0]);                                                                     \
      f[0][1] = uma_sig_add_##S(f[0][1], s3[1]);                                                                     \
      if (inverse) {                                                                                                 \
        f[1][0] = uma_sig_sub_##S(s5[0], s4[1]);                                                                     \
        f[1][1] = uma_sig_add_##S(s5[1], s4[0]);                                                                     \
        f[3][0] = uma_sig_add_##S(s5[0], s4[1]);                                                                     \
        f[3][1] = uma_sig_sub_##S(s5[1], s4[0]);                                                                     \
      } else {                                                                                                       \
        f[1][0] = uma_sig_add_##S(s5[0], s4[1]);                                                                     \
        f[1][1] = uma_sig_sub_##S(s5[1], s4[0]);                                                                     \
        f[3][0] = uma_sig_sub_##S(s5[0], s4[1]);                                                                     \
        f[3][1] = uma_sig_add_##S(s5[1], s4[0]);                                                                     \
      }                                                                                                              \
    }                                                                                                                \
  }                                                                                                                  \
  static void uma_sig_kf_work_##S(T* out, const T* in, int32_t fstride, const int32_t* factors, const T* tw,         \
                                  int32_t inverse) {                                                                 \
    int32_t p = factors[0];                                                                                          \
    int32_t m = factors[1];                                                                                          \
    for (int32_t q = 0; q < p; q++) {                                                                                \
      if (m == 1) {                                                                                                  \
        out[2 * q] = in[2 * q * fstride];                                                                            \
        out[2 * q + 1] = in[2 * q * fstride + 1];                                                                    \
      } else {                                                                                                       \
        uma_sig_kf_work_##S(out + 2 * q * m, in + 2 * q * fstride, fstride * p, factors + 2, tw, inverse);           \
      }                                                                                                              \
    }                                                                                                                \
    if (p == 4) {                                                                                                    \
      uma_sig_bfly4_##S(out, fstride, tw, m, inverse);                                                               \
    } else {                                                                                                         \
      uma_sig_bfly2_##S(out, fstride, tw, m);                                                                        \
    }                                                                                                                \
  }                                                                                                                  \
  int32_t uma_ref_signal_rfft_##S(const T* input, T* output, T* scratch, const T* twiddles, const int32_t* factors,  \
                                  int32_t rows, int32_t input_length, int32_t fft_length) {                          \
    int32_t ncfft = fft_length / 2;                                                                                  \
    T* work = scratch;                                                                                               \
    T* tmp = scratch + fft_length;                                                                                   \
    const T* sup = twiddles + 2 * ncfft;                                                                             \
    for (int32_t r = 0; r < rows; r++) {                                                                             \
      T* freq = output + r * (fft_length + 2);                                                                       \
      for (int32_t i = 0; i < fft_length; i++) work[i] = i < input_length ? input[r * input_length + i] : (T)0;      \
      uma_sig_kf_work_##S(tmp, work, 1, factors, twiddles, 0);                                                       \
      T tdcr = uma_sig_fixdiv_##S(tmp[0], 2);                                                                        \
      T tdci = uma_sig_fixdiv_##S(tmp[1], 2);                                                                        \
      freq[0] = uma_sig_add_##S(tdcr, tdci);                                                                         \
      freq[2 * ncfft] = uma_sig_sub_##S(tdcr, tdci);                                                                 \
      freq[1] = (T)0;                                                                                                \
      freq[2 * ncfft + 1] = (T)0;                                                                                    \
      for (int32_t k = 1; k <= ncfft / 2; k++) {                                                                     \
        T fpkr = uma_sig_fixdiv_##S(tmp[2 * k], 2);                                                                  \
        T fpki = uma_sig_fixdiv_##S(tmp[2 * k + 1], 2);                                                              \
        T fpnkr = uma_sig_fixdiv_##S(tmp[2 * (ncfft - k)], 2);                                                       \
        T fpnki = uma_sig_fixdiv_##S(uma_sig_neg_##S(tmp[2 * (ncfft - k) + 1]), 2);                                  \
        T f1r = uma_sig_add_##S(fpkr, fpnkr);                                                                        \
        T f1i = uma_sig_add_##S(fpki, fpnki);                                                                        \
        T tw[2];                                                                                                     \
        uma_sig_mul_##S(tw, uma_sig_sub_##S(fpkr, fpnkr), uma_sig_sub_##S(fpki, fpnki), sup[2 * (k - 1)],            \
                        sup[2 * (k - 1) + 1]);                                                                       \
        freq[2 * k] = uma_sig_half_##S(uma_sig_add_##S(f1r, tw[0]));                                                 \
        freq[2 * k + 1] = uma_sig_half_##S(uma_sig_add_##S(f1i, tw[1]));                                             \
        freq[2 * (ncfft - k)] = uma_sig_half_##S(uma_sig_sub_##S(f1r, tw[0]));                                       \
        freq[2 * (ncfft - k) + 1] = uma_sig_half_##S(uma_sig_sub_##S(tw[1], f1i));                                   \
      }                                                                                                              \
    }                                                                                                                \
    return 0;                                                                                                        \
  }                                                                                                                  \
  int32_t uma_ref_signal_irfft_##S(const T* input, T* output, T* scratch, const T* twiddles, const int32_t* factors, \
                                   int32_t rows, int32_t fft_length) {                                               \
    int32_t ncfft = fft_length / 2;                                                                                  \
    T* tmp = scratch;                                                                                                \
    const T* sup = twiddles + 2 * ncfft;                                                                             \
    for (int32_t r = 0; r < rows; r++) {                                                                             \
      const T* x = input + r * (fft_length + 2);                                                                     \
      T* y = output + r * fft_length;                                                                                \
      tmp[0] = uma_sig_fixdiv_##S(uma_sig_add_##S(x[0], x[2 * ncfft]), 2);                                           \
      tmp[1] = uma_sig_fixdiv_##S(uma_sig_sub_##S(x[0], x[2 * ncfft]), 2);                                           \
      for (int32_t k = 1; k <= ncfft / 2; k++) {                                                                     \
        T fkr = uma_sig_fixdiv_##S(x[2 * k], 2);                                                                     \
        T fki = uma_sig_fixdiv_##S(x[2 * k + 1], 2);                                                                 \
        T fnkcr = uma_sig_fixdiv_##S(x[2 * (ncfft - k)], 2);                                                         \
        T fnkci = uma_sig_fixdiv_##S(uma_sig_neg_##S(x[2 * (ncfft - k) + 1]), 2);                                    \
        T fekr = uma_sig_add_##S(fkr, fnkcr);                                                                        \
        T feki = uma_sig_add_##S(fki, fnkci);                                                                        \
        T fok[2];                                                                                                    \
        uma_sig_mul_##S(fok, uma_sig_sub_##S(fkr, fnkcr), uma_sig_sub_##S(fki, fnkci), sup[2 * (k - 1)],             \
                        sup[2 * (k - 1) + 1]);                                                                       \
        tmp[2 * k] = uma_sig_add_##S(fekr, fok[0]);                                                                  \
        tmp[2 * k + 1] = uma_sig_add_##S(feki, fok[1]);                                                              \
        tmp[2 * (ncfft - k)] = uma_sig_sub_##S(fekr, fok[0]);                                                        \
        tmp[2 * (ncfft - k) + 1] = uma_sig_neg_##S(uma_sig_sub_##S(feki, fok[1]));                                   \
      }                                                                                                              \
      uma_sig_kf_work_##S(y, tmp, 1, factors, twiddles, 1);                                                          \
      for (int32_t i = 0; i < fft_length; i++) y[i] = uma_sig_unscale_##S(y[i], fft_length);                         \
    }                                                                                                                \
    return 0;                                                                                                        \
  }

UMA_SIG_WIDE_FFT(i32, int32_t)
UMA_SIG_WIDE_FFT(f32, float)

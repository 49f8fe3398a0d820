/* accel example backend: pool registry, pointer checks and kernels (see accel_runtime.h). */
#include "accel_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uma_runtime.h"

typedef struct {
  char name[32];
  uintptr_t base;
  size_t size;
  int access;
} accel_pool;

static accel_pool accel_pools[ACCEL_MAX_POOLS];
static int accel_pool_count = 0;

int accel_register_pool(const char* name, const void* base, size_t size, int accel_access) {
  int i;
  for (i = 0; i < accel_pool_count; ++i) {
    if (strncmp(accel_pools[i].name, name, sizeof(accel_pools[i].name) - 1) == 0) break;
  }
  if (i == accel_pool_count) {
    if (accel_pool_count == ACCEL_MAX_POOLS) return -1;
    ++accel_pool_count;
  }
  strncpy(accel_pools[i].name, name, sizeof(accel_pools[i].name) - 1);
  accel_pools[i].name[sizeof(accel_pools[i].name) - 1] = '\0';
  accel_pools[i].base = (uintptr_t)base;
  accel_pools[i].size = size;
  accel_pools[i].access = accel_access;
  return 0;
}

void accel_reset_pools(void) { accel_pool_count = 0; }

static void accel_trap(const char* kernel, const char* arg, const void* ptr, const char* problem) {
  fprintf(stderr, "accel trap: %s argument '%s' at %p %s\n", kernel, arg, ptr, problem);
  fflush(stderr);
  exit(ACCEL_TRAP_EXIT_CODE);
}

/*
 * `allowed` is a NULL-terminated list of pool names the operand constraint permits, or NULL
 * for any pool the accelerator can reach with `mode`.
 */
static void accel_check(const char* kernel, const char* arg, const void* ptr, size_t bytes, int mode,
                        const char* const* allowed) {
  char problem[160];
  uintptr_t p = (uintptr_t)ptr;
  const accel_pool* pool = NULL;
  int i;
  for (i = 0; i < accel_pool_count; ++i) {
    if (p >= accel_pools[i].base && p < accel_pools[i].base + accel_pools[i].size) {
      pool = &accel_pools[i];
      break;
    }
  }
  if (pool == NULL) accel_trap(kernel, arg, ptr, "lies outside every registered pool");
  if (pool->access < mode) {
    snprintf(problem, sizeof(problem), "lies in pool '%s' which accel cannot %s", pool->name,
             mode == ACCEL_ACCESS_RW ? "write" : "read");
    accel_trap(kernel, arg, ptr, problem);
  }
  if (bytes > pool->size - (size_t)(p - pool->base)) {
    snprintf(problem, sizeof(problem), "covers %lu bytes, past the end of pool '%s'", (unsigned long)bytes, pool->name);
    accel_trap(kernel, arg, ptr, problem);
  }
  if (allowed != NULL) {
    const char* const* a;
    size_t used = 0;
    for (a = allowed; *a != NULL; ++a) {
      if (strcmp(*a, pool->name) == 0) return;
    }
    used = (size_t)snprintf(problem, sizeof(problem), "lies in pool '%s', its operand constraint allows {", pool->name);
    for (a = allowed; *a != NULL && used < sizeof(problem); ++a) {
      used += (size_t)snprintf(problem + used, sizeof(problem) - used, "%s%s", a == allowed ? "" : ", ", *a);
    }
    if (used < sizeof(problem)) snprintf(problem + used, sizeof(problem) - used, "}");
    accel_trap(kernel, arg, ptr, problem);
  }
}

static const char* const accel_only_act[] = {"act_mem", NULL};
static const char* const accel_only_l2[] = {"l2_mem", NULL};
static const char* const accel_only_wei[] = {"wei_mem", NULL};

int32_t accel_input_fetcher(const int8_t* input, int8_t* output, int8_t* line_buffer, int32_t size, int32_t line_size) {
  static const char kernel[] = "accel_input_fetcher";
  int32_t off;
  if (size < 0 || line_size <= 0) return -1;
  accel_check(kernel, "input", input, (size_t)size, ACCEL_ACCESS_RO, accel_only_l2);
  accel_check(kernel, "output", output, (size_t)size, ACCEL_ACCESS_RW, accel_only_act);
  accel_check(kernel, "line_buffer", line_buffer, (size_t)line_size, ACCEL_ACCESS_RW, accel_only_act);
  for (off = 0; off < size; off += line_size) {
    int32_t chunk = size - off < line_size ? size - off : line_size;
    memcpy(line_buffer, input + off, (size_t)chunk);
    memcpy(output + off, line_buffer, (size_t)chunk);
  }
  return 0;
}

int32_t accel_conv2d(const int8_t* input, const int8_t* weights, const int32_t* bias, int8_t* output,
                     const int32_t* multipliers, const int32_t* shifts, int32_t batches, int32_t in_h,
                     int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c, int32_t k_h,
                     int32_t k_w, int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                     int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                     int32_t act_min, int32_t act_max) {
  static const char kernel[] = "accel_conv2d";
  int32_t n, oy, ox, oc, ky, kx, c;
  if (batches < 0 || in_h < 0 || in_w < 0 || in_c < 0 || out_h < 0 || out_w < 0 || out_c < 0 || k_h < 0 || k_w < 0) {
    return -1;
  }
  accel_check(kernel, "input", input, (size_t)batches * in_h * in_w * in_c, ACCEL_ACCESS_RO, accel_only_act);
  accel_check(kernel, "weights", weights, (size_t)out_c * k_h * k_w * in_c, ACCEL_ACCESS_RO, accel_only_wei);
  accel_check(kernel, "bias", bias, (size_t)out_c * sizeof(int32_t), ACCEL_ACCESS_RO, accel_only_wei);
  accel_check(kernel, "output", output, (size_t)batches * out_h * out_w * out_c, ACCEL_ACCESS_RW, accel_only_act);
  accel_check(kernel, "multipliers", multipliers, (size_t)out_c * sizeof(int32_t), ACCEL_ACCESS_RO, NULL);
  accel_check(kernel, "shifts", shifts, (size_t)out_c * sizeof(int32_t), ACCEL_ACCESS_RO, NULL);
  for (n = 0; n < batches; ++n) {
    for (oy = 0; oy < out_h; ++oy) {
      for (ox = 0; ox < out_w; ++ox) {
        for (oc = 0; oc < out_c; ++oc) {
          int32_t acc = 0;
          for (ky = 0; ky < k_h; ++ky) {
            const int32_t iy = oy * stride_h - pad_top + ky * dilation_h;
            if (iy < 0 || iy >= in_h) continue;
            for (kx = 0; kx < k_w; ++kx) {
              const int32_t ix = ox * stride_w - pad_left + kx * dilation_w;
              const int8_t* x;
              const int8_t* w;
              if (ix < 0 || ix >= in_w) continue;
              x = input + (((size_t)n * in_h + iy) * in_w + ix) * in_c;
              w = weights + (((size_t)oc * k_h + ky) * k_w + kx) * in_c;
              /* Wrapping int32 accumulation (as the TS simulation), without signed-overflow UB. */
              for (c = 0; c < in_c; ++c) {
                acc = (int32_t)((uint32_t)acc + (uint32_t)((int32_t)w[c] * ((int32_t)x[c] + input_offset)));
              }
            }
          }
          acc = (int32_t)((uint32_t)acc + (uint32_t)bias[oc]);
          acc = uma_q_multiply_shift(acc, multipliers[oc], shifts[oc]) + output_offset;
          acc = acc < act_min ? act_min : acc;
          acc = acc > act_max ? act_max : acc;
          output[(((size_t)n * out_h + oy) * out_w + ox) * out_c + oc] = (int8_t)acc;
        }
      }
    }
  }
  return 0;
}

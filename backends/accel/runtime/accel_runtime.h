/*
 * accel example backend: the accelerator's kernels and its memory-access discipline.
 *
 * The application registers every memory pool the generated code uses, saying how the
 * accelerator may access it. Each kernel checks, before touching memory, that every
 * pointer argument (with the bytes it covers) lies inside one registered pool that the
 * accelerator may access with the needed mode, and inside the pools the argument's operand
 * constraint allows. A violation prints "accel trap: ..." to stderr and exits with status 3,
 * as a real accelerator would raise a bus fault instead of reading the wrong memory.
 *
 * Kernels return 0 on success (the generated code treats non-zero as failure).
 */
#ifndef ACCEL_RUNTIME_H_
#define ACCEL_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACCEL_ACCESS_NONE 0
#define ACCEL_ACCESS_RO 1
#define ACCEL_ACCESS_RW 2
#define ACCEL_MAX_POOLS 16
#define ACCEL_TRAP_EXIT_CODE 3

/* Registers (or re-registers, by name) a pool; returns 0, or -1 when the table is full. */
int accel_register_pool(const char* name, const void* base, size_t size, int accel_access);

/* Forgets every registered pool. */
void accel_reset_pools(void);

/*
 * Streams `size` bytes from `input` (l2_mem) to `output` (act_mem) through the fetcher's
 * internal line buffer `line_buffer` (act_mem) of `line_size` bytes.
 */
int32_t accel_input_fetcher(const int8_t* input, int8_t* output, int8_t* line_buffer, int32_t size, int32_t line_size);

/*
 * int8 NHWC conv2d with OHWI weights, bit-exact with TFLite Micro's reference
 * ConvPerChannel: acc = sum w * (x + input_offset) over in-image taps, + bias,
 * MultiplyByQuantizedMultiplier(acc, multipliers[oc], shifts[oc]) + output_offset,
 * clamped to [act_min, act_max]. input/output in act_mem, weights/bias in wei_mem.
 */
int32_t accel_conv2d(const int8_t* input, const int8_t* weights, const int32_t* bias, int8_t* output,
                     const int32_t* multipliers, const int32_t* shifts, int32_t batches, int32_t in_h,
                     int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c, int32_t k_h,
                     int32_t k_w, int32_t stride_h, int32_t stride_w, int32_t dilation_h, int32_t dilation_w,
                     int32_t pad_top, int32_t pad_left, int32_t input_offset, int32_t output_offset,
                     int32_t act_min, int32_t act_max);

#ifdef __cplusplus
}
#endif

#endif /* ACCEL_RUNTIME_H_ */

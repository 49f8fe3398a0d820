/* Kernels of the tutorial accelerator ("tutorial" target). The generated code calls them
 * from the functions offloaded to the target; see docs/tutorial-first-backend.md. */
#ifndef TUTORIAL_KERNELS_H
#define TUTORIAL_KERNELS_H
#include <stdint.h>

/* Activation codes passed by the TIR pass (tutorialBackend.ts: ACTIVATION_CODES). */
#define TUTORIAL_ACT_NONE 0
#define TUTORIAL_ACT_RELU 1
#define TUTORIAL_ACT_RELU6 2

/* out[b][u] = act(sum_d data[b][d] * weight[u][d] + bias[u]); returns 0 on success. */
int32_t tutorial_dense_f32(const float* data, const float* weight, const float* bias, float* out,
                           int32_t batches, int32_t units, int32_t depth, int32_t activation);

#endif

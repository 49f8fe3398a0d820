/* The tutorial accelerator's dense kernel. It accumulates in float32 in the same order as
 * TFLite Micro's reference FullyConnected, so its output matches the interpreter bit for bit. */
#include <float.h>
#include "tutorial_kernels.h"

int32_t tutorial_dense_f32(const float* data, const float* weight, const float* bias, float* out,
                           int32_t batches, int32_t units, int32_t depth, int32_t activation) {
  float lo = -FLT_MAX;
  float hi = FLT_MAX;
  if (activation == TUTORIAL_ACT_RELU) {
    lo = 0.0f;
  } else if (activation == TUTORIAL_ACT_RELU6) {
    lo = 0.0f;
    hi = 6.0f;
  } else if (activation != TUTORIAL_ACT_NONE) {
    return -1;
  }
  for (int32_t b = 0; b < batches; b++) {
    for (int32_t u = 0; u < units; u++) {
      float acc = 0.0f;
      for (int32_t d = 0; d < depth; d++) acc += data[b * depth + d] * weight[u * depth + d];
      float v = acc + bias[u];
      /* "!(v > lo)" rather than "v < lo" turns -0.0f into +0.0f, as max(-0, 0) does. */
      if (!(v > lo)) v = lo;
      if (v > hi) v = hi;
      out[b * units + u] = v;
    }
  }
  return 0;
}

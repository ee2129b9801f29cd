/* The masked prefix sum of the standard library on the host (stdlib/ops/masked_cumsum.kcontract):
 * the conforming reference kernel.
 *
 *   kc_masked_cumsum(x: T[R, H], mask: bool[R, H] -> y: T[R, H])   T in f32, bf16, f16
 *   y[r, h] = sum over k <= h of x[r, k] * mask[r, k]
 *
 * Each term is x * (mask ? 1 : 0) in f32, as torch's x * mask (a NaN under a false mask
 * stays NaN), then the rows are scanned as cumsum.c scans them: blocks of 64 in f32, the
 * block totals, each block's offset added; one rounding to T per cell. */
#include <stdlib.h>

#include "kc_host.h"

#define BLOCK 64

static int mask_ok(const kc_tensor* m, const kc_tensor* x) {
  if (m->dtype != KC_BOOL || m->rank != 2 || m->shape == NULL || m->strides == NULL) return 0;
  if (m->shape[0] != x->shape[0] || m->shape[1] != x->shape[1]) return 0;
  for (int d = 0; d < 2; ++d)
    if (m->shape[d] > 1 && m->strides[d] < 1) return 0;
  return m->data != NULL || m->shape[0] * m->shape[1] == 0;
}

int kc_masked_cumsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *m = &args[1], *y = &args[2];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!mask_ok(m, x)) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1], nb = (H + BLOCK - 1) / BLOCK;
  if (R == 0 || H == 0) return KC_OK;
  float* local = (float*)malloc(sizeof(float) * (size_t)H);
  float* offset = (float*)malloc(sizeof(float) * (size_t)nb);
  if (local == NULL || offset == NULL) {
    free(local);
    free(offset);
    return KC_E_SHAPE;
  }
  const uint8_t* mask = (const uint8_t*)m->data;
  for (int64_t r = 0; r < R; ++r) {
    for (int64_t b = 0; b < nb; ++b) { /* scan inside each block */
      float run = 0.0f;
      const int64_t end = (b + 1) * BLOCK < H ? (b + 1) * BLOCK : H;
      for (int64_t h = b * BLOCK; h < end; ++h) {
        const float keep = mask[r * m->strides[0] + h * m->strides[1]] ? 1.0f : 0.0f;
        local[h] = run += kc_ld(x, r * x->strides[0] + h * x->strides[1]) * keep;
      }
    }
    float total = 0.0f; /* exclusive scan of the block totals */
    for (int64_t b = 0; b < nb; ++b) {
      offset[b] = total;
      total += local[(b + 1) * BLOCK < H ? (b + 1) * BLOCK - 1 : H - 1];
    }
    for (int64_t h = 0; h < H; ++h) kc_st(y, r * y->strides[0] + h * y->strides[1], local[h] + offset[h / BLOCK]);
  }
  free(local);
  free(offset);
  return KC_OK;
}

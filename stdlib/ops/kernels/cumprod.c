/* Inclusive prefix product of the standard library on the host (stdlib/ops/cumprod.kcontract):
 * the conforming reference kernel.
 *
 *   kc_cumprod(x: T[R, H] -> y: T[R, H])      T in f32, bf16, f16
 *
 * A blocked scan, as a GPU kernel does it (and as kc_cumsum in cumsum.c): each block of 64
 * elements is scanned on its own in f32, the block products are scanned, and each block's
 * cells are multiplied by the preceding blocks' product. One rounding to T per cell. */
#include <stdlib.h>

#include "kc_host.h"

#define BLOCK 64

int kc_cumprod(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return KC_OK;
  const int64_t nb = (H + BLOCK - 1) / BLOCK;
  float* local = (float*)malloc(sizeof(float) * (size_t)H);
  float* offset = (float*)malloc(sizeof(float) * (size_t)nb);
  if (local == NULL || offset == NULL) {
    free(local);
    free(offset);
    return KC_E_SHAPE;
  }
  for (int64_t r = 0; r < R; ++r) {
    const int64_t xb = r * x->strides[0], yb = r * y->strides[0];
    for (int64_t b = 0; b < nb; ++b) { /* scan inside each block */
      float run = 1.0f;
      const int64_t end = (b + 1) * BLOCK < H ? (b + 1) * BLOCK : H;
      for (int64_t h = b * BLOCK; h < end; ++h) local[h] = run *= kc_ld(x, xb + h * x->strides[1]);
    }
    float total = 1.0f; /* exclusive scan of the block products */
    for (int64_t b = 0; b < nb; ++b) {
      offset[b] = total;
      const int64_t last = (b + 1) * BLOCK < H ? (b + 1) * BLOCK - 1 : H - 1;
      total *= local[last];
    }
    for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], local[h] * offset[h / BLOCK]);
  }
  free(local);
  free(offset);
  return KC_OK;
}

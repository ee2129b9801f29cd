/* Transpose of the standard library on the host (stdlib/ops/transpose.kcontract): the
 * conforming reference kernel.
 *
 *   kc_transpose(x: T[R, C] -> y: T[C, R])      T in f32, bf16, f16
 *
 * A tiled copy (32 x 32 tiles, so that both the reads and the writes stay within a few
 * cache lines), tails masked, the bits moved unchanged (no conversion through float, so
 * every NaN payload survives). */
#include "kc_host.h"

#define TILE 32

int kc_transpose(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (y->shape[0] != C || y->shape[1] != R) return KC_E_SHAPE;
  const size_t eb = x->dtype == KC_F32 ? 4 : 2;
  const char* xp = (const char*)x->data;
  char* yp = (char*)y->data;
  for (int64_t i0 = 0; i0 < R; i0 += TILE)
    for (int64_t j0 = 0; j0 < C; j0 += TILE) {
      const int64_t ie = i0 + TILE < R ? i0 + TILE : R, je = j0 + TILE < C ? j0 + TILE : C;
      for (int64_t i = i0; i < ie; ++i)
        for (int64_t j = j0; j < je; ++j)
          memcpy(yp + (size_t)(j * y->strides[0] + i * y->strides[1]) * eb,
                 xp + (size_t)(i * x->strides[0] + j * x->strides[1]) * eb, eb);
    }
  return KC_OK;
}

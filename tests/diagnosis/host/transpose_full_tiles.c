/* Diagnosis corpus, BUGGY (tail-unwritten): the tiled transpose that loops over whole 8 x 8
 * tiles only (the CUDA habit of a grid of R / 8 by C / 8 blocks, rounded down): when R or C
 * is not a multiple of 8, the cells of the partial edge tiles are never written.
 * Twin: transpose_tiled.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define T 8

int kc_transpose(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (y->shape[0] != C || y->shape[1] != R) return KC_E_SHAPE;
  const size_t eb = x->dtype == KC_F32 ? 4 : 2;
  for (int64_t i0 = 0; i0 + T <= R; i0 += T) { /* BUG: whole tiles only */
    const int64_t ni = T;
    for (int64_t j0 = 0; j0 + T <= C; j0 += T) {
      const int64_t nj = T;
      char tile[T][T][4];
      for (int64_t i = 0; i < ni; ++i)
        for (int64_t j = 0; j < nj; ++j)
          memcpy(tile[j][i], (const char*)x->data + (size_t)((i0 + i) * x->strides[0] + (j0 + j) * x->strides[1]) * eb, eb);
      for (int64_t j = 0; j < nj; ++j)
        for (int64_t i = 0; i < ni; ++i)
          memcpy((char*)y->data + (size_t)((j0 + j) * y->strides[0] + (i0 + i) * y->strides[1]) * eb, tile[j][i], eb);
    }
  }
  return KC_OK;
}

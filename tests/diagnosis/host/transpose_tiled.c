/* Diagnosis corpus, CONFORMING twin of transpose_full_tiles.c: a tiled transpose, 8 x 8
 * tiles staged through a local buffer, edge tiles masked in both dimensions. */
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
  for (int64_t i0 = 0; i0 < R; i0 += T) {
    const int64_t ni = R - i0 < T ? R - i0 : T;
    for (int64_t j0 = 0; j0 < C; j0 += T) {
      const int64_t nj = C - j0 < T ? C - j0 : T;
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

/* Diagnosis corpus, CONFORMING twin of add_sse_aligned.c: c = a + b with SSE on rows whose
 * elements are contiguous (unaligned loads and stores, _mm_loadu_ps / _mm_storeu_ps), a
 * scalar loop for the tail and for strided rows. f32 only. */
#include <immintrin.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != KC_F32 || b->dtype != KC_F32 || c->dtype != KC_F32) return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  const int64_t as = a->strides[1], bs = b->strides[1], cs = c->strides[1];
  const float *ap = (const float*)a->data, *bp = (const float*)b->data;
  float* cp = (float*)c->data;
  const int vec = (as == 1 && bs == 1 && cs == 1) || C == 1;
  for (int64_t r = 0; r < R; ++r) {
    const float *ar = ap + r * a->strides[0], *br = bp + r * b->strides[0];
    float* cr = cp + r * c->strides[0];
    int64_t j = 0;
    if (vec)
      for (; j + 4 <= C; j += 4) _mm_storeu_ps(cr + j, _mm_add_ps(_mm_loadu_ps(ar + j), _mm_loadu_ps(br + j)));
    for (; j < C; ++j) cr[j * cs] = ar[j * as] + br[j * bs];
  }
  return KC_OK;
}

/* Violating kc_softsign (std.op.softsign@1): each row in vectors of 8 with no scalar loop for
 * the last C % 8 elements, the tail a vectorised kernel forgets. Right when C is a multiple
 * of 8 (the allclose case); otherwise the last cells of each row are never written:
 * std.mem.tail-mask@1, signature tail-unwritten. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define W 8

int kc_softsign(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t body = x->shape[1] - x->shape[1] % W;
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t c = 0; c < body; c += W)
      for (int k = 0; k < W; ++k) {
        const float v = kc_ld(x, r * x->strides[0] + (c + k) * x->strides[1]);
        kc_st(y, r * y->strides[0] + (c + k) * y->strides[1], v / (1.0f + fabsf(v)));
      }
  return KC_OK;
}

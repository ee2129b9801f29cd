/* Violating kc_mul (std.op.mul@1): honours the strides of a and c but reads b with a's
 * strides, as a kernel written for two tensors of one layout does. Exact when a and b are
 * both contiguous (allclose passes); when b is transposed, padded or offset and a is not,
 * it reads the wrong elements of b: std.mem.strides@1, signature ignores-strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_mul(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  /* The wrong offsets of b are kept inside b's storage (wrapped at its span): a read past its
   * buffer would be undefined, its value free to change between launches, and the pair's
   * names with it; wrapped, the wrong answer is a function of the inputs alone. */
  const int64_t b_span = 1 + (b->shape[0] - 1) * b->strides[0] + (b->shape[1] - 1) * b->strides[1];
  for (int64_t r = 0; r < c->shape[0]; ++r)
    for (int64_t j = 0; j < c->shape[1]; ++j) {
      const int64_t at = r * a->strides[0] + j * a->strides[1];
      kc_st(c, r * c->strides[0] + j * c->strides[1], kc_ld(a, at) * kc_ld(b, at % b_span));
    }
  return KC_OK;
}

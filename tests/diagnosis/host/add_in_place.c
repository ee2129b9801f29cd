/* Diagnosis corpus, BUGGY (input-modified): the 4-wide add done "in place" on a (a += b,
 * the residual-add habit) and then copied to c: c is right, but the caller's a now holds
 * a + b. Twin: add_vec.c. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define OP(x, y) ((x) + (y))

#define W 4

int kc_add(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(c, 2)) return KC_E_TENSOR;
  if (a->dtype != c->dtype || b->dtype != c->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, c) || !kc_same_shape(b, c)) return KC_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  const int64_t as = a->strides[1], bs = b->strides[1], cs = c->strides[1];
  const int64_t body = C - C % W;
  for (int64_t r = 0; r < R; ++r) {
    const int64_t ab = r * a->strides[0], bb = r * b->strides[0], cb = r * c->strides[0];
    for (int64_t j = 0; j < body; j += W) { /* one "float4" per step */
      float va[W], vb[W];
      for (int k = 0; k < W; ++k) va[k] = kc_ld(a, ab + (j + k) * as), vb[k] = kc_ld(b, bb + (j + k) * bs);
      for (int k = 0; k < W; ++k) kc_st(a, ab + (j + k) * as, OP(va[k], vb[k])); /* BUG: a += b */
      for (int k = 0; k < W; ++k) kc_st(c, cb + (j + k) * cs, kc_ld(a, ab + (j + k) * as));
    }
    for (int64_t j = body; j < C; ++j) {
      kc_st(a, ab + j * as, OP(kc_ld(a, ab + j * as), kc_ld(b, bb + j * bs))); /* BUG: a += b */
      kc_st(c, cb + j * cs, kc_ld(a, ab + j * as));
    }
  }
  return KC_OK;
}

/* Violating kc_rotary (std.op.rotary@1): reads x and the cos/sin tables as dense row-major
 * arrays — x[s, h, i] at (s NH + h) D + i, cos[s, p] at s P + p — ignoring their strides,
 * as a kernel written against q.contiguous() does. Right on contiguous tensors (allclose
 * passes); wrong on the views a model hands it: q and k as slices of a fused QKV projection,
 * whose sequence stride is (NH + 2 NKV) D, or a cos/sin cache sliced from a longer one
 * (std.mem.strides@1: ignores-strides). It writes y through y's strides. */
#include "../../../stdlib/ops/kernels/kc_host.h"

int kc_rotary(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *cs = &args[1], *sn = &args[2], *y = &args[3];
  if (!kc_view_ok(x, 3) || !kc_view_ok(cs, 2) || !kc_view_ok(sn, 2) || !kc_view_ok(y, 3)) return KC_E_TENSOR;
  if (x->dtype != y->dtype || cs->dtype != y->dtype || sn->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t S = x->shape[0], NH = x->shape[1], D = x->shape[2], P = D / 2;
  if (D % 2 != 0 || cs->shape[0] != S || cs->shape[1] != P || !kc_same_shape(cs, sn)) return KC_E_SHAPE;
  for (int64_t s = 0; s < S; ++s)
    for (int64_t h = 0; h < NH; ++h) {
      const int64_t xo = (s * NH + h) * D, yo = s * y->strides[0] + h * y->strides[1];
      for (int64_t p = 0; p < P; ++p) {
        const float a = kc_ld(x, xo + p), b = kc_ld(x, xo + p + P);
        const float c = kc_ld(cs, s * P + p), sv = kc_ld(sn, s * P + p);
        kc_st(y, yo + p * y->strides[2], a * c - b * sv);
        kc_st(y, yo + (p + P) * y->strides[2], b * c + a * sv);
      }
    }
  return KC_OK;
}

/* Rotary position embedding of the standard library on the host (stdlib/ops/rotary.kcontract):
 * a conforming reference kernel.
 *
 *   kc_rotary(x: T[S, NH, 2P], cos: T[S, P], sin: T[S, P] -> y: T[S, NH, 2P])   T in f32, bf16, f16
 *
 * The rotate_half pairing (GPT-NeoX, HF LLaMA): pair (x[i], x[i + P]) rotated by the table's
 * angle at (s, i), i < P. Written the way a CPU kernel is: a loop over the (s, h) rows, and in
 * each row one loop over the P pairs that loads both halves, the position's cos and sin, and
 * stores both outputs. When every view is dense f32 along its last dimension the inner loop
 * runs on plain pointers (the compiler vectorises it); otherwise it goes through the strides.
 * Computed in f32 and rounded once to the output dtype. */
#include "kc_host.h"

static int unit_last(const kc_tensor* t) { return t->shape[t->rank - 1] <= 1 || t->strides[t->rank - 1] == 1; }

int kc_rotary(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 4) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *cs = &args[1], *sn = &args[2], *y = &args[3];
  if (!kc_view_ok(x, 3) || !kc_view_ok(cs, 2) || !kc_view_ok(sn, 2) || !kc_view_ok(y, 3)) return KC_E_TENSOR;
  if (x->dtype != y->dtype || cs->dtype != y->dtype || sn->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t S = x->shape[0], NH = x->shape[1], D = x->shape[2], P = D / 2;
  if (D % 2 != 0 || cs->shape[0] != S || cs->shape[1] != P || !kc_same_shape(cs, sn)) return KC_E_SHAPE;
  const int fast = y->dtype == KC_F32 && unit_last(x) && unit_last(cs) && unit_last(sn) && unit_last(y);
  for (int64_t s = 0; s < S; ++s)
    for (int64_t h = 0; h < NH; ++h) {
      const int64_t xo = s * x->strides[0] + h * x->strides[1], yo = s * y->strides[0] + h * y->strides[1];
      const int64_t co = s * cs->strides[0], so = s * sn->strides[0];
      if (fast) {
        const float *x1 = (const float*)x->data + xo, *x2 = x1 + P;
        const float *c = (const float*)cs->data + co, *sv = (const float*)sn->data + so;
        float *y1 = (float*)y->data + yo, *y2 = y1 + P;
        for (int64_t p = 0; p < P; ++p) {
          const float a = x1[p], b = x2[p];
          y1[p] = a * c[p] - b * sv[p];
          y2[p] = b * c[p] + a * sv[p];
        }
        continue;
      }
      for (int64_t p = 0; p < P; ++p) {
        const float a = kc_ld(x, xo + p * x->strides[2]), b = kc_ld(x, xo + (p + P) * x->strides[2]);
        const float c = kc_ld(cs, co + p * cs->strides[1]), sv = kc_ld(sn, so + p * sn->strides[1]);
        kc_st(y, yo + p * y->strides[2], a * c - b * sv);
        kc_st(y, yo + (p + P) * y->strides[2], b * c + a * sv);
      }
    }
  return KC_OK;
}

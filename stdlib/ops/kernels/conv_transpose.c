/* Transposed convolutions of the standard library on the host
 * (stdlib/ops/conv_transpose{1,2,3}d.kcontract): conforming reference kernels, as
 * torch.nn.functional.conv_transpose{1,2,3}d with no bias.
 *
 *   kc_conv_transpose1d(x: T[N, G*CG, L], w: T[G*CG, OG, K], stride, padding, output_padding,
 *                       dilation -> y: T[N, G*OG, (L - 1) S - 2 P + D (K - 1) + Q + 1])
 *   kc_conv_transpose2d, kc_conv_transpose3d: a stride, padding, output padding and dilation
 *                       per axis (stride_h, stride_w, padding_h, ...), in that order.
 *   T in f32, bf16, f16; the hyperparameters are i64 scalars.
 *
 * One generic kernel over R = 1..3 spatial axes, in gather form: each output cell y[n, o, t...]
 * sums, over the CG input channels of its group (o / OG) and the taps k whose input position
 * (t + P - k D) / S is whole and inside the input, x times w[g CG + c, o % OG, k]. Channels
 * outer, taps inner, in an f32 accumulator, then one rounding to T. Every tensor is read and
 * written through its strides.
 *
 * The calibration kernels (contracts/calibration/ops/conv_transpose*.c) define one of the seams
 * below and include this file, so that each differs from the reference in one place only. */
#include "kc_host.h"

/* Whether a tap at offset `num` = t + P - k D lands on an input element: S divides it. */
#ifndef KC_CT_LANDS
#define KC_CT_LANDS(num, s) ((num) % (s) == 0)
#endif

/* The first input channel of output channel o's group. */
#ifndef KC_CT_GROUP_BASE
#define KC_CT_GROUP_BASE(o, OG, CG) (((o) / (OG)) * (CG))
#endif

/* Whether output position t of an axis with extent len and output padding q is computed:
 * every one here. */
#ifndef KC_CT_COMPUTED
#define KC_CT_COMPUTED(t, len, q) 1
#endif

/* The type of the running sum of one output cell. */
#ifndef KC_CT_ACC
#define KC_CT_ACC float
#endif

#define KC_CT_MAX_R 3

typedef struct {
  int r;
  int64_t stride[KC_CT_MAX_R], pad[KC_CT_MAX_R], outpad[KC_CT_MAX_R], dil[KC_CT_MAX_R];
} ct_params;

/* args: x, w, r strides, r paddings, r output paddings, r dilations, y. */
static int ct_check(kc_tensor* args, int32_t nargs, int r, ct_params* p) {
  if (args == NULL || nargs != 3 + 4 * r) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *y = &args[nargs - 1];
  if (!kc_view_ok(x, 2 + r) || !kc_view_ok(w, 2 + r) || !kc_view_ok(y, 2 + r)) return KC_E_TENSOR;
  if (x->dtype != w->dtype || x->dtype != y->dtype) return KC_E_TENSOR;
  p->r = r;
  for (int a = 0; a < r; ++a)
    if (!kc_i64_scalar(&args[2 + a], &p->stride[a]) || !kc_i64_scalar(&args[2 + r + a], &p->pad[a]) ||
        !kc_i64_scalar(&args[2 + 2 * r + a], &p->outpad[a]) || !kc_i64_scalar(&args[2 + 3 * r + a], &p->dil[a]))
      return KC_E_TENSOR;
  const int64_t C = x->shape[1], OG = w->shape[1];
  if (w->shape[0] != C || y->shape[0] != x->shape[0] || OG < 1) return KC_E_SHAPE;
  if (y->shape[1] % OG != 0 || C % (y->shape[1] / OG) != 0) return KC_E_SHAPE;
  for (int a = 0; a < r; ++a) {
    const int64_t s = p->stride[a], d = p->dil[a], q = p->outpad[a];
    if (s < 1 || d < 1 || p->pad[a] < 0 || q < 0 || (q >= s && q >= d)) return KC_E_SHAPE;
    const int64_t len = (x->shape[2 + a] - 1) * s - 2 * p->pad[a] + d * (w->shape[2 + a] - 1) + q + 1;
    if (len < 1 || y->shape[2 + a] != len) return KC_E_SHAPE;
  }
  return KC_OK;
}

/* One output cell y[n, o, t]. */
static float ct_cell(const kc_tensor* x, const kc_tensor* w, const ct_params* p, int64_t n, int64_t o,
                     const int64_t* t, int64_t CG, int64_t OG) {
  const int r = p->r;
  const int64_t base = KC_CT_GROUP_BASE(o, OG, CG);
  int64_t taps = 1;
  for (int a = 0; a < r; ++a) taps *= w->shape[2 + a];
  KC_CT_ACC acc = 0;
  for (int64_t c = 0; c < CG; ++c)
    for (int64_t q = 0; q < taps; ++q) {
      int64_t k[KC_CT_MAX_R], rest = q;
      for (int a = r - 1; a >= 0; --a) {
        k[a] = rest % w->shape[2 + a];
        rest /= w->shape[2 + a];
      }
      int64_t xoff = n * x->strides[0] + (base + c) * x->strides[1];
      int64_t woff = (base + c) * w->strides[0] + (o % OG) * w->strides[1];
      int lands = 1;
      for (int a = 0; a < r && lands; ++a) {
        const int64_t num = t[a] + p->pad[a] - k[a] * p->dil[a];
        if (num < 0 || !KC_CT_LANDS(num, p->stride[a])) lands = 0;
        const int64_t l = num / p->stride[a];
        if (l >= x->shape[2 + a]) lands = 0;
        xoff += l * x->strides[2 + a];
        woff += k[a] * w->strides[2 + a];
      }
      if (lands) acc += (KC_CT_ACC)(kc_ld(x, xoff) * kc_ld(w, woff));
    }
  return (float)acc;
}

static int conv_transpose(kc_tensor* args, int32_t nargs, int r) {
  ct_params p;
  int rc = ct_check(args, nargs, r, &p);
  if (rc) return rc;
  const kc_tensor *x = &args[0], *w = &args[1], *y = &args[nargs - 1];
  const int64_t OG = w->shape[1], G = y->shape[1] / OG, CG = x->shape[1] / G;
  int64_t cells = 1;
  for (int a = 0; a < r; ++a) cells *= y->shape[2 + a];
  for (int64_t n = 0; n < y->shape[0]; ++n)
    for (int64_t o = 0; o < y->shape[1]; ++o)
      for (int64_t i = 0; i < cells; ++i) {
        int64_t t[KC_CT_MAX_R];
        const int64_t yoff = n * y->strides[0] + o * y->strides[1] + kc_spatial_cell(y, r, i, t);
        int computed = 1;
        for (int a = 0; a < r; ++a)
          if (!KC_CT_COMPUTED(t[a], y->shape[2 + a], p.outpad[a])) computed = 0;
        if (computed) kc_st(y, yoff, ct_cell(x, w, &p, n, o, t, CG, OG));
      }
  return KC_OK;
}

int kc_conv_transpose1d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv_transpose(args, nargs, 1);
}

int kc_conv_transpose2d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv_transpose(args, nargs, 2);
}

int kc_conv_transpose3d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv_transpose(args, nargs, 3);
}

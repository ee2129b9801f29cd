/* Convolutions of the standard library on the host (stdlib/ops/conv{1,2,3}d.kcontract):
 * conforming reference kernels, as torch.nn.functional.conv{1,2,3}d with no bias.
 *
 *   kc_conv1d(x: T[N, G*CG, L], w: T[G*OG, CG, K], stride, padding, dilation -> y)
 *   kc_conv2d(x: T[N, G*CG, H, W], w: T[G*OG, CG, KH, KW], stride_h, stride_w, padding_h,
 *             padding_w, dilation_h, dilation_w -> y)
 *   kc_conv3d(x: T[N, G*CG, Z, H, W], w: T[G*OG, CG, KD, KH, KW], stride_d, stride_h,
 *             stride_w, padding_d, padding_h, padding_w, dilation_d, ... -> y)
 *   kc_conv2d_bias(x, w, bias: T[G*OG], stride_h, ..., dilation_w -> y)   conv2d plus bias[o]
 *   kc_conv2d_depthwise_separable(x: T[N, C, H, W], wd: T[C, 1, KH, KW], wp: T[O, C, 1, 1],
 *             stride_h, ..., dilation_w -> y: T[N, O, ...])   a depthwise conv2d, then a 1x1
 *   T in f32, bf16, f16; the hyperparameters are i64 scalars.
 *
 * One generic kernel over R = 1..3 spatial axes: each output cell y[n, o, t...] is the sum over
 * the CG input channels of its group (o / OG) and over the taps whose position
 * t * stride + k * dilation - padding lies inside the input; a tap in the zero padding adds
 * nothing (it is skipped, never read). Channels outer, taps inner, in an f32 accumulator, then
 * one rounding to T. Every tensor is read and written through its strides. With a bias, the
 * sum starts at bias[o]. The depthwise-separable kernel keeps each depthwise cell in f32 (a
 * fused kernel's register, never rounded to T) and sums the pointwise products over the C
 * channels in f32.
 *
 * The calibration kernels (contracts/calibration/ops/conv*.c) define one of the seams below
 * and include this file, so that each differs from the reference in one place only. */
#include <stdlib.h>

#include "kc_host.h"

/* A tap at position `at` outside 0..len-1 (the zero padding): skipped here (return 0). A seam
 * may return 1 and move `at` inside to read a real element instead. */
#ifndef KC_CONV_OUTSIDE
#define KC_CONV_OUTSIDE(at, len) 0
#endif

/* The first input channel that output channel o reads: its group's. */
#ifndef KC_CONV_GROUP_BASE
#define KC_CONV_GROUP_BASE(o, OG, CG) (((o) / (OG)) * (CG))
#endif

/* The type of the running sum of one output cell. */
#ifndef KC_CONV_CHANNEL_ACC
#define KC_CONV_CHANNEL_ACC float
#endif

/* The type of the depthwise-separable kernel's pointwise running sum (over the C channels). */
#ifndef KC_CONV_POINTWISE_ACC
#define KC_CONV_POINTWISE_ACC float
#endif

#define KC_CONV_MAX_R 3

typedef struct {
  int r;                         /* spatial axes */
  int64_t stride[KC_CONV_MAX_R]; /* per axis */
  int64_t pad[KC_CONV_MAX_R];
  int64_t dil[KC_CONV_MAX_R];
} conv_params;

/* args: x, w, `extra` tensors (a bias; the pointwise weight), r strides, r paddings,
 * r dilations, y. The output's channels are the caller's to check. */
static int check_conv(kc_tensor* args, int32_t nargs, int r, int extra, conv_params* p) {
  if (args == NULL || nargs != 3 + extra + 3 * r) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *w = &args[1], *y = &args[nargs - 1];
  if (!kc_view_ok(x, 2 + r) || !kc_view_ok(w, 2 + r) || !kc_view_ok(y, 2 + r)) return KC_E_TENSOR;
  if (x->dtype != w->dtype || x->dtype != y->dtype) return KC_E_TENSOR;
  p->r = r;
  const kc_tensor* hp = &args[2 + extra];
  for (int a = 0; a < r; ++a)
    if (!kc_i64_scalar(&hp[a], &p->stride[a]) || !kc_i64_scalar(&hp[r + a], &p->pad[a]) ||
        !kc_i64_scalar(&hp[2 * r + a], &p->dil[a]))
      return KC_E_TENSOR;
  const int64_t N = x->shape[0], C = x->shape[1], O = w->shape[0], CG = w->shape[1];
  if (y->shape[0] != N || CG < 1 || C % CG != 0) return KC_E_SHAPE;
  const int64_t G = C / CG;
  if (O % G != 0) return KC_E_SHAPE;
  for (int a = 0; a < r; ++a) {
    const int64_t len = x->shape[2 + a], k = w->shape[2 + a];
    if (p->stride[a] < 1 || p->pad[a] < 0 || p->dil[a] < 1 || k < 1) return KC_E_SHAPE;
    const int64_t span = len + 2 * p->pad[a] - p->dil[a] * (k - 1);
    if (span < 1 || y->shape[2 + a] != (span - 1) / p->stride[a] + 1) return KC_E_SHAPE;
  }
  return KC_OK;
}

/* One output cell: y[n, o, t] with t the output position per axis. */
static float conv_cell(const kc_tensor* x, const kc_tensor* w, const conv_params* p, int64_t n, int64_t o,
                       const int64_t* t, int64_t OG, float start) {
  const int r = p->r;
  const int64_t CG = w->shape[1];
  const int64_t base = KC_CONV_GROUP_BASE(o, OG, CG);
  int64_t taps = 1;
  for (int a = 0; a < r; ++a) taps *= w->shape[2 + a];
  KC_CONV_CHANNEL_ACC acc = (KC_CONV_CHANNEL_ACC)start;
  for (int64_t c = 0; c < CG; ++c)
    for (int64_t q = 0; q < taps; ++q) {
      int64_t k[KC_CONV_MAX_R], rest = q;
      for (int a = r - 1; a >= 0; --a) {
        k[a] = rest % w->shape[2 + a];
        rest /= w->shape[2 + a];
      }
      int64_t xoff = n * x->strides[0] + (base + c) * x->strides[1];
      int64_t woff = o * w->strides[0] + c * w->strides[1];
      int inside = 1;
      for (int a = 0; a < r; ++a) {
        int64_t at = t[a] * p->stride[a] + k[a] * p->dil[a] - p->pad[a];
        const int64_t len = x->shape[2 + a];
        if ((at < 0 || at >= len) && !KC_CONV_OUTSIDE(at, len)) inside = 0;
        xoff += at * x->strides[2 + a];
        woff += k[a] * w->strides[2 + a];
      }
      if (inside) acc += (KC_CONV_CHANNEL_ACC)(kc_ld(x, xoff) * kc_ld(w, woff));
    }
  return (float)acc;
}

/* bias: 1 when args[2] is a bias of one value per output channel. */
static int conv(kc_tensor* args, int32_t nargs, int r, int bias) {
  conv_params p;
  int rc = check_conv(args, nargs, r, bias, &p);
  if (rc) return rc;
  const kc_tensor *x = &args[0], *w = &args[1], *y = &args[nargs - 1], *b = bias ? &args[2] : NULL;
  if (y->shape[1] != w->shape[0]) return KC_E_SHAPE;
  if (b && (!kc_view_ok(b, 1) || b->dtype != y->dtype || b->shape[0] != y->shape[1])) return KC_E_TENSOR;
  const int64_t G = x->shape[1] / w->shape[1], OG = w->shape[0] / G;
  int64_t cells = 1;
  for (int a = 0; a < r; ++a) cells *= y->shape[2 + a];
  for (int64_t n = 0; n < y->shape[0]; ++n)
    for (int64_t o = 0; o < y->shape[1]; ++o)
      for (int64_t i = 0; i < cells; ++i) {
        int64_t t[KC_CONV_MAX_R];
        const int64_t yoff = n * y->strides[0] + o * y->strides[1] + kc_spatial_cell(y, r, i, t);
        kc_st(y, yoff, conv_cell(x, w, &p, n, o, t, OG, b ? kc_ld(b, o * b->strides[0]) : 0.0f));
      }
  return KC_OK;
}

/* A depthwise conv2d (wd: [C, 1, KH, KW], groups = C) and a pointwise one (wp: [O, C, 1, 1]) in
 * one pass: per output position, the C depthwise cells in f32 scratch, then each output
 * channel's sum over them. */
static int conv_depthwise_separable(kc_tensor* args, int32_t nargs) {
  conv_params p;
  int rc = check_conv(args, nargs, 2, 1, &p);
  if (rc) return rc;
  const kc_tensor *x = &args[0], *wd = &args[1], *wp = &args[2], *y = &args[nargs - 1];
  const int64_t C = x->shape[1], O = y->shape[1];
  if (!kc_view_ok(wp, 4) || wp->dtype != y->dtype) return KC_E_TENSOR;
  if (wd->shape[0] != C || wd->shape[1] != 1 || wp->shape[0] != O || wp->shape[1] != C || wp->shape[2] != 1 ||
      wp->shape[3] != 1)
    return KC_E_SHAPE;
  float* d = (float*)malloc(sizeof(float) * (size_t)(C > 0 ? C : 1));
  if (d == NULL) return KC_E_SHAPE;
  const int64_t cells = y->shape[2] * y->shape[3];
  for (int64_t n = 0; n < y->shape[0]; ++n)
    for (int64_t i = 0; i < cells; ++i) {
      int64_t t[KC_CONV_MAX_R];
      const int64_t yoff = n * y->strides[0] + kc_spatial_cell(y, 2, i, t);
      for (int64_t c = 0; c < C; ++c) d[c] = conv_cell(x, wd, &p, n, c, t, 1, 0.0f);
      for (int64_t o = 0; o < O; ++o) {
        KC_CONV_POINTWISE_ACC acc = 0;
        for (int64_t c = 0; c < C; ++c)
          acc += (KC_CONV_POINTWISE_ACC)(kc_ld(wp, o * wp->strides[0] + c * wp->strides[1]) * d[c]);
        kc_st(y, yoff + o * y->strides[1], (float)acc);
      }
    }
  free(d);
  return KC_OK;
}

int kc_conv1d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv(args, nargs, 1, 0);
}

int kc_conv2d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv(args, nargs, 2, 0);
}

int kc_conv3d(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv(args, nargs, 3, 0);
}

int kc_conv2d_bias(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv(args, nargs, 2, 1);
}

int kc_conv2d_depthwise_separable(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return conv_depthwise_separable(args, nargs);
}

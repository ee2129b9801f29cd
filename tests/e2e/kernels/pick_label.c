/* acme_pick (tests/e2e/data/pick_label.kcontract): y[r] = x[r, t[r]].
 *   kc_pick:       correct, any stride.
 *   kc_pick_byte:  the labels kept in a byte ("a class id fits in uint8_t"): wrong for
 *                  every label past 255, which only a protocol drawing labels up to C - 1
 *                  at a large C reaches. */
#include <stdint.h>

#include "kcontract/abi.h"

static int pick(kc_tensor* args, int32_t nargs, int byte_labels) {
  if (args == 0 || nargs != 3) return 1;
  const kc_tensor *x = &args[0], *t = &args[1], *y = &args[2];
  if (x->dtype != KC_F32 || t->dtype != KC_I32 || y->dtype != KC_F32) return 2;
  const int64_t R = x->shape[0], C = x->shape[1];
  const float* xp = (const float*)x->data;
  const int32_t* tp = (const int32_t*)t->data;
  float* yp = (float*)y->data;
  for (int64_t r = 0; r < R; ++r) {
    int64_t c = tp[r * t->strides[0]];
    if (c < 0 || c >= C) return 4;
    if (byte_labels) c = (uint8_t)c; /* BUG: labels past 255 wrap */
    yp[r * y->strides[0]] = xp[r * x->strides[0] + c * x->strides[1]];
  }
  return 0;
}

int kc_pick(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pick(args, nargs, 0);
}

int kc_pick_byte(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return pick(args, nargs, 1);
}

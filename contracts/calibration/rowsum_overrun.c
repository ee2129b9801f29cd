/* cal_rowsum, violating std.mem.tail-mask@1 the other way: rows are processed four at a time
 * and the last tile is not masked, so when R is not a multiple of 4 the kernel writes up to
 * three results past the end of y (and reads rows past the end of x). The cells inside y are
 * right, so allclose passes; the checker's canaries after y are overwritten. */
#include "cal_views.h"

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  int64_t R = x->shape[0], H = x->shape[1];
  for (int64_t r = 0; r < R; r += 4)
    for (int64_t i = 0; i < 4; ++i) {
      float acc = 0;
      if (r + i < R)
        for (int64_t h = 0; h < H; ++h) acc += *cal_at2(x, r + i, h);
      ((float*)y->data)[(r + i) * y->strides[0]] = acc;
    }
  return 0;
}

/* cal_rowsum, violating std.ord.determinism@1: the row is split between two "blocks" whose
 * partial sums are combined in the order they finish, as an atomicAdd reduction does. Here
 * the split point moves with every call (the schedule), so the f32 result moves by an ulp
 * or two from run to run: well inside any tolerance, never bitwise reproducible. */
#include "cal_views.h"

static unsigned calls;

int kc_cal_rowsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 1)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  unsigned turn = calls++;
  for (int64_t r = 0; r < x->shape[0]; ++r) {
    int64_t H = x->shape[1], split = H > 1 ? 1 + (int64_t)((turn * 7u + (unsigned)r) % (unsigned)(H - 1)) : H;
    float a = 0, b = 0;
    for (int64_t h = 0; h < split; ++h) a += *cal_at2(x, r, h);
    for (int64_t h = split; h < H; ++h) b += *cal_at2(x, r, h);
    ((float*)y->data)[r * y->strides[0]] = turn % 2 ? b + a : a + b;
  }
  return 0;
}

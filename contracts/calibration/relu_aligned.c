/* cal_relu, violating std.mem.strides@1 through alignment: a vectorised kernel that honours
 * the strides but loads each row as 16-byte vectors of 4 floats from addresses rounded down
 * to 16 bytes, as AltiVec's vec_ld (and vector loads on hardware that ignores the low
 * address bits) does; it stores element by element. Rows that start 16-byte aligned — every
 * friendly test shape: contiguous, a multiple of 4 floats long — come out right; an offset
 * view, a padded row pitch or a row length that is not a multiple of 4 reads the wrong cells. */
#include <math.h>
#include <stdint.h>

#include "cal_views.h"

static const float* align16(const float* p) { return (const float*)((uintptr_t)p & ~(uintptr_t)15); }

int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  const kc_tensor *x = &args[0], *y = &args[1];
  int64_t H = x->shape[1];
  if (x->strides[1] != 1 || y->strides[1] != 1) {  // the scalar path for non-unit column strides is right
    for (int64_t r = 0; r < x->shape[0]; ++r)
      for (int64_t h = 0; h < H; ++h) {
        float v = *cal_at2(x, r, h);
        *cal_at2(y, r, h) = isnan(v) ? v : (v > 0 ? v : 0.0f);
      }
    return 0;
  }
  for (int64_t r = 0; r < x->shape[0]; ++r)
    for (int64_t h = 0; h < H; h += 4) {
      const float* in = align16(cal_at2(x, r, h));
      for (int k = 0; k < 4 && h + k < H; ++k) {
        float v = in[k];
        *cal_at2(y, r, h + k) = isnan(v) ? v : (v > 0 ? v : 0.0f);
      }
    }
  return 0;
}

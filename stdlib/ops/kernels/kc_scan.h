/* The row driver of the blocked scans (cumsum.c, cumprod.c): checks an [R, H] -> [R, H] op of
 * one float dtype, gives each row scratch of H floats (the in-block scans) and ceil(H / block)
 * floats (the block offsets), and calls the scan's row function on every row. */
#ifndef KC_SCAN_H
#define KC_SCAN_H

#include <stdlib.h>

#include "kc_host.h"

/* One row of x (at element offset xb) into y (at yb), H cells, with the scratch and the
 * scan's own parameters. */
typedef void (*kc_scan_row_fn)(const kc_tensor* x, int64_t xb, const kc_tensor* y, int64_t yb, int64_t H,
                               float* local, float* offset, const void* how);

static inline int kc_scan_rows(kc_tensor* args, int32_t nargs, int64_t block, kc_scan_row_fn row, const void* how) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], H = x->shape[1];
  if (R == 0 || H == 0) return KC_OK;
  float* local = (float*)malloc(sizeof(float) * (size_t)H);
  float* offset = (float*)malloc(sizeof(float) * (size_t)((H + block - 1) / block));
  if (local == NULL || offset == NULL) {
    free(local);
    free(offset);
    return KC_E_SHAPE;
  }
  for (int64_t r = 0; r < R; ++r) row(x, r * x->strides[0], y, r * y->strides[0], H, local, offset, how);
  free(local);
  free(offset);
  return KC_OK;
}

#endif

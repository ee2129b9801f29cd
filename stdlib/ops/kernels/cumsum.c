/* Prefix sums of the standard library on the host (stdlib/ops/cumsum*.kcontract): the
 * conforming reference kernels.
 *
 *   kc_cumsum(x: T[R, H] -> y: T[R, H])            y[r, h] = sum over k <= h of x[r, k]
 *   kc_cumsum_reverse(x: T[R, H] -> y: T[R, H])    y[r, h] = sum over k >= h of x[r, k]
 *   kc_cumsum_exclusive(x: T[R, H] -> y: T[R, H])  y[r, h] = sum over k < h of x[r, k]
 *   T in f32, bf16, f16
 *
 * A blocked scan, as a GPU kernel does it: each block of 64 elements is scanned on its own
 * in f32, the block totals are scanned, and each block's cells get the preceding blocks'
 * total added. Accumulation in f32, one rounding to T per cell. The reverse scan walks the
 * row from its end; the exclusive one writes each cell the scan of the cells before it. */
#include "kc_scan.h"

#define BLOCK 64

struct scan_how {
  int reverse, exclusive;
};

/* One row: local[i] is the in-block scan of the row read in scan order (i-th cell from the
 * end when reverse), offset[b] the blocks' totals before block b. */
static void scan_row(const kc_tensor* x, int64_t xb, const kc_tensor* y, int64_t yb, int64_t H, float* local,
                     float* offset, const void* how) {
  const int reverse = ((const struct scan_how*)how)->reverse, exclusive = ((const struct scan_how*)how)->exclusive;
  const int64_t nb = (H + BLOCK - 1) / BLOCK;
#define KC_CELL(i) (reverse ? H - 1 - (i) : (i))
  for (int64_t b = 0; b < nb; ++b) { /* scan inside each block */
    float run = 0.0f;
    const int64_t end = (b + 1) * BLOCK < H ? (b + 1) * BLOCK : H;
    for (int64_t i = b * BLOCK; i < end; ++i) local[i] = run += kc_ld(x, xb + KC_CELL(i) * x->strides[1]);
  }
  float total = 0.0f; /* exclusive scan of the block totals */
  for (int64_t b = 0; b < nb; ++b) {
    offset[b] = total;
    const int64_t last = (b + 1) * BLOCK < H ? (b + 1) * BLOCK - 1 : H - 1;
    total += local[last];
  }
  for (int64_t i = 0; i < H; ++i) {
    /* exclusive: the inclusive scan one cell back (its block's offset with it), 0 first */
    const float v = !exclusive ? local[i] + offset[i / BLOCK] : i == 0 ? 0.0f : local[i - 1] + offset[(i - 1) / BLOCK];
    kc_st(y, yb + KC_CELL(i) * y->strides[1], v);
  }
#undef KC_CELL
}

static int scan(kc_tensor* args, int32_t nargs, int reverse, int exclusive) {
  const struct scan_how how = {reverse, exclusive};
  return kc_scan_rows(args, nargs, BLOCK, scan_row, &how);
}

int kc_cumsum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return scan(args, nargs, 0, 0);
}

int kc_cumsum_reverse(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return scan(args, nargs, 1, 0);
}

int kc_cumsum_exclusive(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return scan(args, nargs, 0, 1);
}


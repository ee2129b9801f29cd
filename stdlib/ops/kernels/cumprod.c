/* Inclusive prefix product of the standard library on the host (stdlib/ops/cumprod.kcontract):
 * the conforming reference kernel.
 *
 *   kc_cumprod(x: T[R, H] -> y: T[R, H])      T in f32, bf16, f16
 *
 * A blocked scan, as a GPU kernel does it (and as kc_cumsum in cumsum.c): each block of 64
 * elements is scanned on its own in f32, the block products are scanned, and each block's
 * cells are multiplied by the preceding blocks' product. One rounding to T per cell. */
#include "kc_scan.h"

#define BLOCK 64

static void product_row(const kc_tensor* x, int64_t xb, const kc_tensor* y, int64_t yb, int64_t H, float* local,
                        float* offset, const void* how) {
  (void)how;
  const int64_t nb = (H + BLOCK - 1) / BLOCK;
  for (int64_t b = 0; b < nb; ++b) { /* scan inside each block */
    float run = 1.0f;
    const int64_t end = (b + 1) * BLOCK < H ? (b + 1) * BLOCK : H;
    for (int64_t h = b * BLOCK; h < end; ++h) local[h] = run *= kc_ld(x, xb + h * x->strides[1]);
  }
  float total = 1.0f; /* exclusive scan of the block products */
  for (int64_t b = 0; b < nb; ++b) {
    offset[b] = total;
    const int64_t last = (b + 1) * BLOCK < H ? (b + 1) * BLOCK - 1 : H - 1;
    total *= local[last];
  }
  for (int64_t h = 0; h < H; ++h) kc_st(y, yb + h * y->strides[1], local[h] * offset[h / BLOCK]);
}

int kc_cumprod(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  return kc_scan_rows(args, nargs, BLOCK, product_row, NULL);
}

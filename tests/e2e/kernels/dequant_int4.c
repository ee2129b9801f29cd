/* acme_dequant_int4 (tests/e2e/data/dequant_int4.kcontract): y[r, 2p] = (lo(q[r, p]) - 8) s[r],
 * y[r, 2p + 1] = (hi(q[r, p]) - 8) s[r].
 *   kc_dequant:          correct, any stride.
 *   kc_dequant_swapped:  the high nibble first (the packing order of another library).
 *   kc_dequant_signed:   the nibble read as two's complement (-8..7) instead of offset by 8:
 *                        right for nibbles 8..15 and wrong by 16 s[r] for 0..7. */
#include <stdint.h>

#include "kcontract/abi.h"

enum { ORDER_LOW_FIRST, ORDER_HIGH_FIRST, TWOS_COMPLEMENT };

static int nibble_value(int n, int mode) { return mode == TWOS_COMPLEMENT ? (n >= 8 ? n - 16 : n) : n - 8; }

static int dequant(kc_tensor* a, int32_t nargs, int mode) {
  if (a == 0 || nargs != 3) return 1;
  if (a[0].dtype != KC_U8 || a[1].dtype != KC_F32 || a[2].dtype != KC_F32) return 2;
  const int64_t R = a[0].shape[0], P = a[0].shape[1];
  if (a[2].shape[0] != R || a[2].shape[1] != 2 * P) return 3;
  const uint8_t* q = (const uint8_t*)a[0].data;
  const float* s = (const float*)a[1].data;
  float* y = (float*)a[2].data;
  for (int64_t r = 0; r < R; ++r) {
    const float scale = s[r * a[1].strides[0]];
    for (int64_t p = 0; p < P; ++p) {
      const uint8_t b = q[r * a[0].strides[0] + p * a[0].strides[1]];
      int first = b & 15, second = b >> 4;
      if (mode == ORDER_HIGH_FIRST) first = b >> 4, second = b & 15; /* BUG */
      y[r * a[2].strides[0] + 2 * p * a[2].strides[1]] = (float)nibble_value(first, mode) * scale;
      y[r * a[2].strides[0] + (2 * p + 1) * a[2].strides[1]] = (float)nibble_value(second, mode) * scale;
    }
  }
  return 0;
}

int kc_dequant(kc_tensor* a, int32_t n, void* stream) { (void)stream; return dequant(a, n, ORDER_LOW_FIRST); }
int kc_dequant_swapped(kc_tensor* a, int32_t n, void* stream) { (void)stream; return dequant(a, n, ORDER_HIGH_FIRST); }
int kc_dequant_signed(kc_tensor* a, int32_t n, void* stream) { (void)stream; return dequant(a, n, TWOS_COMPLEMENT); }

/* A SiLU with two paths, as CPU libraries write them: dense row-major views take a flat loop
 * that computes in f32 and rounds once to the output dtype; any other view takes a generic
 * strided loop that does each step in the storage dtype (bf16 arithmetic rounds after every
 * operation), as PyTorch 1.13's bf16 fallback loops did. It reads and writes the right cells
 * of every view; only its numerics change with the layout. e2e/diagnosis_reruns: the
 * diagnosis must not call it ignores-strides (in its strided views, one input cell changed
 * moves one output cell, the same one as in contiguous views). */
#include <string.h>

#include "../../../stdlib/ops/kernels/kc_host.h"

static int dense(const kc_tensor* t) {
  return (t->shape[1] <= 1 || t->strides[1] == 1) && (t->shape[0] <= 1 || t->strides[0] == t->shape[1]);
}

/* Rounds an f32 to bf16 (nearest, ties to even), as bf16 arithmetic does after each step. */
static float bf16_step(float v) {
  if (v != v) return v;
  uint32_t b;
  memcpy(&b, &v, 4);
  b = (b + 0x7fffu + ((b >> 16) & 1u)) & 0xffff0000u;
  memcpy(&v, &b, 4);
  return v;
}

static float silu_f32(float v) { return v / (1.0f + expf(-v)); }
static float silu_steps(float v) {
  const float e = bf16_step(expf(-v));
  return v / bf16_step(1.0f + e);
}

int kc_silu(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 2) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(x, y)) return KC_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (dense(x) && dense(y)) {
    for (int64_t i = 0; i < R * C; ++i) kc_st(y, i, silu_f32(kc_ld(x, i)));
    return KC_OK;
  }
  const int steps = x->dtype == KC_BF16;
  for (int64_t r = 0; r < R; ++r)
    for (int64_t c = 0; c < C; ++c) {
      const float v = kc_ld(x, r * x->strides[0] + c * x->strides[1]);
      kc_st(y, r * y->strides[0] + c * y->strides[1], steps ? silu_steps(v) : silu_f32(v));
    }
  return KC_OK;
}

/* A row sum whose pairwise combine of its 8 lanes starts at lane 1 (`for (k = 1; k < w; ...)`):
 * lane 0 never takes the others' partial sums, so the result is lane 0's alone, about an
 * eighth of the terms. With every input 1 a doubled H moves the output by an eighth of the
 * exact move, and doubled again by twice that: a fixed share of the terms, growing with H,
 * not an accumulator overwritten (which keeps a bounded part). tests/e2e/diagnosis_reruns.sh. */
/* Row reductions of the standard library on the host (stdlib/ops/{sum,mean,amax}.kcontract):
 * conforming reference kernels.
 *
 *   kc_sum(x: T[R, H] -> y: T[R]), kc_mean(x -> y), kc_amax(x -> y)      T in f32, bf16
 *
 * Each row is reduced in 8 independent f32 lanes (element h goes to lane h % 8, the way a
 * vectorised loop accumulates), then the lanes are combined pairwise: a different order of
 * additions from the oracle's, as a real kernel's is. The maximum propagates NaN. */
#include "../../../stdlib/ops/kernels/kc_host.h"

#define KC_LANES 8

static int check_args(kc_tensor* args, int32_t nargs) {
  if (args == NULL || nargs != 2) return KC_E_NARGS;
  const kc_tensor* x = &args[0];
  const kc_tensor* y = &args[1];
  if (!kc_view_ok(x, 2) || !kc_view_ok(y, 1) || x->dtype != y->dtype) return KC_E_TENSOR;
  if (y->shape[0] != x->shape[0]) return KC_E_SHAPE;
  return KC_OK;
}

static float row_sum(const kc_tensor* x, int64_t r) {
  const int64_t H = x->shape[1], xs = x->strides[1];
  const int64_t base = r * x->strides[0];
  float lane[KC_LANES] = {0};
  const int64_t body = H - H % KC_LANES;
  for (int64_t h = 0; h < body; h += KC_LANES)
    for (int k = 0; k < KC_LANES; ++k) lane[k] += kc_ld(x, base + (h + k) * xs);
  for (int64_t h = body; h < H; ++h) lane[h - body] += kc_ld(x, base + h * xs);
  for (int w = KC_LANES / 2; w >= 1; w /= 2)
    for (int k = 1; k < w; ++k) lane[k] += lane[k + w]; /* BUG: lane 0 left out */
  return lane[0];
}

int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  (void)stream;
  int rc = check_args(args, nargs);
  if (rc) return rc;
  for (int64_t r = 0; r < args[0].shape[0]; ++r) kc_st(&args[1], r * args[1].strides[0], row_sum(&args[0], r));
  return KC_OK;
}


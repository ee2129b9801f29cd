/* Gated linear units of the standard library on the host (stdlib/ops/{swiglu,geglu}.kcontract):
 * conforming reference kernels.
 *
 *   kc_swiglu(a, b -> y): y = silu(a) b = a sigmoid(a) b      all T[R, H], T in f32, bf16, f16
 *   kc_geglu(a, b -> y):  y = gelu(a) b, the exact (erf) GELU
 *
 * a is the gate projection, b the up projection (LLaMA's and Gemma's MLP:
 * down(act(gate(x)) * up(x))). Written the way a CPU kernel is: when every view is dense
 * row-major f32, one flat loop in blocks of 8 (which the compiler vectorises) and a scalar
 * tail; otherwise a loop over rows and columns through the strides. The activation and the
 * product are computed in f32 with the C library's f32 functions and rounded once to the
 * output dtype (the contracts also accept the activation rounded to T first, as torch's
 * F.silu(a) * b does). */
#include "kc_host.h"

#define KC_BLOCK 8

static int dense(const kc_tensor* t) {
  return t->rank == 2 && (t->shape[1] <= 1 || t->strides[1] == 1) && (t->shape[0] <= 1 || t->strides[0] == t->shape[1]);
}

/* silu(a) = a / (1 + e^-a): e^-a overflows to Inf for a < -88 and the quotient is -0, the
 * right limit; never a e^a / (1 + e^a), which is Inf / Inf for a > 88. */
static float swiglu_f(float a, float b) { return a / (1.0f + expf(-a)) * b; }
static float geglu_f(float a, float b) { return 0.5f * a * (1.0f + erff(a * 0.70710678118654752f)) * b; }

typedef float (*glu_fn)(float, float);

static int run_glu(kc_tensor* args, int32_t nargs, glu_fn f) {
  if (args == NULL || nargs != 3) return KC_E_NARGS;
  const kc_tensor* a = &args[0];
  const kc_tensor* b = &args[1];
  const kc_tensor* y = &args[2];
  if (!kc_view_ok(a, 2) || !kc_view_ok(b, 2) || !kc_view_ok(y, 2)) return KC_E_TENSOR;
  if (a->dtype != y->dtype || b->dtype != y->dtype) return KC_E_TENSOR;
  if (!kc_same_shape(a, y) || !kc_same_shape(b, y)) return KC_E_SHAPE;
  const int64_t R = y->shape[0], H = y->shape[1];
  if (y->dtype == KC_F32 && dense(a) && dense(b) && dense(y)) {
    const float* ap = (const float*)a->data;
    const float* bp = (const float*)b->data;
    float* yp = (float*)y->data;
    const int64_t n = R * H, body = n - n % KC_BLOCK;
    for (int64_t i = 0; i < body; i += KC_BLOCK)
      for (int k = 0; k < KC_BLOCK; ++k) yp[i + k] = f(ap[i + k], bp[i + k]);
    for (int64_t i = body; i < n; ++i) yp[i] = f(ap[i], bp[i]);
    return KC_OK;
  }
  for (int64_t r = 0; r < R; ++r)
    for (int64_t j = 0; j < H; ++j)
      kc_st(y, r * y->strides[0] + j * y->strides[1],
            f(kc_ld(a, r * a->strides[0] + j * a->strides[1]), kc_ld(b, r * b->strides[0] + j * b->strides[1])));
  return KC_OK;
}

int kc_swiglu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_glu(args, nargs, swiglu_f); }
int kc_geglu(kc_tensor* args, int32_t nargs, void* stream) { (void)stream; return run_glu(args, nargs, geglu_f); }

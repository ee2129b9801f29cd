/* Diagnosis corpus (CUDA), CONFORMING twin of add_private_stream.cu, mul_int32_index.cu and
 * relu_float4.cu: strided 2-D elementwise kernels (kc_add, kc_mul, kc_relu), one thread per
 * cell over a grid-stride loop with 64-bit cell indices, on the stream the checker passes. */
#include "diag_cuda.h"

struct view2 {
  int64_t r, c;
};

template <int OP>
__global__ void binary(const float* a, const float* b, float* c, int64_t R, int64_t C, view2 as, view2 bs, view2 cs) {
  const int64_t n = R * C;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = i / C, k = i % C;
    const float x = a[r * as.r + k * as.c], y = b[r * bs.r + k * bs.c];
    c[r * cs.r + k * cs.c] = OP == 0 ? x + y : x * y;
  }
}

__global__ void relu(const float* x, float* y, int64_t R, int64_t C, view2 xs, view2 ys) {
  const int64_t n = R * C;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = i / C, k = i % C;
    const float v = x[r * xs.r + k * xs.c];
    y[r * ys.r + k * ys.c] = (v > 0.0f || isnan(v)) ? v : 0.0f;
  }
}

static view2 v2(const kc_tensor* t) { return view2{t->strides[0], t->strides[1]}; }

template <int OP>
static int run_binary(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return DG_E_NARGS;
  const kc_tensor *a = &args[0], *b = &args[1], *c = &args[2];
  if (!dg_view_ok(a, 2) || !dg_view_ok(b, 2) || !dg_view_ok(c, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(a, c) || !dg_same_shape(b, c)) return DG_E_SHAPE;
  const int64_t R = c->shape[0], C = c->shape[1];
  if (R * C == 0) return DG_OK;
  binary<OP><<<dg_blocks(R * C, 256), 256, 0, (cudaStream_t)stream>>>((const float*)a->data, (const float*)b->data,
                                                                    (float*)c->data, R, C, v2(a), v2(b), v2(c));
  return dg_launched("binary");
}

extern "C" int kc_add(kc_tensor* args, int32_t nargs, void* stream) { return run_binary<0>(args, nargs, stream); }
extern "C" int kc_mul(kc_tensor* args, int32_t nargs, void* stream) { return run_binary<1>(args, nargs, stream); }

extern "C" int kc_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return DG_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!dg_view_ok(x, 2) || !dg_view_ok(y, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(x, y)) return DG_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (R * C == 0) return DG_OK;
  relu<<<dg_blocks(R * C, 256), 256, 0, (cudaStream_t)stream>>>((const float*)x->data, (float*)y->data, R, C, v2(x), v2(y));
  return dg_launched("relu");
}

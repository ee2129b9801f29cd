/* Diagnosis corpus (CUDA), BUGGY (misaligned-access): a ReLU vectorised with float4 loads and
 * stores on rows whose elements are contiguous: each thread reinterprets x + r * stride + 4 t
 * as a float4*. A float4 access must be 16-byte aligned; an offset view, or any row r > 0
 * when the row stride is not a multiple of 4, is not, and the kernel faults ("misaligned
 * address"). The scalar tail is right. Twin: relu_float4_checked.cu. */
#include "diag_cuda.h"

__device__ inline float relu1(float v) { return (v > 0.0f || isnan(v)) ? v : 0.0f; }

__global__ void relu4(const float* x, float* y, int64_t R, int64_t C, int64_t xr, int64_t yr) {
  const int64_t c4 = C / 4;
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    const float4* xv = reinterpret_cast<const float4*>(x + r * xr); /* BUG: alignment assumed */
    float4* yv = reinterpret_cast<float4*>(y + r * yr);
    for (int64_t t = threadIdx.x; t < c4; t += blockDim.x) {
      float4 v = xv[t];
      v.x = relu1(v.x), v.y = relu1(v.y), v.z = relu1(v.z), v.w = relu1(v.w);
      yv[t] = v;
    }
    for (int64_t k = c4 * 4 + threadIdx.x; k < C; k += blockDim.x) y[r * yr + k] = relu1(x[r * xr + k]);
  }
}

__global__ void relu_strided(const float* x, float* y, int64_t R, int64_t C, int64_t xr, int64_t xc, int64_t yr, int64_t yc) {
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < R * C; i += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = i / C, k = i % C;
    y[r * yr + k * yc] = relu1(x[r * xr + k * xc]);
  }
}

extern "C" int kc_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return DG_E_NARGS;
  const kc_tensor *x = &args[0], *y = &args[1];
  if (!dg_view_ok(x, 2) || !dg_view_ok(y, 2)) return DG_E_TENSOR;
  if (!dg_same_shape(x, y)) return DG_E_SHAPE;
  const int64_t R = x->shape[0], C = x->shape[1];
  if (R * C == 0) return DG_OK;
  cudaStream_t s = (cudaStream_t)stream;
  if ((x->strides[1] == 1 || C == 1) && (y->strides[1] == 1 || C == 1)) /* rows contiguous: vectorise */
    relu4<<<(unsigned)(R < 65535 ? R : 65535), 256, 0, s>>>((const float*)x->data, (float*)y->data, R, C, x->strides[0], y->strides[0]);
  else
    relu_strided<<<dg_blocks(R * C, 256), 256, 0, s>>>((const float*)x->data, (float*)y->data, R, C, x->strides[0], x->strides[1],
                                                       y->strides[0], y->strides[1]);
  return dg_launched("relu");
}

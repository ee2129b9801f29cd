/* std.cal.relu on CUDA, conforming twin of relu_vec_tail.cu: the same float4-vectorised relu,
 * with the last n % 4 elements done one at a time by the first threads. */
#include "../../../../contracts/calibration/cuda/cal_cuda.h"

__global__ void relu_vec4(const float* x, float* y, int64_t n) {
  const int64_t quads = n / 4;
  const int64_t stride = (int64_t)gridDim.x * blockDim.x;
  const int64_t first = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  for (int64_t i = first; i < quads; i += stride) {
    float4 v = ((const float4*)x)[i];
    v.x = v.x > 0.0f ? v.x : 0.0f;
    v.y = v.y > 0.0f ? v.y : 0.0f;
    v.z = v.z > 0.0f ? v.z : 0.0f;
    v.w = v.w > 0.0f ? v.w : 0.0f;
    ((float4*)y)[i] = v;
  }
  for (int64_t i = quads * 4 + first; i < n; i += stride) y[i] = x[i] > 0.0f ? x[i] : 0.0f; /* the tail */
}

extern "C" int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  int64_t n = args[0].shape[0] * args[0].shape[1];
  if (args[0].strides[1] != 1 || args[1].strides[1] != 1 || args[0].strides[0] != args[0].shape[1] ||
      args[1].strides[0] != args[1].shape[1])
    return 2; /* contiguous only */
  if (n == 0) return 0;
  int64_t blocks = (n / 4 + 255) / 256;
  if (blocks == 0) blocks = 1;
  relu_vec4<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (float*)args[1].data, n);
  return cal_launched("relu_vec_tail_ok");
}

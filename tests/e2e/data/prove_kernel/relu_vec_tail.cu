/* std.cal.relu on CUDA, violating (tail mask): a float4-vectorised relu that handles the
 * elements four at a time and forgets the last R * H % 4 of them. Every shape whose size is
 * a multiple of 4 -- every power-of-two test shape -- passes; the cells of the tail keep
 * whatever the output buffer held. Twin: relu_vec_tail_ok.cu. Used by tests/e2e/prove_kernel.sh
 * (kcontract prove --kernel refutes it: unwritten output cells). */
#include "../../../../contracts/calibration/cuda/cal_cuda.h"

__global__ void relu_vec4(const float4* x, float4* y, int64_t quads) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < quads; i += (int64_t)gridDim.x * blockDim.x) {
    float4 v = x[i];
    v.x = v.x > 0.0f ? v.x : 0.0f;
    v.y = v.y > 0.0f ? v.y : 0.0f;
    v.z = v.z > 0.0f ? v.z : 0.0f;
    v.w = v.w > 0.0f ? v.w : 0.0f;
    y[i] = v;
  }
}

extern "C" int kc_cal_relu(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 2 || !cal_view_ok(&args[0], KC_F32, 2) || !cal_view_ok(&args[1], KC_F32, 2)) return 1;
  int64_t n = args[0].shape[0] * args[0].shape[1];
  if (args[0].strides[1] != 1 || args[1].strides[1] != 1 || args[0].strides[0] != args[0].shape[1] ||
      args[1].strides[0] != args[1].shape[1])
    return 2; /* contiguous only */
  int64_t quads = n / 4; /* BUG: the last n % 4 elements are never processed */
  if (quads == 0) return 0;
  int64_t blocks = (quads + 255) / 256;
  relu_vec4<<<(unsigned)(blocks < 65535 ? blocks : 65535), 256, 0, (cudaStream_t)stream>>>(
      (const float4*)args[0].data, (float4*)args[1].data, quads);
  return cal_launched("relu_vec_tail");
}

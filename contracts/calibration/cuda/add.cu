/* std.op.add on CUDA at f32, conforming: c = a + b over strided 2-D views, a grid-stride
 * loop whose element index, count and offsets are 64-bit, so views of 2^31 elements and more
 * are covered in full. */
#include "cal_cuda.h"

struct View2 {
  int64_t s0, s1;
};

__global__ void add2d(const float* a, const float* b, float* c, int64_t R, int64_t C, View2 va, View2 vb, View2 vc) {
  const int64_t n = R * C;
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)blockDim.x * gridDim.x) {
    const int64_t r = i / C, k = i % C;
    c[r * vc.s0 + k * vc.s1] = a[r * va.s0 + k * va.s1] + b[r * vb.s0 + k * vb.s1];
  }
}

extern "C" int kc_add(kc_tensor* args, int32_t nargs, void* stream) {
  if (nargs != 3) return 1;
  for (int t = 0; t < 3; ++t)
    if (!cal_view_ok(&args[t], KC_F32, 2)) return 1;
  const int64_t R = args[2].shape[0], C = args[2].shape[1];
  if (R * C == 0) return 0;
  const int64_t blocks = (R * C + 255) / 256;
  View2 va{args[0].strides[0], args[0].strides[1]}, vb{args[1].strides[0], args[1].strides[1]},
      vc{args[2].strides[0], args[2].strides[1]};
  add2d<<<(unsigned)(blocks < 65535 * 16 ? blocks : 65535 * 16), 256, 0, (cudaStream_t)stream>>>(
      (const float*)args[0].data, (const float*)args[1].data, (float*)args[2].data, R, C, va, vb, vc);
  return cal_launched("add");
}

/* std.op.matmul on CUDA, conforming: c = a b over strided 2-D views, T in f32, bf16, f16
 * (a, b and c of one dtype), the CUDA twin of stdlib/ops/kernels/matmul.c. One thread per
 * output cell in a 1-D grid-stride loop over the M x N cells (no grid y or z, so M past
 * 65,535 is fine); each cell's K-term dot product is accumulated in f32, left to right, and
 * rounded once to T on the store. Every index, count and offset is 64-bit, every view is
 * addressed through its own two strides (transposed, padded or offset views alike).
 *
 *   kc_matmul(a: T[M, K], b: T[K, N] -> c: T[M, N])
 *
 * Returns 1 for a wrong argument count, 2 for a tensor it does not take (rank, dtype other
 * than f32/bf16/f16 or not the same for all three, a missing pointer), 3 for shapes that do
 * not match: the codes of the host kernels (stdlib/ops/kernels/kc_host.h). */

#include "cal_cuda.h"
#include "cal_dtypes.h"

enum { MM_E_NARGS = 1, MM_E_TENSOR = 2, MM_E_SHAPE = 3 };

struct View2 {
  int64_t s0, s1;
};

/* The dot product of row i of a (at element offset ao) and column j of b (at bo), in f32. */
template <typename T>
__device__ float dot(const T* a, int64_t ao, int64_t as1, const T* b, int64_t bo, int64_t bs0, int64_t K) {
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += ld(a + ao + k * as1) * ld(b + bo + k * bs0);
  return acc;
}

template <typename T>
__global__ void matmul(const T* a, const T* b, T* c, int64_t M, int64_t N, int64_t K, View2 va, View2 vb, View2 vc) {
  const int64_t n = M * N;
  for (int64_t t = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; t < n; t += (int64_t)blockDim.x * gridDim.x) {
    const int64_t i = t / N, j = t % N;
    st(c + i * vc.s0 + j * vc.s1, dot(a, i * va.s0, va.s1, b, j * vb.s1, vb.s0, K));
  }
}

template <typename T>
static int launch(kc_tensor* args, int64_t M, int64_t N, int64_t K, cudaStream_t stream) {
  const int64_t blocks = (M * N + 255) / 256;
  View2 va{args[0].strides[0], args[0].strides[1]}, vb{args[1].strides[0], args[1].strides[1]},
      vc{args[2].strides[0], args[2].strides[1]};
  matmul<T><<<(unsigned)(blocks < 65535 * 16 ? blocks : 65535 * 16), 256, 0, stream>>>(
      (const T*)args[0].data, (const T*)args[1].data, (T*)args[2].data, M, N, K, va, vb, vc);
  return cal_launched("matmul");
}

extern "C" int kc_matmul(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return MM_E_NARGS;
  const int32_t dt = args[2].dtype;
  if (dt != KC_F32 && dt != KC_BF16 && dt != KC_F16) return MM_E_TENSOR;
  for (int t = 0; t < 3; ++t)
    if (!cal_view_ok(&args[t], dt, 2)) return MM_E_TENSOR;
  const int64_t M = args[0].shape[0], K = args[0].shape[1], N = args[1].shape[1];
  if (args[1].shape[0] != K || args[2].shape[0] != M || args[2].shape[1] != N) return MM_E_SHAPE;
  if (M * N == 0) return 0;
  switch (dt) {
    case KC_BF16: return launch<__nv_bfloat16>(args, M, N, K, (cudaStream_t)stream);
    case KC_F16: return launch<__half>(args, M, N, K, (cudaStream_t)stream);
    default: return launch<float>(args, M, N, K, (cudaStream_t)stream);
  }
}

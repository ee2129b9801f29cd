/* std.op.matmul on CUDA, violating at f16 (std.prec.accumulator@1, signature
 * low-precision-accumulator): cuda/matmul.cu with an f16 accumulator for f16 operands, the
 * CUDA twin of calibration/ops/matmul_f16_acc.c. It mimics a tensor-core GEMM with
 * `mma.sync.m16n8k16 .f16.f16.f16.f16` (chosen for speed, as cuBLAS's CUBLAS_COMPUTE_16F
 * is): each k-step of 16 products is summed at full precision, and the running sum is a
 * __half, rounded to f16 (11 bits) after every step. On randn at K = 64 that is four
 * roundings, an error of a few 1e-3, inside a plain allclose's atol = rtol = 1e-2, so
 * allclose passes it; the error grows with K past the f32-accumulator bound std.op.matmul
 * allows (gamma(K, f32) sum |a b| + ulp(f16)), and the contract's long-K f16 cases catch it.
 * f32 and bf16 accumulate in f32 and are correct (bf16 MMAs have no f16 accumulator).
 *
 *   kc_matmul(a: T[M, K], b: T[K, N] -> c: T[M, N])          T in f32, bf16, f16
 *
 * Otherwise the same as cuda/matmul.cu: a 1-D grid-stride loop, one thread per output cell,
 * 64-bit indices, every view through its own strides, the host kernels' return codes. */

#include "cal_cuda.h"
#include "cal_dtypes.h"

enum { MM_E_NARGS = 1, MM_E_TENSOR = 2, MM_E_SHAPE = 3 };

struct View2 {
  int64_t s0, s1;
};

/* f32 and bf16: the dot product of row i of a and column j of b, in f32. */
template <typename T>
__device__ float dot(const T* a, int64_t ao, int64_t as1, const T* b, int64_t bo, int64_t bs0, int64_t K) {
  float acc = 0.0f;
  for (int64_t k = 0; k < K; ++k) acc += ld(a + ao + k * as1) * ld(b + bo + k * bs0);
  return acc;
}

/* f16: BUG: the running sum is kept in f16, rounded after every k-step of 16 products. */
__device__ float dot(const __half* a, int64_t ao, int64_t as1, const __half* b, int64_t bo, int64_t bs0, int64_t K) {
  __half acc = __float2half_rn(0.0f);
  for (int64_t k0 = 0; k0 < K; k0 += 16) {
    float step = 0.0f;
    for (int64_t k = k0; k < K && k < k0 + 16; ++k) step += ld(a + ao + k * as1) * ld(b + bo + k * bs0);
    acc = __float2half_rn(__half2float(acc) + step);
  }
  return __half2float(acc);
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

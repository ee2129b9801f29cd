/* std.op.sum on CUDA, conforming: the row sum y[r] = sum over h of x[r, h], T in f32, bf16,
 * f16 (x and y of one dtype), the CUDA twin of kc_sum in stdlib/ops/kernels/reduce.c. One
 * block of 256 threads per row (grid x capped at 65,535, the blocks looping over the rows, so
 * R past 65,535 is fine), per-thread f32 partial sums over a fixed stride of the row, then a
 * fixed shared-memory tree: the same order on every run. One rounding to T on the store.
 * Every index and offset is 64-bit; x is read through both of its strides and y is written
 * through its own (y[r] at r * stride, a strided vector such as out[::2] included).
 *
 *   kc_sum(x: T[R, H] -> y: T[R])
 *
 * Returns 1 for a wrong argument count, 2 for a tensor it does not take (rank, dtype other
 * than f32/bf16/f16 or not the same for both, a missing pointer), 3 for shapes that do not
 * match: the codes of the host kernels (stdlib/ops/kernels/kc_host.h). */

#include "cal_cuda.h"
#include "cal_dtypes.h"

enum { SUM_E_NARGS = 1, SUM_E_TENSOR = 2, SUM_E_SHAPE = 3 };

#define SUM_THREADS 256

template <typename T>
__global__ void sum_rows(const T* x, T* y, int64_t R, int64_t H, int64_t xr, int64_t xh, int64_t ys) {
  __shared__ float part[SUM_THREADS];
  for (int64_t r = blockIdx.x; r < R; r += gridDim.x) {
    float acc = 0.0f;
    for (int64_t h = threadIdx.x; h < H; h += blockDim.x) acc += ld(x + r * xr + h * xh);
    part[threadIdx.x] = acc;
    __syncthreads();
    for (int w = SUM_THREADS / 2; w > 0; w >>= 1) {
      if ((int)threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) st(y + r * ys, part[0]);
    __syncthreads();
  }
}

template <typename T>
static int launch(kc_tensor* args, int64_t R, int64_t H, cudaStream_t stream) {
  sum_rows<T><<<(unsigned)(R < 65535 ? R : 65535), SUM_THREADS, 0, stream>>>(
      (const T*)args[0].data, (T*)args[1].data, R, H, args[0].strides[0], args[0].strides[1], args[1].strides[0]);
  return cal_launched("sum");
}

extern "C" int kc_sum(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 2) return SUM_E_NARGS;
  const int32_t dt = args[0].dtype;
  if (dt != KC_F32 && dt != KC_BF16 && dt != KC_F16) return SUM_E_TENSOR;
  if (!cal_view_ok(&args[0], dt, 2) || !cal_view_ok(&args[1], dt, 1)) return SUM_E_TENSOR;
  const int64_t R = args[0].shape[0], H = args[0].shape[1];
  if (args[1].shape[0] != R) return SUM_E_SHAPE;
  if (R == 0) return 0;
  switch (dt) {
    case KC_BF16: return launch<__nv_bfloat16>(args, R, H, (cudaStream_t)stream);
    case KC_F16: return launch<__half>(args, R, H, (cudaStream_t)stream);
    default: return launch<float>(args, R, H, (cudaStream_t)stream);
  }
}

/* std.op.sum on CUDA, violating (std.mem.strides@1, signature ignores-strides): cuda/sum.cu
 * writing its 1-D output as if contiguous, the CUDA twin of calibration/ops/sum_vector_stride.c.
 * It honours both strides of its 2-D input (it was tested on transposed and padded x), but
 * writes y[r] at element r: a vector's stride is "always 1" to its author. Every sum is
 * right and the output of a contiguous vector is where it belongs, so a plain allclose
 * (contiguous tensors) passes it; a view of y with stride 2 (every other element of a
 * buffer, y = out[::2]) gets its sums in the wrong cells: cells of y never written, and
 * sums left in the gaps between them.
 *
 *   kc_sum(x: T[R, H] -> y: T[R])          T in f32, bf16, f16
 *
 * Otherwise the same as cuda/sum.cu: one block per row, f32 partial sums and a fixed tree,
 * 64-bit indices, the host kernels' return codes. */

#include "cal_cuda.h"
#include "cal_dtypes.h"

enum { SUM_E_NARGS = 1, SUM_E_TENSOR = 2, SUM_E_SHAPE = 3 };

#define SUM_THREADS 256

template <typename T>
__global__ void sum_rows(const T* x, T* y, int64_t R, int64_t H, int64_t xr, int64_t xh) {
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
    if (threadIdx.x == 0) st(y + r, part[0]); /* BUG: y's stride ignored, as if contiguous */
    __syncthreads();
  }
}

template <typename T>
static int launch(kc_tensor* args, int64_t R, int64_t H, cudaStream_t stream) {
  sum_rows<T><<<(unsigned)(R < 65535 ? R : 65535), SUM_THREADS, 0, stream>>>(
      (const T*)args[0].data, (T*)args[1].data, R, H, args[0].strides[0], args[0].strides[1]);
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

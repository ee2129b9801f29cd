/* std.op.embedding on CUDA, violating std.iface.precondition-report@1: the gather as it is
 * usually first written, out[n, :] = table[idx[n], :], with no check that idx[n] names a row
 * (embedding.cu without its check kernel). Every valid index is copied bit for bit, so
 * allclose passes; an index of V or -1 reads the memory beside the table and the kernel
 * returns 0, where torch.embedding raises; 2^40 faults (CRASH).
 *
 *   kc_embedding(table: T[V, D], idx: I[N] -> out: T[N, D])
 *
 * Returns 1 for a wrong argument count, 2 for a tensor it does not take, 3 for shapes that
 * do not match, 4 for a failed launch. */

#include "cal_cuda.h"

enum { EMB_E_NARGS = 1, EMB_E_TENSOR = 2, EMB_E_SHAPE = 3, EMB_E_CUDA = 4 };

template <typename E, typename I>
__global__ void gather(const E* table, const I* idx, E* out, int64_t N, int64_t D, int64_t ts0, int64_t ts1,
                       int64_t is, int64_t os0, int64_t os1) {
  for (int64_t n = blockIdx.y; n < N; n += gridDim.y) {
    const int64_t row = (int64_t)idx[n * is];
    for (int64_t d = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; d < D; d += (int64_t)gridDim.x * blockDim.x)
      out[n * os0 + d * os1] = table[row * ts0 + d * ts1];
  }
}

template <typename E, typename I>
static int run(kc_tensor* args, cudaStream_t stream) {
  const int64_t V = args[0].shape[0], D = args[0].shape[1], N = args[1].shape[0];
  (void)V;
  const int64_t xblocks = (D + 255) / 256;
  dim3 grid((unsigned)(xblocks < 1024 ? xblocks : 1024), (unsigned)(N < 65535 ? N : 65535));
  gather<E, I><<<grid, 256, 0, stream>>>((const E*)args[0].data, (const I*)args[1].data, (E*)args[2].data, N, D,
                                         args[0].strides[0], args[0].strides[1], args[1].strides[0],
                                         args[2].strides[0], args[2].strides[1]);
  return cal_launched("embedding gather") ? EMB_E_CUDA : 0;
}

template <typename E>
static int byIndex(kc_tensor* args, cudaStream_t stream) {
  return args[1].dtype == KC_I32 ? run<E, int32_t>(args, stream) : run<E, int64_t>(args, stream);
}

extern "C" int kc_embedding(kc_tensor* args, int32_t nargs, void* stream) {
  if (args == NULL || nargs != 3) return EMB_E_NARGS;
  const int32_t dt = args[0].dtype, it = args[1].dtype;
  if (dt != KC_F32 && dt != KC_BF16 && dt != KC_F16) return EMB_E_TENSOR;
  if (it != KC_I32 && it != KC_I64) return EMB_E_TENSOR;
  if (!cal_view_ok(&args[0], dt, 2) || !cal_view_ok(&args[1], it, 1) || !cal_view_ok(&args[2], dt, 2)) return EMB_E_TENSOR;
  if (args[2].shape[0] != args[1].shape[0] || args[2].shape[1] != args[0].shape[1]) return EMB_E_SHAPE;
  if (args[1].shape[0] == 0 || args[0].shape[1] == 0) return 0;
  return dt == KC_F32 ? byIndex<uint32_t>(args, (cudaStream_t)stream) : byIndex<uint16_t>(args, (cudaStream_t)stream);
}

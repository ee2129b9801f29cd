/* The CUDA backend's device kernels (kc_cuda_support.h). Built with -fmad=false (and the
 * default IEEE division and square root): the fill must round exactly as the host's
 * values::cellValue does, one operation at a time. */
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "kc_cuda_support.h"
#include "kcontract/abi.h"  // the dtype codes (enum kc_dtype), defined there only

namespace {

constexpr int kThreads = 256;

// --- the counter-based fill: stdlib/values/philox.cpp, sampling.cpp and fill.cpp -------------
struct Words {
  uint32_t w[4];
};

__device__ Words philox(uint64_t index, uint32_t lane, uint32_t k0, uint32_t k1) {
  uint32_t c0 = (uint32_t)index, c1 = (uint32_t)(index >> 32), c2 = lane, c3 = 0;
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    uint64_t p0 = (uint64_t)0xD2511F53u * c0;
    uint64_t p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n1 = (uint32_t)p1;
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1, n3 = (uint32_t)p0;
    c0 = n0; c1 = n1; c2 = n2; c3 = n3;
  }
  return {{c0, c1, c2, c3}};
}

__device__ uint64_t join(uint32_t hi, uint32_t lo) { return (uint64_t)hi << 32 | lo; }
__device__ double uniform01(uint64_t r) { return (double)(r >> 11) * 0x1p-53; }  // exact, as ldexp
__device__ double intInRange(const Words& w, int64_t lo, int64_t hi) {
  uint64_t n = (uint64_t)(hi - lo) + 1;
  return (double)(lo + (int64_t)__umul64hi(join(w.w[0], w.w[1]), n));
}

__device__ double uniformOpenAtZero(uint64_t r) { return (double)((r >> 11) + 1) * 0x1p-53; }

// stdlib/values/det_math.cpp, operation for operation.
__device__ double cosSmall(double x) {
  double x2 = x * x, r = 1.0;
  for (int n = 22; n >= 2; n -= 2) r = 1.0 - x2 * r / (double)((n - 1) * n);
  return r;
}
__device__ double sinSmall(double x) {
  double x2 = x * x, r = 1.0;
  for (int n = 23; n >= 3; n -= 2) r = 1.0 - x2 * r / (double)((n - 1) * n);
  return x * r;
}
__device__ double detLog(double x) {
  int k;
  double m = frexp(x, &k);
  if (m < 0x1.6a09e667f3bcdp-1) {
    m *= 2.0;
    k -= 1;
  }
  double s = (m - 1.0) / (m + 1.0);
  double s2 = s * s, series = 0.0;
  for (int j = 25; j >= 3; j -= 2) series = (series + 1.0 / j) * s2;
  double logm = 2.0 * s + (2.0 * s) * series;
  double kd = (double)k;
  return kd * 0x1.62e42fefa3800p-1 + (logm + kd * 0x1.ef35793c76730p-45);
}
__device__ double detCos2Pi(double t) {
  const double halfPi = 0x1.921fb54442d18p+0;
  double quarter = 4.0 * t;
  double qd = floor(quarter);
  double f = quarter - qd;
  int q = (int)qd & 3;
  double c, s;
  if (f <= 0.5) {
    c = cosSmall(f * halfPi);
    s = sinSmall(f * halfPi);
  } else {
    c = sinSmall((1.0 - f) * halfPi);
    s = cosSmall((1.0 - f) * halfPi);
  }
  switch (q) {
    case 0: return c;
    case 1: return -s;
    case 2: return -c;
    default: return s;
  }
}
__device__ double standardNormal(const Words& w) {
  double u1 = uniformOpenAtZero(join(w.w[0], w.w[1]));
  double u2 = uniform01(join(w.w[2], w.w[3]));
  return sqrt(-2.0 * detLog(u1)) * detCos2Pi(u2);
}
__device__ double uniformIn(uint64_t r, double lo, double hi) {
  double v = lo + (hi - lo) * uniform01(r);
  return v < hi ? v : nextafter(hi, lo);
}

__device__ double cell(const kcs_gen& g, uint64_t index) {
  switch (g.kind) {
    case KCS_UNIFORM: {
      Words w = philox(index, 0, g.key0, g.key1);
      return uniformIn(join(w.w[0], w.w[1]), g.lo, g.hi);
    }
    case KCS_NORMAL: return g.lo + g.hi * standardNormal(philox(index, 0, g.key0, g.key1));
    case KCS_CONSTANT_ROWS: return g.lo + g.hi * standardNormal(philox(index - index % g.cols, 1, g.key0, g.key1));
    case KCS_SHIFTED_ROWS: {
      Words w = philox(index - index % g.cols, 1, g.key0, g.key1);
      double rowMean = uniformIn(join(w.w[0], w.w[1]), g.lo, g.hi);
      return rowMean + g.density * standardNormal(philox(index, 0, g.key0, g.key1));
    }
    case KCS_INT_UNIFORM: return intInRange(philox(index, 0, g.key0, g.key1), g.ilo, g.ihi);
    case KCS_INDEX_MOD: return __dadd_rn((double)(index % g.prime), g.offset);
    case KCS_EXACT_INT: {
      Words w = philox(index, 0, g.key0, g.key1);
      if (uniform01(join(w.w[2], w.w[3])) < g.density) return 0.0;
      return intInRange(w, g.ilo, g.ihi);
    }
  }
  return 0.0;
}

// numerics::roundTo (stdlib/numerics/rounding.cpp) for a narrow float format: one rounding,
// half to even, at the quantum of x's binade (gradual underflow), overflow to infinity.
__device__ double roundFloat(double x, int precision, int emin, double maxFinite) {
  if (isnan(x) || x == 0.0 || isinf(x)) return x;
  double a = fabs(x);
  int e = max(ilogb(a), emin);
  double quantum = ldexp(1.0, e - precision + 1);
  double r = rint(a / quantum) * quantum;
  if (r > maxFinite) r = INFINITY;
  return copysign(r, x);
}

// ... and for an integer type: NaN to 0, clamped to the type's range, half to even.
__device__ double roundInteger(double x, double lo, double hi, bool i64) {
  if (isnan(x)) return 0.0;
  if (x <= lo) return lo;
  if (x >= hi) return i64 ? nextafter(hi, 0.0) : hi;
  return rint(x) + 0.0;
}

__global__ void fillKernel(void* dst, kcs_gen g, uint64_t count) {
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride) {
    double v = cell(g, g.first + i);
    switch (g.dtype) {
      case KC_F32: ((float*)dst)[i] = __double2float_rn(v); break;
      case KC_F64: ((double*)dst)[i] = v; break;
      case KC_BF16:  // exact in f32 once rounded: its top 16 bits
        ((uint16_t*)dst)[i] = (uint16_t)(__float_as_uint((float)roundFloat(v, 8, -126, 0x1.fep+127)) >> 16);
        break;
      case KC_F16: ((__half*)dst)[i] = __double2half(roundFloat(v, 11, -14, 65504.0)); break;  // exact
      case KC_U8: ((uint8_t*)dst)[i] = (uint8_t)roundInteger(v, 0.0, 255.0, false); break;
      case KC_I8: ((int8_t*)dst)[i] = (int8_t)roundInteger(v, -128.0, 127.0, false); break;
      case KC_I16: ((int16_t*)dst)[i] = (int16_t)roundInteger(v, -32768.0, 32767.0, false); break;
      case KC_I32: ((int32_t*)dst)[i] = (int32_t)roundInteger(v, -2147483648.0, 2147483647.0, false); break;
      case KC_I64: ((int64_t*)dst)[i] = (int64_t)roundInteger(v, -0x1p63, 0x1p63, true); break;
    }
  }
}

// --- counting and comparing ------------------------------------------------------------------
// 16-byte loads over the whole vectors, elements one by one over the tail.
template <class T>
__device__ void blockAdd(unsigned long long mine, unsigned long long* total) {
  __shared__ unsigned long long sum;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  if (mine) atomicAdd(&sum, mine);
  __syncthreads();
  if (threadIdx.x == 0 && sum) atomicAdd(total, sum);
}

template <class T>
__global__ void countKernel(const T* p, uint64_t count, T pattern, unsigned long long* total,
                            unsigned long long* lowest, unsigned long long above) {
  constexpr int kPer = 16 / sizeof(T);
  uint64_t vectors = count / kPer;
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  unsigned long long mine = 0, low = ~0ull;
  const uint4* v = (const uint4*)p;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    uint4 x = v[i];
    const T* e = (const T*)&x;
    for (int k = 0; k < kPer; ++k)
      if (e[k] == pattern) {
        ++mine;
        uint64_t at = i * kPer + k;
        if (at >= above && at < low) low = at;
      }
  }
  for (uint64_t i = vectors * kPer + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    if (p[i] == pattern) {
      ++mine;
      if (i >= above && i < low) low = i;
    }
  if (low != ~0ull) atomicMin(lowest, low);
  if (total) blockAdd<T>(mine, total);
}

template <class T>
__global__ void compareKernel(const T* a, const T* b, uint64_t count, unsigned long long* total) {
  constexpr int kPer = 16 / sizeof(T);
  uint64_t vectors = count / kPer;
  uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  unsigned long long mine = 0;
  const uint4* va = (const uint4*)a;
  const uint4* vb = (const uint4*)b;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < vectors; i += stride) {
    uint4 x = va[i], y = vb[i];
    if (x.x == y.x && x.y == y.y && x.z == y.z && x.w == y.w) continue;
    const T* ex = (const T*)&x;
    const T* ey = (const T*)&y;
    for (int k = 0; k < kPer; ++k) mine += ex[k] != ey[k];
  }
  for (uint64_t i = vectors * kPer + (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
    mine += a[i] != b[i];
  blockAdd<T>(mine, total);
}

unsigned blocksFor(uint64_t work) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  uint64_t want = (work + kThreads - 1) / kThreads;
  uint64_t cap = (uint64_t)(sms > 0 ? sms : 80) * 8;  // a grid-stride loop: a few waves suffice
  return (unsigned)(want < cap ? (want ? want : 1) : cap);
}

// Device words for the results, allocated once by kcs_init (before the kernel's first
// launch): an allocation between launches would look like memory the kernel kept
// (CudaBackend's device-memory-leak rule).
unsigned long long* gScratch = nullptr;

template <class T>
int countTyped(const void* data, uint64_t count, uint64_t pattern, uint64_t* countOut, uint64_t* firstOut,
               uint32_t maxFirst, uint32_t* found, cudaStream_t s) {
  if (!gScratch) return cudaErrorNotReady;
  cudaError_t e = cudaSuccess;
  unsigned long long host[2] = {0, ~0ull};
  unsigned blocks = blocksFor(count / (16 / sizeof(T)) + 1);
  *found = 0;
  unsigned long long above = 0;
  for (uint32_t k = 0; k == 0 || k < maxFirst; ++k) {
    unsigned long long init[2] = {0, ~0ull};
    if ((e = cudaMemcpyAsync(gScratch, init, sizeof init, cudaMemcpyHostToDevice, s)) != cudaSuccess) return e;
    countKernel<T><<<blocks, kThreads, 0, s>>>((const T*)data, count, (T)pattern, k == 0 ? gScratch : nullptr, gScratch + 1,
                                               above);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if ((e = cudaMemcpyAsync(host, gScratch, sizeof host, cudaMemcpyDeviceToHost, s)) != cudaSuccess) return e;
    if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
    if (k == 0) *countOut = host[0];
    if (host[1] == ~0ull || maxFirst == 0) break;
    firstOut[(*found)++] = host[1];
    above = host[1] + 1;
  }
  return 0;
}

template <class T>
int compareTyped(const void* a, const void* b, uint64_t count, uint64_t* differ, cudaStream_t s) {
  if (!gScratch) return cudaErrorNotReady;
  cudaError_t e = cudaMemsetAsync(gScratch, 0, sizeof(unsigned long long), s);
  if (e != cudaSuccess) return e;
  compareKernel<T><<<blocksFor(count / (16 / sizeof(T)) + 1), kThreads, 0, s>>>((const T*)a, (const T*)b, count, gScratch);
  if ((e = cudaGetLastError()) != cudaSuccess) return e;
  unsigned long long host = 0;
  if ((e = cudaMemcpyAsync(&host, gScratch, sizeof host, cudaMemcpyDeviceToHost, s)) != cudaSuccess) return e;
  if ((e = cudaStreamSynchronize(s)) != cudaSuccess) return e;
  *differ = host;
  return 0;
}

bool aligned16(const void* p) { return ((uintptr_t)p & 15) == 0; }

}  // namespace

extern "C" int kcs_init(void) {
  if (gScratch) return 0;
  return cudaMalloc(&gScratch, 4 * sizeof(unsigned long long));
}

extern "C" int kcs_fill_generated(void* dst, const kcs_gen* gen, uint64_t count, void* stream) {
  switch (gen->dtype) {
    case KC_F32: case KC_F64: case KC_BF16: case KC_F16: case KC_U8: case KC_I8: case KC_I16: case KC_I32: case KC_I64: break;
    default: return KCS_UNSUPPORTED;  // bool, fp8: the host's chunks
  }
  if (gen->kind < KCS_UNIFORM || gen->kind > KCS_SHIFTED_ROWS) return KCS_UNSUPPORTED;
  if (count == 0) return 0;
  cudaStream_t s = (cudaStream_t)stream;
  fillKernel<<<blocksFor(count), kThreads, 0, s>>>(dst, *gen, count);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  return e;
}

extern "C" int kcs_count_pattern(const void* data, uint64_t count, uint32_t eb, uint64_t pattern, uint64_t* countOut,
                                 uint64_t* firstOut, uint32_t maxFirst, uint32_t* found, void* stream) {
  cudaStream_t s = (cudaStream_t)stream;
  *countOut = 0;
  *found = 0;
  if (count == 0) return 0;
  if (!aligned16(data)) return KCS_UNSUPPORTED;
  switch (eb) {
    case 1: return countTyped<uint8_t>(data, count, pattern, countOut, firstOut, maxFirst, found, s);
    case 2: return countTyped<uint16_t>(data, count, pattern, countOut, firstOut, maxFirst, found, s);
    case 4: return countTyped<uint32_t>(data, count, pattern, countOut, firstOut, maxFirst, found, s);
    case 8: return countTyped<unsigned long long>(data, count, pattern, countOut, firstOut, maxFirst, found, s);
  }
  return KCS_UNSUPPORTED;
}

extern "C" int kcs_compare_bitwise(const void* a, const void* b, uint64_t count, uint32_t eb, uint64_t* differ,
                                   void* stream) {
  cudaStream_t s = (cudaStream_t)stream;
  *differ = 0;
  if (count == 0) return 0;
  if (!aligned16(a) || !aligned16(b)) return KCS_UNSUPPORTED;
  switch (eb) {
    case 1: return compareTyped<uint8_t>(a, b, count, differ, s);
    case 2: return compareTyped<uint16_t>(a, b, count, differ, s);
    case 4: return compareTyped<uint32_t>(a, b, count, differ, s);
    case 8: return compareTyped<unsigned long long>(a, b, count, differ, s);
  }
  return KCS_UNSUPPORTED;
}

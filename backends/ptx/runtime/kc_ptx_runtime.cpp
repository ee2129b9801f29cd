/* The CUDA runtime, as far as a kernel's host code needs it, for the ptx backend (docs/ptx.md,
 * "Host code"). nvcc compiles a kernel's .cu into a host library with -cudart none and this
 * file beside it: the registration calls nvcc generates map each kernel's host stub to its
 * mangled name, a launch goes to the backend's interpreter through the hooks it installs
 * (kc_ptx_hooks.h), and "device" memory is host memory the backend is told about. Streams are
 * tokens: work on a stream the kernel created waits until that stream (or the device) is
 * synchronised, as it would on a GPU; work on the checker's stream or the default stream runs
 * at once. Errors follow the runtime: the last error is kept until cudaGetLastError. */
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "kc_ptx_hooks.h"

namespace {

kc_ptx_hooks g_hooks;
bool g_installed = false;
cudaError_t g_last = cudaSuccess;
std::map<const void*, std::string>& kernels() {  // host stub -> mangled name
  static std::map<const void*, std::string> k;
  return k;
}
struct Config {
  dim3 grid, block;
  size_t shared = 0;
  void* stream = nullptr;
};
Config g_config[8];
int g_depth = 0;

cudaError_t note(cudaError_t e) {
  if (e != cudaSuccess) g_last = e;
  return e;
}

cudaError_t sticky() {
  int s = g_installed ? g_hooks.sticky(g_hooks.ctx) : 0;
  return static_cast<cudaError_t>(s);
}

cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shared, void* stream) {
  if (cudaError_t s = sticky(); s != cudaSuccess) return note(s);
  auto it = kernels().find(func);
  if (it == kernels().end() || !g_installed) return note(cudaErrorInvalidDeviceFunction);
  unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
  return note(static_cast<cudaError_t>(g_hooks.launch(g_hooks.ctx, it->second.c_str(), g, b, shared, args, stream)));
}

void synchronizeAll() {
  if (g_installed) note(static_cast<cudaError_t>(g_hooks.synchronize(g_hooks.ctx, nullptr, 1)));
}

}  // namespace

extern "C" {

void kc_ptx_install(const kc_ptx_hooks* hooks) {
  g_hooks = *hooks;
  g_installed = true;
  g_last = cudaSuccess;
}

/* --- what nvcc's generated host code calls ------------------------------------------------ */
void** CUDARTAPI __cudaRegisterFatBinary(void* fatCubin) {
  static void* handle = nullptr;
  (void)fatCubin;
  return &handle;
}
void CUDARTAPI __cudaRegisterFatBinaryEnd(void** handle) { (void)handle; }
void CUDARTAPI __cudaUnregisterFatBinary(void** handle) { (void)handle; }
void CUDARTAPI __cudaRegisterFunction(void** handle, const char* hostFun, char* deviceFun, const char* deviceName,
                                      int threadLimit, uint3* tid, uint3* bid, dim3* bDim, dim3* gDim, int* wSize) {
  (void)handle, (void)deviceFun, (void)threadLimit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
  kernels()[hostFun] = deviceName;
}
void CUDARTAPI __cudaRegisterVar(void** handle, char* hostVar, char* deviceAddress, const char* deviceName, int ext,
                                 size_t size, int constant, int global) {
  (void)handle, (void)hostVar, (void)deviceAddress, (void)deviceName, (void)ext, (void)size, (void)constant, (void)global;
}
char CUDARTAPI __cudaInitModule(void** handle) {
  (void)handle;
  return 1;
}
unsigned CUDARTAPI __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, struct CUstream_st* stream) {
  if (g_depth < 8) g_config[g_depth] = {grid, block, shared, stream};
  ++g_depth;
  return 0;
}
cudaError_t CUDARTAPI __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
  if (g_depth <= 0) return cudaErrorMissingConfiguration;
  --g_depth;
  const Config& c = g_config[g_depth < 8 ? g_depth : 7];
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *static_cast<void**>(stream) = c.stream;
  return cudaSuccess;
}
cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
  return cudaSuccess;
}
cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                         cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream);
}
cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                              cudaStream_t stream) {
  return launch(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream);
}

/* --- the runtime API ------------------------------------------------------------------------ */
cudaError_t CUDARTAPI cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                       cudaStream_t stream) {
  return launch(func, grid, block, args, shared, stream);
}

cudaError_t CUDARTAPI cudaGetLastError(void) {
  cudaError_t e = g_last;
  g_last = sticky();
  return e;
}
cudaError_t CUDARTAPI cudaPeekAtLastError(void) { return g_last; }

const char* CUDARTAPI cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorMissingConfiguration: return "cudaErrorMissingConfiguration";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    default: return "cudaErrorUnknown";
  }
}
const char* CUDARTAPI cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorMissingConfiguration: return "__global__ function call is not configured";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    default: return "unknown error";
  }
}

cudaError_t CUDARTAPI cudaMalloc(void** p, size_t bytes) {
  if (cudaError_t s = sticky(); s != cudaSuccess) return note(s);
  size_t rounded = (bytes + 255) / 256 * 256;
  *p = std::aligned_alloc(256, rounded ? rounded : 256);
  if (!*p) return note(cudaErrorMemoryAllocation);
  if (g_installed) g_hooks.allocated(g_hooks.ctx, *p, bytes);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
  (void)stream;
  return cudaMalloc(p, bytes);
}
cudaError_t CUDARTAPI cudaFree(void* p) {
  if (!p) return cudaSuccess;
  synchronizeAll();
  if (g_installed) g_hooks.freed(g_hooks.ctx, p);
  std::free(p);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaFreeAsync(void* p, cudaStream_t stream) {
  (void)stream;
  return cudaFree(p);
}
cudaError_t CUDARTAPI cudaMallocHost(void** p, size_t bytes) {
  *p = std::malloc(bytes ? bytes : 1);
  return *p ? cudaSuccess : note(cudaErrorMemoryAllocation);
}
cudaError_t CUDARTAPI cudaFreeHost(void* p) {
  std::free(p);
  return cudaSuccess;
}

static void moveBytes(void* to, const void* from, size_t bytes) {
  if (g_installed && g_hooks.copy)
    g_hooks.copy(g_hooks.ctx, to, from, bytes);
  else
    std::memmove(to, from, bytes);
}
static void setBytes(void* p, int value, size_t bytes) {
  if (g_installed && g_hooks.set)
    g_hooks.set(g_hooks.ctx, p, value, bytes);
  else
    std::memset(p, value, bytes);
}

cudaError_t CUDARTAPI cudaMemcpy(void* to, const void* from, size_t bytes, enum cudaMemcpyKind kind) {
  (void)kind;
  synchronizeAll();  /* the legacy default stream waits for every blocking stream */
  if (cudaError_t s = sticky(); s != cudaSuccess) return note(s);
  moveBytes(to, from, bytes);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemcpyAsync(void* to, const void* from, size_t bytes, enum cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  (void)kind;
  if (g_installed) g_hooks.synchronize(g_hooks.ctx, stream, 0);
  moveBytes(to, from, bytes);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemset(void* p, int value, size_t bytes) {
  synchronizeAll();
  setBytes(p, value, bytes);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t stream) {
  if (g_installed) g_hooks.synchronize(g_hooks.ctx, stream, 0);
  setBytes(p, value, bytes);
  return cudaSuccess;
}

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* s) {
  *s = reinterpret_cast<cudaStream_t>(new char[1]);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* s, unsigned int flags) {
  (void)flags;
  return cudaStreamCreate(s);
}
cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t s) {
  if (g_installed) g_hooks.synchronize(g_hooks.ctx, s, 0);
  delete[] reinterpret_cast<char*>(s);
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t s) {
  if (g_installed) note(static_cast<cudaError_t>(g_hooks.synchronize(g_hooks.ctx, s, 0)));
  return sticky();
}
cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t s) {
  (void)s;
  return sticky();
}
cudaError_t CUDARTAPI cudaDeviceSynchronize(void) {
  synchronizeAll();
  return sticky();
}

cudaError_t CUDARTAPI cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaSetDevice(int d) { return d == 0 ? cudaSuccess : note(cudaErrorInvalidDevice); }
cudaError_t CUDARTAPI cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
/* The attributes a launch computation asks for, as an H200 (sm_90) answers them. */
cudaError_t CUDARTAPI cudaDeviceGetAttribute(int* v, enum cudaDeviceAttr attr, int device) {
  (void)device;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    case cudaDevAttrMaxBlockDimX: *v = 1024; break;
    case cudaDevAttrMaxBlockDimY: *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *v = 64; break;
    case cudaDevAttrMaxGridDimX: *v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: *v = 65535; break;
    case cudaDevAttrMaxGridDimZ: *v = 65535; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = 49152; break;
    case cudaDevAttrWarpSize: *v = 32; break;
    case cudaDevAttrMultiProcessorCount: *v = 132; break;
    case cudaDevAttrComputeCapabilityMajor: *v = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *v = 0; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = 2048; break;
    default: return note(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value) {
  (void)func, (void)attr, (void)value;
  return cudaSuccess;
}
cudaError_t CUDARTAPI cudaMemGetInfo(size_t* freeBytes, size_t* total) {
  *freeBytes = size_t{64} << 30;
  *total = size_t{141} << 30;
  return cudaSuccess;
}

}  // extern "C"

#include "backends/cuda/cuda_backend.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "backends/child_query.h"
#include "backends/cuda/support/kc_cuda_support.h"
#include "backends/support_fill.h"
#include "backends/host/compile_cache.h"
#include "backends/kernel_library.h"
#include "backends/toolchain.h"
#include "stdlib/data_root.h"

namespace kc::backend {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMiB = size_t{1} << 20;
// Seconds the probe child may take: the first CUDA initialisation on a machine whose driver
// is not persistent can take several seconds per GPU.
constexpr int kProbeTimeoutSeconds = 120;

std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorString(e)) + " (" + cudaGetErrorName(e) + ", CUDA error " +
         std::to_string(static_cast<int>(e)) + ")";
}

std::string versionText(int v) {  // 13000 -> "13.0"
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

// Errors that mean the device or the context is broken (a kernel faulted): every later call
// in this process returns them. They are faults of the kernel, not of the harness.
bool isDeviceFault(cudaError_t e) {
  switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

// What the probe child writes into the pipe: plain bytes, no pointers.
struct ProbeWire {
  int32_t filled = 0;   // 1 once the child got this far
  int32_t error = 0;    // the cudaError_t of the call that failed, 0 when none did
  int32_t count = 0;    // devices
  int32_t driver = 0;   // cudaDriverGetVersion: 0 when no driver was found
  int32_t runtime = 0;  // cudaRuntimeGetVersion
  int32_t major = 0, minor = 0;
  uint64_t totalMemory = 0;
  uint64_t freeMemory = 0;  // cudaMemGetInfo in the child (0: it failed)
  char call[64] = {};
  char name[256] = {};
  char errorText[512] = {};
};

void copyText(char* to, size_t size, const std::string& from) {
  std::strncpy(to, from.c_str(), size - 1);
  to[size - 1] = '\0';
}

// In the probe child: the questions, answered into `w`.
void askDevice(ProbeWire& w) {
  cudaDriverGetVersion(&w.driver);
  cudaRuntimeGetVersion(&w.runtime);
  cudaError_t e = cudaGetDeviceCount(&w.count);
  if (e != cudaSuccess) {
    copyText(w.call, sizeof w.call, "cudaGetDeviceCount");
  } else if (w.count > 0) {
    cudaDeviceProp p;
    e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
      copyText(w.call, sizeof w.call, "cudaGetDeviceProperties");
    } else {
      copyText(w.name, sizeof w.name, p.name);
      w.major = p.major;
      w.minor = p.minor;
      w.totalMemory = p.totalGlobalMem;
      size_t freeBytes = 0, totalBytes = 0;  // creates the child's context: the free memory a case may use
      if (cudaSetDevice(0) == cudaSuccess && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess)
        w.freeMemory = freeBytes;
    }
  }
  w.error = static_cast<int32_t>(e);
  if (e != cudaSuccess) copyText(w.errorText, sizeof w.errorText, describe(e));
  w.filled = 1;
}

struct DeviceInfo {
  bool available = false;
  std::string reason;  // when not available
  std::string device;  // for reports
  std::string arch;    // "sm_90"
  uint64_t freeMemory = 0;   // bytes, at the probe (0: unknown)
  uint64_t totalMemory = 0;
  int count = 0;             // devices CUDA sees
};

DeviceInfo interpret(const ProbeWire& w) {
  DeviceInfo d;
  std::string failed = std::string(w.call) + " failed: " + w.errorText;
  if (w.error == cudaErrorInsufficientDriver && w.driver == 0) {
    d.reason = "no CUDA driver on this machine (" + failed + ")";
  } else if (w.error == cudaErrorInsufficientDriver) {
    d.reason = "the CUDA driver (for CUDA " + versionText(w.driver) + ") is older than the CUDA runtime kcontract was built with (" +
               versionText(w.runtime) + "): " + failed;
  } else if (w.error == cudaErrorNoDevice) {
    d.reason = "no CUDA device (" + failed + ")";
  } else if (w.error != 0) {
    d.reason = "CUDA is unusable here: " + failed;
  } else if (w.count <= 0) {
    d.reason = "no CUDA device (cudaGetDeviceCount found none)";
  } else {
    d.available = true;
    d.count = w.count;
    d.arch = "sm_" + std::to_string(w.major) + std::to_string(w.minor);
    d.freeMemory = w.freeMemory;
    d.totalMemory = w.totalMemory;
    char mem[32];
    std::snprintf(mem, sizeof mem, "%.1f GiB", static_cast<double>(w.totalMemory) / (1024.0 * kMiB));
    d.device = std::string(w.name) + " (" + d.arch + ", " + mem + ", CUDA driver " + versionText(w.driver) +
               ", runtime " + versionText(w.runtime) + (w.count > 1 ? ", device 0 of " + std::to_string(w.count) : "") + ")";
  }
  return d;
}

// Asks the CUDA runtime about the device in a child process, so that this process never
// initialises CUDA (see cuda_backend.h: the workers it forks later create their own
// contexts, which they cannot do once the parent has called into the driver). Once per
// process: the answer does not change during a run.
const DeviceInfo& queryDevice() {
  static std::optional<DeviceInfo> cached;
  if (cached) return *cached;
  DeviceInfo d;
  const std::string what = "the CUDA device probe";
  ChildAnswer a = askInChild(
      [] {
        ProbeWire w;
        askDevice(w);
        return std::string(reinterpret_cast<const char*>(&w), sizeof w);
      },
      kProbeTimeoutSeconds, what);
  ProbeWire w;
  if (a.answered && a.text.size() == sizeof w) std::memcpy(&w, a.text.data(), sizeof w);
  const std::string cannotAsk = "cannot ask " + what + ": ";  // no pipe, no fork
  if (!a.answered && a.failure.rfind(cannotAsk, 0) == 0) {
    d.reason = "cannot probe for a CUDA device: " + a.failure.substr(cannotAsk.size());
  } else if (!a.answered) {
    d.reason = a.failure;
  } else if (a.text.size() != sizeof w || !w.filled) {
    d.reason = what + " exited without an answer";
  } else {
    d = interpret(w);
  }
  return *(cached = d);
}

bool isExecutable(const fs::path& p) { return !p.empty() && access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); }

// The full path of a program found on PATH, or "" when it is not there.
fs::path onPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return isExecutable(program) ? fs::path(program) : fs::path();
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(dirs.substr(start, end - start)) / program;
    if (end > start && isExecutable(candidate)) return candidate;
    start = end + 1;
  }
  return {};
}

}  // namespace

std::string CudaBackend::nvccPath() { return backend::nvccPath(); }

Availability CudaBackend::probe() {
  const DeviceInfo& d = queryDevice();
  Availability a;
  a.available = d.available;
  a.reason = d.reason;
  a.device = d.device;
  a.devices = d.count;
  a.arch = d.arch;
  return a;
}

std::optional<uint64_t> CudaBackend::deviceMemoryBytes() {
  const DeviceInfo& d = queryDevice();
  if (!d.available) return std::nullopt;
  if (d.freeMemory) return d.freeMemory;
  return d.totalMemory ? std::optional<uint64_t>(d.totalMemory) : std::nullopt;
}

Prepared CudaBackend::prepare(const KernelRef& kernel) {
  if (const DeviceInfo& device = queryDevice(); device.available) buildSupport(device.arch);
  if (auto prebuilt = prebuiltLibrary(kernel)) return *prebuilt;
  std::string ext = fs::path(kernel.path).extension().string();
  if (ext != ".cu") throw BackendError("the CUDA backend builds .cu sources or loads .so files; not '" + kernel.path + "'");
  // The architecture comes from the device (queried in the probe child, never here).
  const DeviceInfo& d = queryDevice();
  if (!d.available) throw BackendError(d.reason);
  std::string include = abiIncludeDir();
  CompileRequest r;
  r.source = kernel.path;
  r.kind = "cuda";
  std::string nvcc = nvccPath();
  // The key holds the whole command, so the architecture (and the nvcc path) are in it.
  r.command = {nvcc, "-O2", "-shared", "-Xcompiler", "-fPIC,-fmax-errors=20", "-arch=" + d.arch, "-I", include};
  r.extraKeyFiles = {include + "/kcontract/abi.h"};
  // The toolkit's cuda.h carries CUDA_VERSION: another nvcc release at the same path rebuilds.
  if (fs::path found = onPath(nvcc); !found.empty()) {
    std::error_code ec;
    fs::path real = fs::canonical(found, ec);
    fs::path header = (ec ? found : real).parent_path().parent_path() / "include" / "cuda.h";
    if (fs::is_regular_file(header, ec)) r.extraKeyFiles.push_back(header.string());
  }
  CompileResult built = compileCached(r);
  return {built.library, built.cached};
}

// --- the worker ------------------------------------------------------------------------------

void CudaBackend::load(const Prepared& prepared, const std::string& entry) {
  // The first CUDA calls of this process: the worker's own context and the kernel's stream.
  // Non-blocking, so that nothing done on it waits for the legacy default stream or for
  // streams the kernel creates (cudaStreamCreate makes blocking streams).
  cudaError_t e = cudaSetDevice(0);
  if (e != cudaSuccess) throw BackendError("CUDA: cannot use device 0: " + describe(e));
  cudaStream_t s = nullptr;
  e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  if (e != cudaSuccess) throw BackendError("CUDA: cannot create the kernel's stream: " + describe(e));
  stream_ = s;
  // A kernel built by nvcc carries its own (static) CUDA runtime; both runtimes share the
  // device's primary context, so pointers and the stream pass between them.
  kernel_ = loadKernelLibrary(prepared, entry);
}

void* CudaBackend::allocate(size_t bytes) {
  void* p = nullptr;
  cudaError_t e = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
  if (e != cudaSuccess) throw BackendError("CUDA: cannot allocate " + std::to_string(bytes) + " bytes of device memory: " + describe(e));
  return p;
}

void CudaBackend::release(void* buffer) {
  if (buffer) cudaFree(buffer);
}

// Copies on the kernel's stream and waits for that stream only: a copy on the legacy
// default stream (cudaMemcpy) would first wait for every blocking stream, the kernel's
// private ones included, and hide a kernel that returns before its work is done.
void CudaBackend::copy(void* to, const void* from, size_t bytes, bool toDevice) {
  if (!pendingFault_.empty()) return;  // the context is broken; fault() says so
  auto s = static_cast<cudaStream_t>(stream_);
  cudaError_t e = cudaMemcpyAsync(to, from, bytes, toDevice ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e == cudaSuccess) return;
  if (isDeviceFault(e)) {  // a kernel's fault surfaced here: reported by fault() as a crash
    pendingFault_ = describe(e);
    return;
  }
  throw BackendError("CUDA: copying " + std::to_string(bytes) + " bytes " + (toDevice ? "to" : "from") +
                     " the device failed: " + describe(e));
}

void CudaBackend::copyIn(void* device, const void* host, size_t bytes) { copy(device, host, bytes, true); }

void CudaBackend::copyDevice(void* to, const void* from, size_t bytes) {
  if (!pendingFault_.empty()) return;
  auto s = static_cast<cudaStream_t>(stream_);
  cudaError_t e = cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, s);
  if (e == cudaSuccess) e = cudaStreamSynchronize(s);
  if (e == cudaSuccess) return;
  if (isDeviceFault(e)) {
    pendingFault_ = describe(e);
    return;
  }
  throw BackendError("CUDA: copying " + std::to_string(bytes) + " bytes on the device failed: " + describe(e));
}

void CudaBackend::copyOut(void* host, const void* device, size_t bytes) { copy(host, device, bytes, false); }

void CudaBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  if (pattern.empty() || bytes == 0) return;
  // A host buffer of whole patterns, at most 16 MiB, copied over the range chunk by chunk.
  size_t chunk = std::max(pattern.size(), (std::min(bytes, 16 * kMiB) / pattern.size()) * pattern.size());
  std::vector<uint8_t> host(chunk);
  for (size_t i = 0; i < chunk; i += pattern.size()) std::memcpy(host.data() + i, pattern.data(), pattern.size());
  auto* d = static_cast<uint8_t*>(device);
  for (size_t done = 0; done + pattern.size() <= bytes; done += chunk) {
    size_t n = std::min(chunk, (bytes - done) / pattern.size() * pattern.size());
    copy(d + done, host.data(), n, true);
  }
}

int CudaBackend::launch(kc_tensor* args, int32_t nargs) {
  if (!pendingFault_.empty()) return 0;  // the device already faulted: fault() reports it
  int index = launches_++;
  size_t freeBytes = 0, totalBytes = 0;
  if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
    freeBeforeLaunch_.resize(static_cast<size_t>(index) + 1, freeBytes);
    freeBeforeLaunch_[static_cast<size_t>(index)] = freeBytes;
  }
  noise_.before(index);
  int rc = kernel_.entry(args, nargs, stream_);
  noise_.after(index);
  return rc;
}

void CudaBackend::preparePerturbation() {
  const DeviceInfo& d = queryDevice();  // in a child: this process never touches CUDA
  if (d.available) noise_.prepare(nvccPath(), d.arch);
}

void CudaBackend::synchronize() {
  if (!pendingFault_.empty() || !stream_) return;
  cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(stream_));
  if (e != cudaSuccess) {
    pendingFault_ = describe(e);
    return;
  }
  size_t freeBytes = 0, totalBytes = 0;
  if (launches_ > 0 && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) {
    // One reading per launch: the last synchronize after it.
    freeAfterLaunch_.resize(static_cast<size_t>(launches_), freeBytes);
    freeAfterLaunch_[static_cast<size_t>(launches_) - 1] = freeBytes;
  }
}

void CudaBackend::synchronizeDevice() {
  if (!pendingFault_.empty()) return;
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    pendingFault_ = describe(e);
    return;
  }
  synchronize();
}

std::string CudaBackend::fault() {
  if (!pendingFault_.empty()) return pendingFault_;
  if (!stream_) return "";
  // A sticky error (an illegal address, a trap) is returned by every call once it happened;
  // cudaGetLastError also returns one of this runtime's own calls that failed.
  cudaError_t e = cudaStreamQuery(static_cast<cudaStream_t>(stream_));
  if (e == cudaErrorNotReady) e = cudaSuccess;
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) pendingFault_ = describe(e);
  return pendingFault_;
}

// --- device-side checks (support/kc_cuda_support.cu) --------------------------------------

// Built in the checker (prepare), where the kernel cache is writable; the worker's cell
// only loads it (docs/security.md).
void CudaBackend::buildSupport(const std::string& arch) {
  if (!supportLibrary_.empty()) return;
  fs::path dir = fs::path(stdlib::dataDir()) / "backends" / "cuda" / "support";
  std::string include = (fs::path(stdlib::dataDir()) / "include").string();  // kcontract/abi.h: the dtype codes
  CompileRequest r;
  r.source = (dir / "kc_cuda_support.cu").string();
  r.kind = "cuda-support";
  // -fmad=false: the generated fill rounds one operation at a time, as the host does.
  r.command = {nvccPath(), "-O3", "-shared", "-Xcompiler", "-fPIC", "-fmad=false", "-arch=" + arch, "-I", dir.string(),
               "-I", include};
  r.extraKeyFiles = {(dir / "kc_cuda_support.h").string(), include + "/kcontract/abi.h"};
  try {
    supportLibrary_ = compileCached(r).library;
  } catch (const std::exception& e) {
    supportError_ = e.what();
  }
}

std::string CudaBackend::supportLibraryForDevice() {
  const DeviceInfo& d = queryDevice();
  if (!d.available) throw BackendError(d.reason);
  buildSupport(d.arch);
  if (supportLibrary_.empty()) throw BackendError(supportError_);
  return supportLibrary_;
}

void CudaBackend::loadSupport() {
  if (support_) return;
  if (supportLibrary_.empty())
    throw BackendError(supportError_.empty() ? "the CUDA support kernels were not built before the worker started"
                                             : supportError_);
  struct {
    std::string library;
  } built{supportLibrary_};
  support_ = dlopen(built.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!support_) throw BackendError(std::string("cannot load the CUDA support kernels: ") + dlerror());
  fillFn_ = dlsym(support_, "kcs_fill_generated");
  countFn_ = dlsym(support_, "kcs_count_pattern");
  compareFn_ = dlsym(support_, "kcs_compare_bitwise");
  auto init = reinterpret_cast<int (*)()>(dlsym(support_, "kcs_init"));
  if (!fillFn_ || !countFn_ || !compareFn_ || !init) throw BackendError("the CUDA support library lacks an entry point");
  if (int e = init(); e != 0)
    throw BackendError("CUDA: the support kernels cannot allocate their result words: " + describe(static_cast<cudaError_t>(e)));
}

bool CudaBackend::supportOk(int rc, const char* what) {
  if (rc == 0) return true;
  if (rc == KCS_UNSUPPORTED) return false;
  auto e = static_cast<cudaError_t>(rc);
  if (isDeviceFault(e)) {
    pendingFault_ = describe(e);
    return true;  // fault() reports it; the result is meaningless either way
  }
  throw BackendError(std::string("CUDA: ") + what + " failed: " + describe(e));
}

void CudaBackend::fillGenerated(void* device, const GeneratedFill& g, size_t count) {
  if (!pendingFault_.empty()) return;
  loadSupport();
  std::optional<kcs_gen> k = supportFill(g);
  using Fn = int (*)(void*, const kcs_gen*, uint64_t, void*);
  if (k && supportOk(reinterpret_cast<Fn>(fillFn_)(device, &*k, count, stream_), "the generated fill"))
    return;
  Backend::fillGenerated(device, g, count);  // f16, bf16, i8, ...: the host's chunks
}

PatternCount CudaBackend::countPattern(const void* device, size_t count, const std::vector<uint8_t>& pattern,
                                       size_t maxFirst) {
  PatternCount out;
  if (!pendingFault_.empty()) return out;
  loadSupport();
  uint64_t bits = 0;
  std::memcpy(&bits, pattern.data(), std::min(pattern.size(), sizeof bits));
  std::vector<uint64_t> first(std::max<size_t>(maxFirst, 1));
  uint64_t n = 0;
  uint32_t found = 0;
  using Fn = int (*)(const void*, uint64_t, uint32_t, uint64_t, uint64_t*, uint64_t*, uint32_t, uint32_t*, void*);
  if (!supportOk(reinterpret_cast<Fn>(countFn_)(device, count, static_cast<uint32_t>(pattern.size()), bits, &n,
                                                first.data(), static_cast<uint32_t>(maxFirst), &found, stream_),
                 "counting poisoned cells"))
    return Backend::countPattern(device, count, pattern, maxFirst);
  out.count = n;
  out.first.assign(first.begin(), first.begin() + std::min<size_t>(found, maxFirst));
  return out;
}

uint64_t CudaBackend::compareBitwise(const void* a, const void* b, size_t count, size_t elementBytes) {
  if (!pendingFault_.empty()) return 0;
  loadSupport();
  uint64_t differ = 0;
  using Fn = int (*)(const void*, const void*, uint64_t, uint32_t, uint64_t*, void*);
  if (!supportOk(reinterpret_cast<Fn>(compareFn_)(a, b, count, static_cast<uint32_t>(elementBytes), &differ, stream_),
                 "comparing launches"))
    return Backend::compareBitwise(a, b, count, elementBytes);
  return differ;
}

// Device memory the kernel keeps. The count is for the whole device: a run sharing the GPU
// with other programs can see their allocations too.
std::string CudaBackend::resourceReport() { return deviceMemoryLeakReport(freeAfterLaunch_, freeBeforeLaunch_); }

std::string deviceMemoryLeakReport(const std::vector<size_t>& f, const std::vector<size_t>& before) {
  if (f.size() < 2) return "";
  for (size_t k = 1; k < f.size(); ++k)
    if (f[k] > f[k - 1]) return "";
  if (before.size() == f.size())
    for (size_t k = 1; k < f.size(); ++k)
      if (before[k] <= f[k] + kMiB) return "";  // this launch took 1 MiB or less itself
  size_t drop = f.front() - f.back();
  size_t launches = f.size() - 1;
  if (drop <= launches * kMiB) return "";
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "device memory: free device memory fell by %.1f MiB from launch 1 to launch %zu (%.1f MiB per launch) "
                "and never grew back: the kernel allocates device memory it does not free",
                static_cast<double>(drop) / kMiB, f.size(), static_cast<double>(drop) / kMiB / static_cast<double>(launches));
  return buf;
}

}  // namespace kc::backend

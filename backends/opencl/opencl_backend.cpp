#include "backends/opencl/opencl_backend.h"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <sstream>

#include "backends/child_query.h"
#include "backends/host/compile_cache.h"
#include "backends/kernel_library.h"

namespace kc::backend {

namespace fs = std::filesystem;

namespace {

constexpr int kProbeTimeoutSeconds = 60;
constexpr size_t kMiB = size_t{1} << 20;

std::string errorName(cl_int e) {
  switch (e) {
#define KC_CL_ERR(x) \
  case x:            \
    return #x;
    KC_CL_ERR(CL_DEVICE_NOT_FOUND) KC_CL_ERR(CL_DEVICE_NOT_AVAILABLE) KC_CL_ERR(CL_COMPILER_NOT_AVAILABLE)
    KC_CL_ERR(CL_MEM_OBJECT_ALLOCATION_FAILURE) KC_CL_ERR(CL_OUT_OF_RESOURCES) KC_CL_ERR(CL_OUT_OF_HOST_MEMORY)
    KC_CL_ERR(CL_BUILD_PROGRAM_FAILURE) KC_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    KC_CL_ERR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) KC_CL_ERR(CL_INVALID_VALUE) KC_CL_ERR(CL_INVALID_DEVICE)
    KC_CL_ERR(CL_INVALID_CONTEXT) KC_CL_ERR(CL_INVALID_COMMAND_QUEUE) KC_CL_ERR(CL_INVALID_MEM_OBJECT)
    KC_CL_ERR(CL_INVALID_PROGRAM) KC_CL_ERR(CL_INVALID_KERNEL) KC_CL_ERR(CL_INVALID_KERNEL_ARGS)
    KC_CL_ERR(CL_INVALID_WORK_GROUP_SIZE) KC_CL_ERR(CL_INVALID_BUFFER_SIZE) KC_CL_ERR(CL_INVALID_OPERATION)
    KC_CL_ERR(CL_INVALID_PLATFORM)
#undef KC_CL_ERR
    case -1001:
      return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
      return "OpenCL error";
  }
}

std::string clText(cl_int e) { return errorName(e) + " (" + std::to_string(e) + ")"; }

// An info string of a platform or a device through its clGet*Info ("?" when it cannot be read).
template <class Id, class Info, class Get>
std::string infoString(Id id, Info what, Get get) {
  size_t n = 0;
  if (get(id, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
  std::string s(n, '\0');
  get(id, what, n, s.data(), nullptr);
  return s.c_str();
}

std::string infoText(cl_platform_id p, cl_platform_info what) { return infoString(p, what, clGetPlatformInfo); }
std::string infoText(cl_device_id d, cl_device_info what) { return infoString(d, what, clGetDeviceInfo); }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct Selection {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string reason;       // when none was selected
  std::string description;  // "PLATFORM / DEVICE (type, OpenCL version, memory)"
  uint64_t memory = 0;      // CL_DEVICE_GLOBAL_MEM_SIZE
};

// The device kernels run on (opencl_backend.h): $KC_OPENCL_DEVICE picks by name, else the
// first GPU, else the first device. Called in the probe child and in each worker.
Selection selectDevice() {
  Selection s;
  cl_uint np = 0;
  cl_int e = clGetPlatformIDs(0, nullptr, &np);
  if (e != CL_SUCCESS || np == 0) {
    s.reason = "no OpenCL platform (clGetPlatformIDs: " + (e != CL_SUCCESS ? clText(e) : std::string("none found")) +
               "; an ICD such as pocl-opencl-icd provides one)";
    return s;
  }
  std::vector<cl_platform_id> platforms(np);
  clGetPlatformIDs(np, platforms.data(), nullptr);
  const char* wanted = std::getenv("KC_OPENCL_DEVICE");
  std::string want = wanted ? lower(wanted) : "";
  std::vector<std::string> seen;
  std::optional<std::pair<cl_platform_id, cl_device_id>> firstAny, firstGpu, named;
  for (cl_platform_id p : platforms) {
    cl_uint nd = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> devices(nd);
    clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr);
    for (cl_device_id d : devices) {
      std::string label = infoText(p, CL_PLATFORM_NAME) + " / " + infoText(d, CL_DEVICE_NAME);
      seen.push_back(label);
      cl_device_type type = 0;
      clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
      if (!firstAny) firstAny = {p, d};
      if (!firstGpu && (type & CL_DEVICE_TYPE_GPU)) firstGpu = {p, d};
      if (!named && !want.empty() && lower(label).find(want) != std::string::npos) named = {p, d};
    }
  }
  std::optional<std::pair<cl_platform_id, cl_device_id>> pick = !want.empty() ? named : firstGpu ? firstGpu : firstAny;
  if (!pick) {
    if (seen.empty()) {
      s.reason = "no OpenCL device (" + std::to_string(np) + " platform" + (np == 1 ? "" : "s") + ", no devices)";
    } else {
      std::string all;
      for (const auto& l : seen) all += (all.empty() ? "" : "; ") + l;
      s.reason = "no OpenCL device matches KC_OPENCL_DEVICE='" + std::string(wanted) + "' (devices: " + all + ")";
    }
    return s;
  }
  s.platform = pick->first;
  s.device = pick->second;
  cl_device_type type = 0;
  cl_ulong mem = 0;
  clGetDeviceInfo(s.device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
  clGetDeviceInfo(s.device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, nullptr);
  s.memory = mem;
  std::ostringstream d;
  d.setf(std::ios::fixed);
  d.precision(1);
  d << infoText(s.platform, CL_PLATFORM_NAME) << " / " << infoText(s.device, CL_DEVICE_NAME) << " ("
    << ((type & CL_DEVICE_TYPE_GPU) ? "GPU" : (type & CL_DEVICE_TYPE_CPU) ? "CPU" : "accelerator") << ", "
    << infoText(s.device, CL_DEVICE_VERSION) << ", " << static_cast<double>(mem) / (1024.0 * kMiB) << " GiB)";
  s.description = d.str();
  return s;
}

struct ProbeAnswer {
  bool available = false;
  std::string text;  // the device, or the reason
  uint64_t memory = 0;  // the device's global memory (0: unknown)
};

// Asked once per process, in a child (opencl_backend.h: the checker never initialises OpenCL).
const ProbeAnswer& probeOnce() {
  static std::optional<ProbeAnswer> cached;
  if (cached) return *cached;
  ChildAnswer a = askInChild(
      [] {
        Selection s = selectDevice();
        return s.device ? "1" + std::to_string(s.memory) + "\n" + s.description : "0" + s.reason;
      },
      kProbeTimeoutSeconds, "the OpenCL device probe");
  ProbeAnswer p;
  if (!a.answered || a.text.empty()) {
    p.text = a.failure.empty() ? "the OpenCL device probe gave no answer" : a.failure;
  } else {
    p.available = a.text[0] == '1';
    p.text = a.text.substr(1);
    if (p.available) {  // "<memory>\n<description>"
      size_t nl = p.text.find('\n');
      p.memory = std::strtoull(p.text.substr(0, nl).c_str(), nullptr, 10);
      p.text = nl == std::string::npos ? "" : p.text.substr(nl + 1);
    }
  }
  return *(cached = p);
}

// A buffer handed out by allocate(): the whole cl_mem, and where the checker's bytes start
// inside it (`shift`, chosen by view() so that the view's origin is aligned for a sub-buffer).
struct ClBuffer {
  cl_mem mem = nullptr;
  size_t bytes = 0;
  size_t shift = 0;
  cl_mem sub = nullptr;
};

std::string envOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

// Where kernels' host files find CL/cl.h and libOpenCL: $KC_OPENCL_INCLUDE_DIR and
// $KC_OPENCL_LIBRARY, else what CMake found when kcontract was built, else (a bundle
// carried to a machine without them) the CUDA toolkit's copies.
std::string openclIncludeDir() {
  std::error_code ec;
  std::string built = KC_OPENCL_INCLUDE_DIR;
  if (!fs::exists(fs::path(built) / "CL" / "cl.h", ec) && fs::exists("/usr/local/cuda/include/CL/cl.h", ec))
    built = "/usr/local/cuda/include";
  return envOr("KC_OPENCL_INCLUDE_DIR", built);
}

std::string openclLibrary() {
  std::error_code ec;
  std::string built = KC_OPENCL_LIBRARY;
  if (!fs::exists(built, ec)) {
    for (const char* p : {"/usr/lib/x86_64-linux-gnu/libOpenCL.so.1", "/usr/local/cuda/lib64/libOpenCL.so"})
      if (fs::exists(p, ec)) {
        built = p;
        break;
      }
  }
  return envOr("KC_OPENCL_LIBRARY", built);
}

}  // namespace

Availability OpenClBackend::probe() {
  const ProbeAnswer& p = probeOnce();
  Availability a;
  a.available = p.available;
  (p.available ? a.device : a.reason) = p.text;
  return a;
}

std::optional<uint64_t> OpenClBackend::deviceMemoryBytes() {
  const ProbeAnswer& p = probeOnce();
  return p.available && p.memory ? std::optional<uint64_t>(p.memory) : std::nullopt;
}

Prepared OpenClBackend::prepare(const KernelRef& kernel) {
  if (auto prebuilt = prebuiltLibrary(kernel)) return *prebuilt;
  bool cpp = isCppHostSource(kernel,
                             "the OpenCL backend builds a .c or .cpp host file (which builds its .cl program at run time) or "
                             "loads a .so");
  std::string include = abiIncludeDir();
  std::error_code ec;
  fs::path dir = fs::absolute(kernel.path, ec).parent_path();
  CompileRequest r;
  r.source = kernel.path;
  r.kind = "opencl";
  r.command = hostCompilerCommand(cpp, include);
  r.command.insert(r.command.end(), {"-I" + openclIncludeDir(), "-DCL_TARGET_OPENCL_VERSION=120",
                                     "-DKC_KERNEL_DIR=\"" + dir.string() + "\""});
  r.linkFlags = {openclLibrary()};
  r.extraKeyFiles = {include + "/kcontract/abi.h", include + "/kcontract/opencl.h"};
  CompileResult built = compileCached(r);
  return {built.library, built.cached};
}

// --- the worker ------------------------------------------------------------------------------

void OpenClBackend::load(const Prepared& prepared, const std::string& entry) {
  Selection s = selectDevice();
  if (!s.device) throw BackendError(s.reason);
  cl_uint alignBits = 0;
  if (clGetDeviceInfo(s.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits, nullptr) == CL_SUCCESS &&
      alignBits >= 8)
    align_ = alignBits / 8;
  cl_int e = CL_SUCCESS;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(s.platform), 0};
  cl_context ctx = clCreateContext(props, 1, &s.device, nullptr, nullptr, &e);
  if (e != CL_SUCCESS) throw BackendError("OpenCL: cannot create a context on " + s.description + ": " + clText(e));
  context_ = ctx;
  // In order, so that the read-back enqueued after the kernel's work runs after it.
  cl_command_queue q = clCreateCommandQueue(ctx, s.device, 0, &e);
  if (e != CL_SUCCESS) throw BackendError("OpenCL: cannot create the kernel's command queue: " + clText(e));
  queue_ = q;
  kernel_ = loadKernelLibrary(prepared, entry);
}

void* OpenClBackend::allocate(size_t bytes) {
  auto* b = new ClBuffer;
  b->bytes = bytes;
  cl_int e = CL_SUCCESS;
  // align_ spare bytes: view() moves the checker's bytes so that the view's origin is aligned.
  b->mem = clCreateBuffer(static_cast<cl_context>(context_), CL_MEM_READ_WRITE, bytes + align_, nullptr, &e);
  if (e != CL_SUCCESS) {
    delete b;
    throw BackendError("OpenCL: cannot allocate " + std::to_string(bytes) + " bytes: " + clText(e));
  }
  return b;
}

void OpenClBackend::release(void* buffer) {
  auto* b = static_cast<ClBuffer*>(buffer);
  if (!b) return;
  if (b->sub) clReleaseMemObject(b->sub);
  if (b->mem) clReleaseMemObject(b->mem);
  delete b;
}

void* OpenClBackend::view(void* buffer, size_t byteOffset) {
  auto* b = static_cast<ClBuffer*>(buffer);
  if (byteOffset >= b->bytes) throw BackendError("OpenCL: a view starts past the end of its buffer");
  b->shift = (align_ - byteOffset % align_) % align_;
  // The sub-buffer runs to the end of the buffer: a kernel writing past the view reaches the
  // trailing canary, as it would on the other backends.
  cl_buffer_region region{b->shift + byteOffset, b->bytes - byteOffset};
  cl_int e = CL_SUCCESS;
  if (b->sub) clReleaseMemObject(b->sub);
  b->sub = clCreateSubBuffer(b->mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
  if (e != CL_SUCCESS) throw BackendError("OpenCL: cannot create the view's sub-buffer: " + clText(e));
  return b->sub;
}

void OpenClBackend::copyIn(void* device, const void* host, size_t bytes) {
  if (!pendingFault_.empty()) return;
  auto* b = static_cast<ClBuffer*>(device);
  cl_int e = clEnqueueWriteBuffer(static_cast<cl_command_queue>(queue_), b->mem, CL_TRUE, b->shift, bytes, host, 0,
                                  nullptr, nullptr);
  if (e != CL_SUCCESS) throw BackendError("OpenCL: copying " + std::to_string(bytes) + " bytes to the device failed: " + clText(e));
}

void OpenClBackend::copyOut(void* host, const void* device, size_t bytes) {
  if (!pendingFault_.empty()) return;
  auto* b = static_cast<const ClBuffer*>(device);
  // In order after the kernel's work on the same queue (and synchronize() ran clFinish on it).
  cl_int e = clEnqueueReadBuffer(static_cast<cl_command_queue>(queue_), b->mem, CL_TRUE, b->shift, bytes, host, 0,
                                 nullptr, nullptr);
  if (e == CL_SUCCESS) return;
  if (e == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || e == CL_OUT_OF_RESOURCES) {
    pendingFault_ = "reading the outputs back failed: " + clText(e);
    return;
  }
  throw BackendError("OpenCL: copying " + std::to_string(bytes) + " bytes from the device failed: " + clText(e));
}

void OpenClBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  if (pattern.empty() || bytes == 0) return;
  std::vector<uint8_t> host(bytes / pattern.size() * pattern.size());
  for (size_t i = 0; i < host.size(); i += pattern.size()) std::memcpy(host.data() + i, pattern.data(), pattern.size());
  copyIn(device, host.data(), host.size());
}

int OpenClBackend::launch(kc_tensor* args, int32_t nargs) {
  if (!pendingFault_.empty()) return 0;
  return kernel_.entry(args, nargs, queue_);
}

void OpenClBackend::synchronize() {
  if (!pendingFault_.empty() || !queue_) return;
  // The kernel's queue only: work a kernel put on a queue of its own is not waited for.
  cl_int e = clFinish(static_cast<cl_command_queue>(queue_));
  if (e != CL_SUCCESS) pendingFault_ = "clFinish of the kernel's queue failed: " + clText(e);
}

std::string OpenClBackend::fault() { return pendingFault_; }

}  // namespace kc::backend

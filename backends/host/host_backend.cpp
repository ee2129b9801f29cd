#include "backends/host/host_backend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "backends/host/compile_cache.h"
#include "stdlib/stdlib_path.h"

namespace kc::backend {

namespace fs = std::filesystem;

HostBackend::~HostBackend() {
  // The library stays loaded: a kernel may have registered atexit handlers or threads.
}

Availability HostBackend::probe() {
  Availability a;
  a.available = true;
  a.device = "host (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
  return a;
}

Prepared HostBackend::prepare(const KernelRef& kernel) {
  std::string ext = fs::path(kernel.path).extension().string();
  if (ext == ".so") {
    if (!fs::is_regular_file(kernel.path)) throw BackendError("no kernel library '" + kernel.path + "'");
    return {kernel.path, true};
  }
  bool cpp = ext == ".cpp" || ext == ".cc" || ext == ".cxx";
  if (ext != ".c" && !cpp)
    throw BackendError("the host backend builds .c and .cpp sources or loads .so files; not '" + kernel.path + "'");
  std::string include = (fs::path(stdlib::sourceRoot()) / "include").string();
  CompileRequest r;
  r.source = kernel.path;
  r.kind = "host";
  const char* cc = std::getenv(cpp ? "CXX" : "CC");
  r.command = {cc && *cc ? cc : (cpp ? "c++" : "cc"), cpp ? "-std=c++17" : "-std=c11", "-O2", "-fPIC", "-shared",
               "-I" + include};
  r.extraKeyFiles = {include + "/kcontract/abi.h"};
  CompileResult built = compileCached(r);
  return {built.library, built.cached};
}

void HostBackend::load(const Prepared& prepared, const std::string& entry) {
  // RTLD_LOCAL: two kernels with the same helper names never see each other's symbols.
  library_ = dlopen(prepared.artefact.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library_) throw BackendError(std::string("cannot load '") + prepared.artefact + "': " + dlerror());
  entry_ = reinterpret_cast<kc_entry_fn>(dlsym(library_, entry.c_str()));
  if (!entry_) throw BackendError("'" + prepared.artefact + "' has no entry point '" + entry + "'");
}

void* HostBackend::allocate(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (!p) throw BackendError("out of host memory allocating " + std::to_string(bytes) + " bytes");
  return p;
}

void HostBackend::release(void* buffer) { std::free(buffer); }

void HostBackend::copyIn(void* device, const void* host, size_t bytes) { std::memcpy(device, host, bytes); }

void HostBackend::copyOut(void* host, const void* device, size_t bytes) { std::memcpy(host, device, bytes); }

void HostBackend::fill(void* device, const std::vector<uint8_t>& pattern, size_t bytes) {
  auto* d = static_cast<uint8_t*>(device);
  size_t n = pattern.size();
  for (size_t i = 0; i + n <= bytes; i += n) std::memcpy(d + i, pattern.data(), n);
}

int HostBackend::launch(kc_tensor* args, int32_t nargs) {
  noise_.start(launches_++);
  int rc = entry_(args, nargs, nullptr);
  noise_.stop();
  return rc;
}

}  // namespace kc::backend

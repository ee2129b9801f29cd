#include "backends/host/host_backend.h"

#include <filesystem>
#include <thread>

#include "backends/host/compile_cache.h"
#include "backends/kernel_library.h"

namespace kc::backend {

namespace fs = std::filesystem;

Availability HostBackend::probe() {
  Availability a;
  a.available = true;
  a.device = "host (" + std::to_string(std::thread::hardware_concurrency()) + " threads)";
  return a;
}

Prepared HostBackend::prepare(const KernelRef& kernel) {
  if (auto prebuilt = prebuiltLibrary(kernel)) return *prebuilt;
  bool cpp = isCppHostSource(kernel, "the host backend builds .c and .cpp sources or loads .so files");
  std::string include = abiIncludeDir();
  CompileRequest r;
  r.source = kernel.path;
  r.kind = "host";
  r.command = hostCompilerCommand(cpp, include);
  r.extraKeyFiles = {include + "/kcontract/abi.h"};
  CompileResult built = compileCached(r);
  return {built.library, built.cached};
}

void HostBackend::load(const Prepared& prepared, const std::string& entry) {
  kernel_ = loadKernelLibrary(prepared, entry);
}

int HostBackend::launch(kc_tensor* args, int32_t nargs) {
  noise_.start(launches_++);
  int rc = kernel_.entry(args, nargs, nullptr);
  noise_.stop();
  return rc;
}

}  // namespace kc::backend

#pragma once
// Building and loading a kernel's shared library: what the backends that call a C entry point
// in-process (host, CUDA, OpenCL) share. The build itself goes through the compile cache
// (host/compile_cache.h).
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.h"

namespace kc::backend {

// A prebuilt kernel: `kernel` itself when its path ends in .so (throws BackendError when there
// is no such file); nullopt for a source the backend builds.
std::optional<Prepared> prebuiltLibrary(const KernelRef& kernel);

// Whether a host source is C++ (.cpp, .cc, .cxx) rather than C (.c). Any other file throws
// BackendError: "`accepts`; not 'PATH'", `accepts` saying what the backend takes.
bool isCppHostSource(const KernelRef& kernel, const std::string& accepts);

// The folder that holds the ABI headers (kcontract/abi.h): include/ of the source tree.
std::string abiIncludeDir();

// The system compiler's command for a C or C++ host source: $CC or $CXX (else cc or c++), the
// language standard, -O2, -fPIC, -shared and `include` on the include path.
std::vector<std::string> hostCompilerCommand(bool cpp, const std::string& include);

// A kernel library opened RTLD_NOW | RTLD_LOCAL (two kernels with the same helper names never
// see each other's symbols), and its entry point. Throws BackendError.
struct KernelLibrary {
  void* handle = nullptr;
  kc_entry_fn entry = nullptr;
};
KernelLibrary loadKernelLibrary(const Prepared& prepared, const std::string& entry);

}  // namespace kc::backend

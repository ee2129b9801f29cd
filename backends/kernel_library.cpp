#include "backends/kernel_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "stdlib/data_root.h"

namespace kc::backend {

namespace fs = std::filesystem;

std::optional<Prepared> prebuiltLibrary(const KernelRef& kernel) {
  if (fs::path(kernel.path).extension().string() != ".so") return std::nullopt;
  if (!fs::is_regular_file(kernel.path)) throw BackendError("no kernel library '" + kernel.path + "'");
  return Prepared{kernel.path, true};
}

bool isCppHostSource(const KernelRef& kernel, const std::string& accepts) {
  std::string ext = fs::path(kernel.path).extension().string();
  bool cpp = ext == ".cpp" || ext == ".cc" || ext == ".cxx";
  if (ext != ".c" && !cpp) throw BackendError(accepts + "; not '" + kernel.path + "'");
  return cpp;
}

std::string abiIncludeDir() { return (fs::path(stdlib::dataDir()) / "include").string(); }

std::vector<std::string> hostCompilerCommand(bool cpp, const std::string& include) {
  const char* cc = std::getenv(cpp ? "CXX" : "CC");
  // -fmax-errors: a source written to flood the compiler stops after 20 errors.
  return {cc && *cc ? cc : (cpp ? "c++" : "cc"), cpp ? "-std=c++17" : "-std=c11", "-O2", "-fPIC", "-shared",
          "-fmax-errors=20", "-I" + include};
}

KernelLibrary loadKernelLibrary(const Prepared& prepared, const std::string& entry) {
  KernelLibrary lib;
  lib.handle = dlopen(prepared.artefact.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib.handle) throw BackendError(std::string("cannot load '") + prepared.artefact + "': " + dlerror());
  lib.entry = reinterpret_cast<kc_entry_fn>(dlsym(lib.handle, entry.c_str()));
  if (!lib.entry) throw BackendError("'" + prepared.artefact + "' has no entry point '" + entry + "'");
  return lib;
}

}  // namespace kc::backend

#pragma once
// The backends' names: the one list. registry.cpp makes a backend of each (backend.h,
// makeBackend), the backends' name() return them, and sema checks a contract's
// `scope backends` against them (compiler/sema/contracts.cpp). Header only: sema uses it
// without linking the backends. Adding a backend: a constant and an entry of kBackendNames
// here, its case in registry.cpp's makeBackend (docs/backends.md).
#include <array>
#include <string>
#include <string_view>

namespace kc::backend {

inline constexpr char kHostBackend[] = "host";
inline constexpr char kCudaBackend[] = "cuda";
inline constexpr char kOpenClBackend[] = "opencl";
inline constexpr char kExecBackend[] = "exec";
inline constexpr char kPtxBackend[] = "ptx";

// In the order messages list them.
inline constexpr std::array<std::string_view, 5> kBackendNames = {kHostBackend, kCudaBackend, kOpenClBackend, kExecBackend,
                                                                 kPtxBackend};

inline bool isBackendName(std::string_view name) {
  for (std::string_view n : kBackendNames)
    if (n == name) return true;
  return false;
}

// "host, cuda, opencl, exec and ptx".
inline std::string backendNamesText() {
  std::string s;
  for (size_t i = 0; i < kBackendNames.size(); ++i)
    s += std::string(i == 0 ? "" : i + 1 == kBackendNames.size() ? " and " : ", ") + std::string(kBackendNames[i]);
  return s;
}

}  // namespace kc::backend

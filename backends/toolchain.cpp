#include "backends/toolchain.h"

#include <unistd.h>

#include <cstdlib>

namespace kc::backend {

std::string nvccPath() {
  if (const char* c = std::getenv("CUDACXX"); c && *c) return c;
  if (access("/usr/local/cuda/bin/nvcc", X_OK) == 0) return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

}  // namespace kc::backend

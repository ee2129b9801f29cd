#pragma once
// Where the compilers kcontract runs are: one answer for every backend and for the compiled
// oracle (checker/device_oracle), so CUDACXX means the same to all of them.
#include <string>

namespace kc::backend {

// $CUDACXX when set, else /usr/local/cuda/bin/nvcc when executable, else "nvcc" (on PATH).
std::string nvccPath();

}  // namespace kc::backend

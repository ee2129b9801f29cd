#pragma once
// A generated fill (backend.h, GeneratedFill) as the CUDA support kernels take it
// (cuda/support/kc_cuda_support.h, kcs_gen). Shared by the CUDA backend, which calls the
// kernels itself, and the exec backend, which sends the fields to an adaptor that calls the
// same kernels on its own device memory, so both generate the same bits as the host.
#include <optional>

#include "backends/backend.h"
#include "backends/cuda/support/kc_cuda_support.h"

namespace kc::backend {

// nullopt when the support kernels cannot reproduce the fill bit for bit (special values,
// a distribution they lack): the caller generates it on the host instead.
std::optional<kcs_gen> supportFill(const GeneratedFill& g);

}  // namespace kc::backend

#pragma once
// The default device-side checks of Backend (backend.h: fillGenerated, countPattern,
// compareBitwise) work on any backend by streaming chunks through copyIn / copyOut, so the
// host, OpenCL and exec backends run the streamed case path unchanged. Host memory stays at
// a few chunks whatever the buffer's size.
#include <cstddef>
#include <cstdint>

#include "stdlib/numerics/dtype.h"

namespace kc::backend {

// Elements per chunk of the streamed defaults.
inline constexpr size_t kStreamChunkElements = size_t{1} << 22;

// The bytes of one element of dtype `t` holding `v` (already representable in `t`): the
// same bytes the checker's input storage holds (checker/run/case_setup.cpp).
void encodeElement(numerics::DType t, double v, uint8_t* out);

}  // namespace kc::backend

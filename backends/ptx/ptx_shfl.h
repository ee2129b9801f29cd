#pragma once
// shfl.sync's source lane (PTX ISA, "shfl.sync"), one rule for the concrete scheduler
// (ptx_cta.cpp) and the symbolic run (prover/kernel/sym_exec.cpp): from the lane, the mode,
// b (the offset or index) and c (the clamp in bits 0-4, the segment mask in bits 8-12).
#include <cstdint>

#include "backends/ptx/ptx_ir.h"

namespace kc::ptx {

struct ShflSource {
  uint32_t lane;  // the lane read: the thread's own when the source is out of range
  bool inRange;   // the predicate shfl.sync writes
};

inline ShflSource shflSource(ShflMode mode, uint32_t lane, uint32_t b, uint32_t c) {
  b &= 31;
  const uint32_t segmask = (c >> 8) & 31, clamp = c & 31;
  const uint32_t maxLane = (lane & segmask) | (clamp & ~segmask), minLane = lane & segmask;
  int64_t j = lane;
  bool ok = false;
  switch (mode) {
    case ShflMode::Up: j = static_cast<int64_t>(lane) - b; ok = j >= static_cast<int64_t>(maxLane); break;
    case ShflMode::Down: j = lane + b; ok = j <= static_cast<int64_t>(maxLane); break;
    case ShflMode::Bfly: j = lane ^ b; ok = j <= static_cast<int64_t>(maxLane); break;
    case ShflMode::Idx: j = minLane | (b & ~segmask); ok = j <= static_cast<int64_t>(maxLane); break;
  }
  return {ok ? static_cast<uint32_t>(j) : lane, ok};
}

}  // namespace kc::ptx

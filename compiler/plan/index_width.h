#pragma once
// The index-width thresholds, one definition for the planner (plan_large_index.cpp: the
// large-index cases) and the obligations (obligations.cpp: index-width-31/32, which prove
// judges against the plan). A 32-bit signed element index first wraps at index 2^31
// (INT32_MAX + 1), an unsigned one at 2^32 (UINT32_MAX + 1): a tensor shows the wrap when it
// holds an element at that index, that is more than 2^31 (2^32) elements. A tensor of exactly
// 2^31 elements has no index a signed 32-bit index cannot hold.
#include <cstdint>

namespace kc::plan {

inline constexpr uint64_t kIndexWidth31 = uint64_t{1} << 31;  // the first index past INT32_MAX
inline constexpr uint64_t kIndexWidth32 = uint64_t{1} << 32;  // the first index past UINT32_MAX

// The threshold of a 31-bit (signed) or 32-bit (unsigned) index.
constexpr uint64_t indexWidthLimit(int bits) { return bits == 31 ? kIndexWidth31 : kIndexWidth32; }

// The class whose failures the large-index cases are made to show: on a contract that
// applies it, those cases are its (plan::Case::origins), so `index-overflow` names them.
inline constexpr char kIndexWidthClass[] = "std.mem.index-width@1";

// Whether a tensor of `elements` elements holds an index a `bits`-bit index cannot hold.
constexpr bool passesIndexWidth(uint64_t elements, int bits) { return elements > indexWidthLimit(bits); }

}  // namespace kc::plan

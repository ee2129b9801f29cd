#pragma once
#include <array>
#include <cstdint>

namespace kc::values {

// Philox4x32-10 (Salmon, Moraes, Dror, Shaw, "Parallel Random Numbers: As Easy as 1, 2, 3",
// SC'11): a keyed bijection of a 128-bit counter, so the i-th random block is computed
// directly from i with no sequential state. Matches Random123's philox4x32 with 10 rounds.
using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

}  // namespace kc::values

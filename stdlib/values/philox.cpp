#include "stdlib/values/philox.h"

namespace kc::values {
namespace {

// Multipliers and Weyl key increments from the Philox paper (the increments are the golden
// ratio and of sqrt(3) in 0.32 fixed point).
constexpr std::uint32_t kMul0 = 0xD2511F53, kMul1 = 0xCD9E8D57;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9, kWeyl1 = 0xBB67AE85;

PhiloxCounter round(const PhiloxCounter& c, const PhiloxKey& k) {
  std::uint64_t p0 = static_cast<std::uint64_t>(kMul0) * c[0];
  std::uint64_t p1 = static_cast<std::uint64_t>(kMul1) * c[2];
  return {static_cast<std::uint32_t>(p1 >> 32) ^ c[1] ^ k[0], static_cast<std::uint32_t>(p1),
          static_cast<std::uint32_t>(p0 >> 32) ^ c[3] ^ k[1], static_cast<std::uint32_t>(p0)};
}

}  // namespace

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      key[0] += kWeyl0;
      key[1] += kWeyl1;
    }
    counter = round(counter, key);
  }
  return counter;
}

}  // namespace kc::values

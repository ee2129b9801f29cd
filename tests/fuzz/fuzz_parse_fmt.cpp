// libFuzzer target: any input may fail to parse, but nothing may crash, and every input
// that parses must satisfy the formatter's round-trip property (roundtrip.h).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/fuzz/big_stack.h"
#include "tests/fuzz/roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;  // -max_len=1048576 (scripts/fuzz.sh)
  std::string failure;
  kc::fuzz::onBigStack([&] { failure = kc::fuzz::roundTripFailure(std::string(reinterpret_cast<const char*>(data), size)); });
  if (!failure.empty()) {
    std::fprintf(stderr, "fuzz_parse_fmt: %s\n", failure.c_str());
    std::abort();
  }
  return 0;
}

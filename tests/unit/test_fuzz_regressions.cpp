// Replays every fuzzer crasher (tests/fuzz/regressions/) and every golden input through
// the fuzzer's property, so a fixed crash stays fixed in CI without libFuzzer.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/fuzz/roundtrip.h"

namespace fs = std::filesystem;

TEST_CASE("fuzz regressions and golden inputs keep the fmt round-trip property", "[fuzz]") {
  size_t checked = 0;
  for (const char* dir : {"tests/fuzz/regressions", "tests/golden/parse", "tests/golden/fmt", "examples"}) {
    fs::path root = fs::path(KC_SOURCE_DIR) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.path().extension() != ".kcontract") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      INFO(entry.path().string());
      CHECK(kc::fuzz::roundTripFailure(text.str()) == "");
      ++checked;
    }
  }
  REQUIRE(checked >= 2);
}

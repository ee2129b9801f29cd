// Philox4x32-10 against the known-answer vectors of Random123 (tests/kat_vectors, the three
// "philox4x32 10" lines: counter, key, expected output). They pin the exact function, so any
// change to a multiplier, a key increment or the round structure fails here.
#include <catch2/catch.hpp>

#include "stdlib/values/philox.h"

using kc::values::philox4x32_10;
using kc::values::PhiloxCounter;
using kc::values::PhiloxKey;

TEST_CASE("philox4x32-10 matches the Random123 known answers", "[philox]") {
  struct Kat {
    PhiloxCounter counter;
    PhiloxKey key;
    PhiloxCounter expected;
  };
  const Kat kats[] = {
      {{0x00000000, 0x00000000, 0x00000000, 0x00000000},
       {0x00000000, 0x00000000},
       {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) CHECK(philox4x32_10(k.counter, k.key) == k.expected);
}

TEST_CASE("philox4x32-10 depends on every counter and key word", "[philox]") {
  const PhiloxCounter c = {1, 2, 3, 4};
  const PhiloxKey k = {5, 6};
  const PhiloxCounter base = philox4x32_10(c, k);
  for (int i = 0; i < 4; ++i) {
    PhiloxCounter changed = c;
    changed[i] ^= 1;
    CHECK(philox4x32_10(changed, k) != base);
  }
  for (int i = 0; i < 2; ++i) {
    PhiloxKey changed = k;
    changed[i] ^= 1;
    CHECK(philox4x32_10(c, changed) != base);
  }
}

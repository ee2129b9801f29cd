// The run's marks (checker/run/marks.h): poison, canaries and names drawn per run from the
// seed. Two seeds give different marks, the same seed the same; poison stays a signalling
// NaN per float dtype, never the old fixed pattern.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "checker/run/case_setup.h"
#include "checker/run/marks.h"
#include "checker/repro.h"

using kc::numerics::DType;
using namespace kc::run;

namespace {

uint64_t bitsOf(const std::vector<uint8_t>& p) {
  uint64_t v = 0;
  std::memcpy(&v, p.data(), p.size());
  return v;
}

}  // namespace

TEST_CASE("marks: the same seed gives the same marks, two seeds different ones", "[marks]") {
  const uint64_t a = marksKey(0, 1234, 7), b = marksKey(0, 1234, 7);
  CHECK(a == b);
  CHECK(poisonPattern(DType::F32, a) == poisonPattern(DType::F32, b));
  CHECK(canaryPattern(a) == canaryPattern(b));
  CHECK(markName(a, MarkName::Title) == markName(b, MarkName::Title));
  // Another base seed, case seed or case: another key, and other bytes.
  for (uint64_t other : {marksKey(1, 1234, 7), marksKey(0, 1235, 7), marksKey(0, 1234, 8)}) {
    CHECK(other != a);
    CHECK(poisonPattern(DType::F32, other) != poisonPattern(DType::F32, a));
    CHECK(poisonPattern(DType::F64, other) != poisonPattern(DType::F64, a));
    CHECK(canaryPattern(other) != canaryPattern(a));
    CHECK(markName(other, MarkName::Mapping) != markName(a, MarkName::Mapping));
  }
  // Over many keys the f32 poison takes many values, never the old 0x7FA5A5A5.
  std::set<uint64_t> f32, f16, i32;
  for (uint64_t s = 0; s < 2000; ++s) {
    const uint64_t k = marksKey(0, s, 1);
    f32.insert(bitsOf(poisonPattern(DType::F32, k)));
    f16.insert(bitsOf(poisonPattern(DType::F16, k)));
    i32.insert(bitsOf(poisonPattern(DType::I32, k)));
  }
  CHECK(f32.size() > 1990);
  CHECK(f16.size() > 500);
  CHECK(i32.size() > 100);
  CHECK_FALSE(f32.count(0x7FA5A5A5u));
  CHECK_FALSE(f16.count(0x7DA5u));
  CHECK_FALSE(i32.count(0xA5A5A5A5u));
}

TEST_CASE("marks: float poison is a signalling NaN, integer poison a repeated byte", "[marks]") {
  for (uint64_t s = 0; s < 500; ++s) {
    const uint64_t k = marksKey(3, s, 2);
    const uint64_t f32 = bitsOf(poisonPattern(DType::F32, k));
    CHECK((f32 & 0x7F800000u) == 0x7F800000u);  // exponent all ones
    CHECK((f32 & 0x00400000u) == 0);            // quiet bit clear: signalling
    CHECK((f32 & 0x003FFFFFu) != 0);            // a payload: not an infinity
    float v;
    std::memcpy(&v, &f32, 4);
    CHECK(std::isnan(v));
    CHECK(bitsOf(poisonPattern(DType::TF32, k)) == f32);
    const uint64_t f64 = bitsOf(poisonPattern(DType::F64, k));
    CHECK((f64 & 0x7FF0000000000000ull) == 0x7FF0000000000000ull);
    CHECK((f64 & 0x0008000000000000ull) == 0);
    CHECK((f64 & 0x0007FFFFFFFFFFFFull) != 0);
    const uint64_t f16 = bitsOf(poisonPattern(DType::F16, k));
    CHECK((f16 & 0x7C00u) == 0x7C00u);
    CHECK((f16 & 0x0200u) == 0);
    CHECK((f16 & 0x01FFu) != 0);
    const uint64_t bf16 = bitsOf(poisonPattern(DType::BF16, k));
    CHECK((bf16 & 0x7F80u) == 0x7F80u);
    CHECK((bf16 & 0x0040u) == 0);
    CHECK((bf16 & 0x003Fu) != 0);
    CHECK((bitsOf(poisonPattern(DType::F8E4M3, k)) & 0x7Fu) == 0x7Fu);
    CHECK((bitsOf(poisonPattern(DType::F8E5M2, k)) & 0x7Fu) == 0x7Du);
    const std::vector<uint8_t> i64 = poisonPattern(DType::I64, k);
    REQUIRE(i64.size() == 8);
    for (uint8_t b : i64) CHECK(b == i64[0]);
    CHECK(i64[0] >= 0x81);
    CHECK(i64[0] != 0xA5);
    CHECK(i64[0] != 0xFF);
  }
}

TEST_CASE("marks: a case's storage and images carry its run's marks", "[marks]") {
  ArgSpec out;
  out.name = "y";
  out.output = true;
  out.dtype = DType::F32;
  out.shape = {4};
  out.strides = {1};
  out.storage = 4;
  CaseSetup s;
  s.args = {out};
  setMarks(s, marksKey(0, 99, 1));
  CHECK(s.args[0].marks == s.marks);
  const std::vector<uint8_t> p = poisonOf(s.args[0]);
  CHECK(p == poisonPattern(DType::F32, s.marks));
  std::vector<uint8_t> st(16);
  for (size_t i = 0; i < 16; i += 4) std::memcpy(&st[i], p.data(), 4);
  CHECK(isPoison(s.args[0], st.data(), 2));
  const uint32_t old = 0x7FA5A5A5u;  // the old fixed poison is an ordinary written value now
  std::memcpy(&st[8], &old, 4);
  CHECK_FALSE(isPoison(s.args[0], st.data(), 2));
  // Leading and trailing canaries differ, and nothing of them is fixed.
  const std::vector<uint8_t> c = canaryPattern(s.marks);
  REQUIRE(c.size() == 2 * kCanaryBytes);
  CHECK(std::memcmp(c.data(), c.data() + kCanaryBytes, kCanaryBytes) != 0);
  CHECK_FALSE((c[0] == 0xC3 && c[1] == 0x3C && c[2] == 0x5A && c[3] == 0xA5));
}

TEST_CASE("marks: the reproducer records the key, and reads it back", "[marks]") {
  kc::check::Repro r;
  r.file = "f.kcontract";
  r.contract = "acme.relu@1";
  r.caseNumber = 3;
  r.impl = "relu.c";
  r.entry = "kc_relu";
  r.backend = "host";
  r.inputs = "fnv1a64:0123456789abcdef";
  r.marks = formatMarks(marksKey(5, 6, 3));
  const std::string line = kc::check::formatRepro(r);
  CHECK(line.find(" marks=" + r.marks) != std::string::npos);
  std::string error;
  auto back = kc::check::parseRepro(line, error);
  REQUIRE(back);
  CHECK(back->marks == r.marks);
  CHECK(parseMarks(back->marks) == marksKey(5, 6, 3));
  CHECK_FALSE(kc::check::parseRepro("file=f contract=c case=1 seed-index=0 base-seed=0 impl=a:b backend=host inputs=- marks=xyz", error));
  CHECK(error == "marks= is 16 hex digits; not 'xyz'");
}

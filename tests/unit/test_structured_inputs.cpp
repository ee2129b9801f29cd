// run/structured_inputs.h: inputs that meet a precondition by construction.
#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "checker/run/structured_inputs.h"

using kc::numerics::DType;
using kc::run::applyStructure;
using kc::sema::ProtocolValue;

namespace {

ProtocolValue named(const std::string& name) {
  ProtocolValue v;
  v.kind = ProtocolValue::Kind::Name;
  v.name = name;
  return v;
}

ProtocolValue triangular(const std::string& side) {
  ProtocolValue v;
  v.kind = ProtocolValue::Kind::Call;
  v.name = "triangular";
  v.args.emplace_back("", std::vector<ProtocolValue>{named(side)});
  return v;
}

std::vector<double> ramp(size_t n) {
  std::vector<double> c(n);
  for (size_t i = 0; i < n; ++i) c[i] = static_cast<double>((i * 7) % 11) - 5.0;
  return c;
}

}  // namespace

TEST_CASE("structured inputs: sorted sorts each row of the last dim") {
  std::vector<double> c = ramp(12);
  applyStructure(named("sorted"), {3, 4}, DType::F32, 1, 0, 1, c);
  for (size_t r = 0; r < 3; ++r) CHECK(std::is_sorted(c.begin() + r * 4, c.begin() + r * 4 + 4));
}

TEST_CASE("structured inputs: one_hot leaves one 1 per row, the same for the same seed") {
  std::vector<double> a = ramp(5 * 9), b = ramp(5 * 9);
  applyStructure(named("one_hot"), {5, 9}, DType::F32, 7, 2, 1, a);
  applyStructure(named("one_hot"), {5, 9}, DType::F32, 7, 2, 2, b);  // the thread count changes nothing
  CHECK(a == b);
  for (size_t r = 0; r < 5; ++r) {
    CHECK(std::count(a.begin() + r * 9, a.begin() + r * 9 + 9, 1.0) == 1);
    CHECK(std::count(a.begin() + r * 9, a.begin() + r * 9 + 9, 0.0) == 8);
  }
}

TEST_CASE("structured inputs: triangular zeroes one side of each matrix's diagonal") {
  std::vector<double> lo = ramp(2 * 3 * 3), up = lo;
  for (double& x : lo) x = x == 0 ? 1 : x;
  up = lo;
  applyStructure(triangular("lower"), {2, 3, 3}, DType::F32, 1, 0, 1, lo);
  applyStructure(triangular("upper"), {2, 3, 3}, DType::F32, 1, 0, 1, up);
  for (size_t m = 0; m < 2; ++m)
    for (size_t i = 0; i < 3; ++i)
      for (size_t j = 0; j < 3; ++j) {
        CHECK((lo[m * 9 + i * 3 + j] == 0) == (j > i));
        CHECK((up[m * 9 + i * 3 + j] == 0) == (j < i));
      }
}

TEST_CASE("structured inputs: positive_definite is symmetric with a dominant diagonal on average, and square only") {
  std::vector<double> c = ramp(4 * 4);
  applyStructure(named("positive_definite"), {4, 4}, DType::F64, 1, 0, 1, c);
  for (size_t i = 0; i < 4; ++i) {
    CHECK(c[i * 4 + i] >= 1.0);
    for (size_t j = 0; j < 4; ++j) CHECK(c[i * 4 + j] == c[j * 4 + i]);
  }
  // x^T A x > 0 for a few x: B B^T / n + I has every eigenvalue >= 1.
  for (int s = 0; s < 3; ++s) {
    double q = 0, xx = 0;
    for (size_t i = 0; i < 4; ++i)
      for (size_t j = 0; j < 4; ++j) q += (double(i) - s) * c[i * 4 + j] * (double(j) - s);
    for (size_t i = 0; i < 4; ++i) xx += (double(i) - s) * (double(i) - s);
    CHECK(q >= xx * (1 - 1e-12));
  }
  std::vector<double> wide = ramp(2 * 3);
  CHECK_THROWS_WITH(applyStructure(named("positive_definite"), {2, 3}, DType::F64, 1, 0, 1, wide),
                    "positive_definite needs square matrices in the last two dims; this case has 2 x 3");
}

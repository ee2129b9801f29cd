// The f64 oracle's own error, bounded (checker/oracle/interval_evaluator.h, boundCells):
// on sampled cells of softmax, layernorm (large means), matmul and attention, the f64 value
// and the MPFR-256 value both lie in the cell's enclosure, so |f64 - exact| <= bound, and
// the bound is small. Also: the check fails on a perturbed f64 value, an order-dependent
// sum is enclosed in either order, and an undecided condition takes both branches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compiled_contract.h"
#include "checker/oracle/evaluator.h"
#include "checker/oracle/interval_evaluator.h"
#include "checker/oracle/mpfr_evaluator.h"
#include "compiler/pipeline.h"
#include "stdlib/values/fill.h"

namespace {

namespace ko = kc::oracle;
namespace kv = kc::values;
using kc::numerics::DType;

using kc::test::Compiled;
using kc::test::compileContract;

std::unique_ptr<Compiled> compileExample(const std::string& name) {
  auto p = std::make_unique<Compiled>();
  kc::compile(p->c, {std::string(KC_SOURCE_DIR) + "/examples/" + name + ".kcontract"}, kc::Stage::Sema);
  REQUIRE_FALSE(p->c.diags.hasErrors());
  for (const auto& ct : p->c.program->contracts)
    if (!ct->isClass && ct->kernel) p->ct = ct.get();
  REQUIRE(p->ct != nullptr);
  return p;
}

// A tensor from the project's fills, rounded to f32 as a kernel's input would be.
ko::Tensor filled(std::vector<int64_t> shape, const kv::Distribution& dist, uint64_t seed, uint64_t id) {
  ko::Tensor t(std::move(shape));
  kv::fill({dist}, DType::F32, seed, id, t.data);
  return t;
}

// Up to n cells of a shape: every corner, then cells spread by a fixed LCG.
std::vector<ko::Cell> sampleCells(const std::vector<int64_t>& shape, size_t n = 32) {
  std::set<ko::Cell> cells;
  const size_t rank = shape.size();
  for (size_t m = 0; m < (size_t{1} << rank); ++m) {
    ko::Cell c(rank);
    for (size_t k = 0; k < rank; ++k) c[k] = (m >> k) & 1 ? shape[k] - 1 : 0;
    cells.insert(c);
  }
  uint64_t s = 0x9E3779B97F4A7C15ULL;
  for (size_t tries = 0; cells.size() < n && tries < 100 * n; ++tries) {
    ko::Cell c(rank);
    for (size_t k = 0; k < rank; ++k) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      c[k] = static_cast<int64_t>((s >> 33) % static_cast<uint64_t>(shape[k]));
    }
    cells.insert(c);
  }
  return {cells.begin(), cells.end()};
}

std::string cellText(const ko::Cell& c) {
  std::string s = "[";
  for (size_t k = 0; k < c.size(); ++k) s += (k ? ", " : "") + std::to_string(c[k]);
  return s + "]";
}

// Requires every cell inside its bound, the bound finite and at most maxRel * scale(cell)
// (the scale a relative measure makes sense against). Returns the largest bound / scale.
template <class Scale>
double requireBounded(const std::string& what, const std::vector<ko::CellBound>& bounds, double maxRel,
                      Scale scale) {
  double worst = 0;
  for (const auto& b : bounds) {
    INFO(what << cellText(b.cell) << ": f64 " << b.f64 << ", enclosure [" << b.enclosure.lo << ", "
              << b.enclosure.hi << "], MPFR " << b.text << ", bound " << b.bound);
    CHECK(b.f64Inside);
    CHECK(b.exactInside);
    CHECK(b.withinBound);
    CHECK(std::isfinite(b.bound));
    // What withinBound promises, checked on the doubles.
    CHECK(std::fabs(b.f64 - b.exact) <= b.bound * (1 + 1e-15));
    double s = scale(b);
    double rel = s > 0 ? b.bound / s : b.bound;
    CHECK(rel <= maxRel);
    worst = std::max(worst, rel);
  }
  // KC_BOUND_REPORT=1 prints the largest relative bound of each check (to choose thresholds).
  if (std::getenv("KC_BOUND_REPORT")) std::printf("%-28s %zu cells, largest bound/scale %.3g\n", what.c_str(),
                                                  bounds.size(), worst);
  return worst;
}

double relToValue(const ko::CellBound& b) { return std::fabs(b.f64); }

const char* kAttention = R"(kcontract 1

kernel attn(q: T[S, D], k: T[L, D], v: T[L, D]) -> (o: T[S, D])
  where T in {f32, bf16}, S in 1..4096, L in 1..4096, D in 1..256

contract t.attention@1 "single-head attention" {
  scope {
    kernel attn
  }
  oracle f64 {
    s[i, j] = sum(d, q[i, d] * k[j, d]) / sqrt(D)
    m[i] = max(j, s[i, j])
    e[i, j] = exp(s[i, j] - m[i])
    p[i, j] = e[i, j] / sum(j2, e[i, j2])
    o[i, d] = sum(j, p[i, j] * v[j, d])
  }
  tolerance {
    tol[i, d] = ulp(T, o*[i, d]) + gamma(L + D + 8, f32) * sum(j, p[i, j] * |v[j, d]|)
  }
  post {
    forall i, d: |o[i, d] - o*[i, d]| <= tol[i, d]
  }
}
)";

}  // namespace

// Thresholds: the bound is a worst case, about (number of roundings) * u (u = 2^-53) of the
// magnitudes involved: gamma_{n-1} ~ n u of a sum's |terms|, 5 ulps per libm call. Each
// limit is 10 n u for the longest sum n where that model is simple, else about 5x the
// largest bound seen on these inputs (KC_BOUND_REPORT=1 prints them), so a bound that grew
// loose by an order of magnitude fails.
constexpr double kU = 0x1p-53;

TEST_CASE("oracle bound: softmax cells are enclosed with a small bound", "[oracle][mpfr][bound]") {
  auto p = compileExample("softmax/softmax");
  const int64_t R = 6, H = 300;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  ko::Tensor x = filled({R, H}, kv::Normal{0, 1}, 1, 0);
  ko::Tensor hot = filled({R, H}, kv::Uniform{90, 120}, 1, 1);  // rows 3..5: exp overflows without the max
  std::copy(hot.data.begin() + 3 * H, hot.data.end(), x.data.begin() + 3 * H);
  b.inputs["x"] = x;
  auto r = ko::evalOracle(*p->ct, b);
  auto cells = sampleCells({R, H});
  REQUIRE(cells.size() == 32);
  // Relative to the value: every step of softmax has a small relative error, the row sum
  // gamma_{H-1} (seen: y 3.7e-14, e 1.5e-15 = exp's widening, tol 3.7e-14).
  requireBounded("softmax y", ko::boundCells(*p->ct, b, r, "y", cells), 10 * H * kU, relToValue);
  requireBounded("softmax e", ko::boundCells(*p->ct, b, r, "e", cells), 1e-14, relToValue);
  requireBounded("softmax tol", ko::boundCells(*p->ct, b, r, "tol", cells), 10 * H * kU, relToValue);
  // The row maximum is exact: an enclosure of one point.
  for (const auto& c : ko::boundCells(*p->ct, b, r, "m", {{0}, {5}})) {
    CHECK(c.bound == 0);
    CHECK(c.enclosure.lo == c.enclosure.hi);
  }
}

TEST_CASE("oracle bound: layernorm cells with large means (cancellation)", "[oracle][mpfr][bound]") {
  auto p = compileExample("layernorm/layernorm");
  const int64_t R = 4, H = 256;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["eps"] = ko::Tensor::scalar(1e-5);
  auto cells = sampleCells({R, H});
  // The mean's a-priori error is gamma_{H-1} sum |x| / H ~ H u |mean|; y = (x - mu) / sd
  // carries it divided by sd, so the cancellation shows as a bound ~ H u |mean| / sd against
  // y's scale 1 (3e-8 at |mean| / sd = 1e6: seen 6.6e-8 and 4.9e-8; 8.8e-14 for N(0, 1)).
  // Interval arithmetic also takes mu's error once per (x - mu)^2 term (it does not know the
  // deviations sum to 0), which costs sd about the same relative bound (seen 2.2e-8).
  // Limit: 10 H u max(1, max_r |mu_r| / sd_r).
  struct Case {
    std::string name;
    kv::Distribution dist;
  };
  for (const Case& c : {Case{"layernorm 1e4+N(0,1e-2)", kv::ShiftedRows{H, 1e4, 1e4 + 1, 1e-2}},
                        Case{"layernorm largeMeanRows", kv::largeMeanRows(H)}, Case{"layernorm N(0,1)", kv::Normal{0, 1}}}) {
    b.inputs["x"] = filled({R, H}, c.dist, 2, 0);
    auto r = ko::evalOracle(*p->ct, b);
    double ratio = 1;
    for (int64_t i = 0; i < R; ++i) ratio = std::max(ratio, std::fabs(r.oracle.at("mu")({i})) / r.oracle.at("sd")({i}));
    const double limit = 10 * H * kU * ratio;
    requireBounded(c.name + " y", ko::boundCells(*p->ct, b, r, "y", cells), limit,
                   [](const ko::CellBound&) { return 1.0; });
    requireBounded(c.name + " sd", ko::boundCells(*p->ct, b, r, "sd", {{0}, {1}, {2}, {3}}), limit, relToValue);
    requireBounded(c.name + " tol", ko::boundCells(*p->ct, b, r, "tol", cells), limit, relToValue);
  }
}

TEST_CASE("oracle bound: matmul cells", "[oracle][mpfr][bound]") {
  auto p = compileExample("matmul/matmul");
  const int64_t M = 40, K = 300, N = 33;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["a"] = filled({M, K}, kv::Normal{0, 1}, 3, 0);
  b.inputs["b"] = filled({K, N}, kv::Uniform{-1, 1}, 3, 1);
  auto r = ko::evalOracle(*p->ct, b);
  const auto& A = b.inputs["a"];
  const auto& B = b.inputs["b"];
  // c may cancel to near 0: its bound is measured against sum |a b|, where gamma_{K-1}
  // lives (K u = 3.3e-14; seen 3.3e-14, tol alike).
  auto magnitude = [&](const ko::CellBound& c) {
    double s = 0;
    for (int64_t k = 0; k < K; ++k) s += std::fabs(A({c.cell[0], k}) * B({k, c.cell[1]}));
    return s;
  };
  auto cells = sampleCells({M, N});
  requireBounded("matmul c / sum|ab|", ko::boundCells(*p->ct, b, r, "c", cells), 10 * K * kU, magnitude);
  requireBounded("matmul tol", ko::boundCells(*p->ct, b, r, "tol", cells), 10 * K * kU, relToValue);
}

TEST_CASE("oracle bound: attention cells", "[oracle][mpfr][bound]") {
  auto p = compileContract(kAttention);
  const int64_t S = 24, L = 40, D = 16;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["q"] = filled({S, D}, kv::Normal{0, 1}, 4, 0);
  b.inputs["k"] = filled({L, D}, kv::Normal{0, 1}, 4, 1);
  b.inputs["v"] = filled({L, D}, kv::Normal{0, 1}, 4, 2);
  auto r = ko::evalOracle(*p->ct, b);
  // o = sum_j p v can cancel: measured against max |v| (p sums to 1). p carries the error
  // of s = q.k / sqrt(D) through exp, taken twice by s - m, and the row sum's gamma_{L-1}
  // (seen: o 1.1e-14, p 3.3e-14, tol 3.8e-14).
  double vmax = 0;
  for (double v : b.inputs["v"].data) vmax = std::max(vmax, std::fabs(v));
  auto cells = sampleCells({S, D});
  requireBounded("attention o / max|v|", ko::boundCells(*p->ct, b, r, "o", cells), 1e-13,
                 [&](const ko::CellBound&) { return vmax; });
  requireBounded("attention p", ko::boundCells(*p->ct, b, r, "p", sampleCells({S, L})), 2e-13, relToValue);
  requireBounded("attention tol", ko::boundCells(*p->ct, b, r, "tol", cells), 2e-13, relToValue);
}

TEST_CASE("oracle bound: a perturbed f64 value fails the check", "[oracle][mpfr][bound]") {
  auto p = compileExample("softmax/softmax");
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = filled({3, 50}, kv::Normal{0, 2}, 5, 0);
  auto r = ko::evalOracle(*p->ct, b);
  std::vector<ko::Cell> cells = {{0, 0}, {1, 17}, {2, 49}};
  auto before = ko::boundCells(*p->ct, b, r, "y", cells);
  for (size_t k = 0; k < cells.size(); ++k) {
    REQUIRE(before[k].withinBound);
    REQUIRE(before[k].bound > 0);
    for (double sign : {1.0, -1.0}) {
      ko::OracleResult bad = r;
      bad.oracle.at("y").at(cells[k]) += sign * 1000 * before[k].bound;
      auto after = ko::boundCells(*p->ct, b, bad, "y", {cells[k]});
      CHECK_FALSE(after[0].f64Inside);
      CHECK(after[0].exactInside);  // the enclosure does not depend on the f64 value
      CHECK_FALSE(after[0].withinBound);
      CHECK(after[0].enclosure.lo == before[k].enclosure.lo);
      CHECK(after[0].enclosure.hi == before[k].enclosure.hi);
    }
  }
}

TEST_CASE("oracle bound: an order-dependent sum is enclosed in either order", "[oracle][mpfr][bound]") {
  auto p = compileContract(R"(kcontract 1

kernel s3(x: f64[N]) -> (s: f64)
  where N in 1..64

contract t.sum3@1 "a sum whose f64 value depends on the order" {
  scope {
    kernel s3
  }
  oracle f64 {
    s = sum(k, x[k])
  }
  post {
    s == s*
  }
}
)");
  // Left to right, 1e16 + 1 rounds to 1e16 (a tie, to even) and the sum is 0; with -1e16
  // second it is exactly 1, the exact value.
  std::vector<double> values;
  for (const auto& xs : {std::vector<double>{1e16, 1, -1e16}, std::vector<double>{1e16, -1e16, 1}}) {
    ko::Bindings b;
    b.inputs["x"] = ko::Tensor::of({3}, xs);
    auto r = ko::evalOracle(*p->ct, b);
    values.push_back(r.oracle.at("s")({}));
    auto bound = ko::boundCells(*p->ct, b, r, "s", {{}});
    REQUIRE(bound.size() == 1);
    const auto& c = bound[0];
    INFO("enclosure [" << c.enclosure.lo << ", " << c.enclosure.hi << "], f64 " << c.f64);
    CHECK(c.withinBound);
    CHECK(c.exact == 1);
    // gamma_2 (2e16 + 1) is about 4.4: both orders' values are inside, and not much more.
    CHECK(c.enclosure.contains(0));
    CHECK(c.enclosure.contains(1));
    CHECK(c.enclosure.hi - c.enclosure.lo < 10);
  }
  CHECK(values[0] == 0);
  CHECK(values[1] == 1);
}

TEST_CASE("oracle bound: functions, conditions, statistics and NaN", "[oracle][mpfr][bound]") {
  auto p = compileContract(R"(kcontract 1

kernel fx(x: f32[R, H]) -> (y: f32[R, H])
  where R in 1..64, H in 4..64

contract t.fns@1 "every builtin the interval evaluator knows" {
  scope {
    kernel fx
  }
  oracle f64 {
    a[r, h] = exp(x[r, h]) + log(|x[r, h]| + 1) + sqrt(|x[r, h]|) + tanh(x[r, h]) + erf(x[r, h]) + sigmoid(x[r, h])
    b[r, h] = sin(3 * x[r, h]) + cos(x[r, h]) + |x[r, h]|^1.5 + x[r, h]^3 + floor(x[r, h]) + ceil(x[r, h])
    c[r] = prod(h, 1 + x[r, h] / 8) + min(h, x[r, h]) + fmax(x[r, 0], x[r, 1]) + fmin(x[r, 2], 0.5)
    d[r, h] = if x[r, h] > 0.1 then 1 else 0
    g = max(x) + sum(x) + min(x)
    t[r, h] = ulp(f32, a[r, h]) + gamma(H, bf16) * |b[r, h]| + round(bf16, a[r, h]) + exp2(x[r, h]) + log2(|x[r, h]| + 2) + log10(|x[r, h]| + 3) + rsqrt(|x[r, h]| + 1)
    y[r, h] = a[r, h] * b[r, h] + c[r] + d[r, h] + g + t[r, h]
  }
  tolerance {
    tl = max(y*) + sum(y*)
  }
  post {
    forall r, h: y[r, h] == y*[r, h]
  }
}
)");
  const int64_t R = 3, H = 7;
  ko::Bindings b;
  ko::Tensor x = filled({R, H}, kv::Uniform{-3, 3}, 6, 0);
  x({0, 3}) = 0.1;         // x > 0.1 is false in f64 but true for the literal 0.1 exactly
  x({2, 5}) = NAN;         // row 2: NaN everywhere it flows
  b.inputs["x"] = x;
  auto r = ko::evalOracle(*p->ct, b);
  std::vector<ko::Cell> all2, all1;
  for (int64_t i = 0; i < R; ++i) {
    all1.push_back({i});
    for (int64_t h = 0; h < H; ++h) all2.push_back({i, h});
  }
  for (const char* def : {"a", "b", "d", "t", "y"})
    for (const auto& c : ko::boundCells(*p->ct, b, r, def, all2)) {
      INFO(def << cellText(c.cell) << ": f64 " << c.f64 << ", [" << c.enclosure.lo << ", " << c.enclosure.hi
               << "], MPFR " << c.text);
      CHECK(c.withinBound);
      // y reads g, NaN for sure; a comparison with NaN is false, so d is not NaN.
      bool certainNaN = std::string(def) == "y" || (std::string(def) != "d" && std::isnan(x.at(c.cell)));
      CHECK(c.enclosure.real == !certainNaN);
      if (certainNaN) {
        CHECK(std::isnan(c.f64));
        CHECK(c.bound == 0);
      }
    }
  for (const auto& c : ko::boundCells(*p->ct, b, r, "c", all1)) {
    INFO("c" << cellText(c.cell));
    CHECK(c.withinBound);
  }
  // g reads NaN (row 2) through max(x), sum(x) and min(x): NaN for sure, bound 0.
  auto g = ko::boundCells(*p->ct, b, r, "g", {{}});
  CHECK(std::isnan(g[0].f64));
  CHECK(g[0].bound == 0);
  CHECK(g[0].withinBound);
  // The undecided condition: f64 takes 0, the exact value is 1, the enclosure holds both.
  auto d = ko::boundCells(*p->ct, b, r, "d", {{0, 3}});
  CHECK(d[0].f64 == 0);
  CHECK(d[0].exact == 1);
  CHECK(d[0].withinBound);
  CHECK(d[0].bound == 1);
  // Without the NaN and the undecided condition (whose width y and tl would inherit); tl's
  // statistics of y* are enclosed from y's cells.
  x({2, 5}) = 0.75;
  x({0, 3}) = 0.5;
  b.inputs["x"] = x;
  auto r2 = ko::evalOracle(*p->ct, b);
  for (const char* def : {"g", "tl", "y"})
    for (const auto& c : ko::boundCells(*p->ct, b, r2, def, std::string(def) == "y" ? all2 : std::vector<ko::Cell>{{}})) {
      INFO(def << cellText(c.cell) << ": f64 " << c.f64 << ", [" << c.enclosure.lo << ", " << c.enclosure.hi << "]");
      CHECK(c.withinBound);
      CHECK(std::isfinite(c.bound));
      CHECK(c.relBound < 1e-12);
    }
}

TEST_CASE("oracle bound: libm results are allowed libmUlps ulps", "[oracle][bound]") {
  auto p = compileContract(R"(kcontract 1

kernel ex(x: f64[N]) -> (y: f64[N])
  where N in 1..64

contract t.exp@1 "libm calls" {
  scope {
    kernel ex
  }
  oracle f64 {
    y[i] = exp(x[i]) + tanh(x[i]) - tanh(x[i])
  }
  post {
    forall i: y[i] == y*[i]
  }
}
)");
  ko::Bindings b;
  b.inputs["x"] = ko::Tensor::of({3}, {0.5, -7.25, 300});
  auto r = ko::evalOracle(*p->ct, b);
  for (unsigned ulps : {0u, 4u}) {
    auto enc = ko::encloseCells(*p->ct, b, r, "y", {{0}, {1}, {2}}, {ulps});
    for (size_t i = 0; i < enc.size(); ++i) {
      double y = std::exp(b.inputs["x"].data[i]);
      INFO("ulps " << ulps << ", x " << b.inputs["x"].data[i] << ": [" << enc[i].lo << ", " << enc[i].hi << "]");
      // Both libm calls may be off by `ulps` ulps (and half an ulp to the exact value), in
      // either direction; the widening is (ulps + 1) 2^-52 |v| per call.
      double step = std::ldexp(1.0, std::ilogb(y) - 52);
      CHECK(enc[i].lo <= y - ulps * step);
      CHECK(enc[i].hi >= y + ulps * step);
      // Not much more: the width is a few ulps of the largest term (tanh is about 1).
      CHECK(enc[i].hi - enc[i].lo <= 8 * (ulps + 2) * std::ldexp(1.0, std::ilogb(std::max(y, 1.0)) - 52));
    }
  }
}


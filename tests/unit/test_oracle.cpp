// The oracle evaluators (checker/oracle): f64 definitions of the softmax, matmul and
// layernorm oracles against hand computations, explicit reduction ranges, NaN propagation,
// tolerances with ulp and gamma, postconditions that hold and fail, f64 against MPFR, and
// independence of the thread count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiled_contract.h"
#include "checker/oracle/evaluator.h"
#include "checker/oracle/mpfr_evaluator.h"
#include "compiler/pipeline.h"
#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"

namespace {

namespace ko = kc::oracle;
using kc::numerics::DType;

using kc::test::Compiled;
using kc::test::compileContract;

// Reproducible values in [lo, hi).
std::vector<double> values(size_t n, uint64_t seed, double lo = -3.0, double hi = 3.0) {
  std::vector<double> out(n);
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& v : out) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v = lo + (hi - lo) * static_cast<double>(s >> 11) / 9007199254740992.0;
  }
  return out;
}

const char* kSoftmax = R"(kcontract 1

kernel sm(x: T[R, H]) -> (y: T[R, H])
  where T in {f32, bf16}, R in 1..65536, H in 1..65536

contract t.softmax@1 "row softmax" {
  scope {
    kernel sm
  }
  oracle f64 {
    m[r] = max(h, x[r, h])
    e[r, h] = exp(x[r, h] - m[r])
    y[r, h] = e[r, h] / sum(k, e[r, k])
  }
  tolerance {
    tol[r, h] = ulp(T, y*[r, h]) + (H + 4) * eps(f32) * y*[r, h]
  }
  post {
    forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h]
    forall r, h: 0 <= y[r, h] <= 1
    forall r: |sum(h, y[r, h]) - 1| <= sum(h, tol[r, h])
  }
}
)";

const char* kMatmul = R"(kcontract 1

kernel mm(a: T[M, K], b: T[K, N]) -> (c: T[M, N])
  where T in {f32, bf16}, M in 1..4096, N in 1..4096, K in 1..4096

contract t.mm@1 "matrix product" {
  scope {
    kernel mm
  }
  oracle f64 {
    c[i, j] = sum(k, a[i, k] * b[k, j])
  }
  tolerance {
    tol[i, j] = gamma(K, f32) * sum(k, |a[i, k] * b[k, j]|) + ulp(T, c*[i, j])
  }
  post {
    forall i, j: |c[i, j] - c*[i, j]| <= tol[i, j]
  }
}
)";

const char* kLayernorm = R"(kcontract 1

kernel ln(x: T[R, H], eps: f32) -> (y: T[R, H])
  where T in {f32, bf16}, R in 1..65536, H in 1..16384

contract t.ln@1 "layer normalisation" {
  scope {
    kernel ln
  }
  oracle f64 {
    mu[r] = sum(h, x[r, h]) / H
    var[r] = sum(h, (x[r, h] - mu[r])^2) / H
    sd[r] = sqrt(var[r] + eps)
    y[r, h] = (x[r, h] - mu[r]) / sd[r]
  }
  tolerance {
    emu[r] = gamma(H, f32) * sum(k, |x[r, k]|) / H
    tol[r, h] = ulp(T, y*[r, h]) + gamma(2 * H + 8, f32) * |y*[r, h]| + 2 * emu[r] / sd*[r]
  }
  post {
    forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h]
  }
}
)";

const char* kMisc = R"(kcontract 1

kernel mk(x: f32[R, H]) -> (y: f32[R, H])
  where R in 1..64, H in 4..64

contract t.misc@1 "ranges, NaN and functions" {
  scope {
    kernel mk
  }
  oracle f64 {
    s[r] = sum(k in 1..3, x[r, k]) + prod(k in 0..1, x[r, k]) + min(k in 2..H - 1, x[r, k])
    m[r] = max(h, x[r, h])
    f[r, h] = fmax(x[r, h], 0.5) + fmin(x[r, h], 0.5)
    g = max(x)
    z = sum(r in 1..0, x[r, 0])
    q[r, h] = if x[r, h] > 0 then sqrt(x[r, h]) + log(x[r, h]) + tanh(x[r, h]) else sigmoid(x[r, h]) + erf(x[r, h])
    y[r, h] = round(bf16, x[r, h]) + floor(x[r, h]) + ceil(x[r, h])
    w[r, h] = x[r, h] * sum(k, x[k, h]) + sum(k in 0..h, x[r, k]) * sum(i, sum(j, x[i, j]))
  }
  post {
    exists r, h: isnan(x[r, h])
    forall r: isnan(m[r]) -> (exists h: isnan(x[r, h]))
  }
}
)";

ko::Bindings softmaxInputs(int64_t R, int64_t H, uint64_t seed) {
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = ko::Tensor::of({R, H}, values(static_cast<size_t>(R * H), seed));
  return b;
}

}  // namespace

TEST_CASE("oracle: softmax on a 3x5 input against a hand computation", "[oracle]") {
  auto p = compileContract(kSoftmax);
  ko::Bindings b;
  b.dtypes["T"] = DType::BF16;
  b.inputs["x"] = ko::Tensor::of({3, 5}, {1, 2, 3, 4, 5, -1, 0, 1, 0, -1, 100, 100, 99, 0.5, -40});
  auto r = ko::evalOracle(*p->ct, b);
  CHECK(r.dims.at("R") == 3);  // inferred from x
  CHECK(r.dims.at("H") == 5);
  const ko::Tensor& x = b.inputs["x"];
  const ko::Tensor& y = r.oracle.at("y");
  REQUIRE(y.shape == std::vector<int64_t>{3, 5});
  REQUIRE(r.oracle.at("m").shape == std::vector<int64_t>{3});
  for (int64_t i = 0; i < 3; ++i) {
    double m = -INFINITY;
    for (int64_t h = 0; h < 5; ++h) m = std::max(m, x({i, h}));
    CHECK(r.oracle.at("m")({i}) == m);
    double s = 0;
    for (int64_t h = 0; h < 5; ++h) s += std::exp(x({i, h}) - m);
    double rowSum = 0;
    for (int64_t h = 0; h < 5; ++h) {
      double want = std::exp(x({i, h}) - m) / s;
      CHECK(y({i, h}) == Approx(want).epsilon(1e-15));
      rowSum += y({i, h});
      double tol = kc::numerics::ulp(DType::BF16, want) + (5 + 4) * kc::numerics::eps(DType::F32) * want;
      CHECK(r.tolerance.at("tol")({i, h}) == Approx(tol).epsilon(1e-14));
    }
    CHECK(rowSum == Approx(1.0).epsilon(1e-14));
  }
  // Row 2: 100 and 100 share almost all the mass.
  CHECK(y({2, 0}) == Approx(1.0 / (2 + std::exp(-1.0) + std::exp(-99.5) + std::exp(-140.0))));
}

TEST_CASE("oracle: matmul 4x5x3 against a triple loop", "[oracle]") {
  auto p = compileContract(kMatmul);
  const int64_t M = 4, K = 5, N = 3;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.dims["K"] = K;  // bound explicitly; M and N inferred
  b.inputs["a"] = ko::Tensor::of({M, K}, values(M * K, 1));
  b.inputs["b"] = ko::Tensor::of({K, N}, values(K * N, 2));
  auto r = ko::evalOracle(*p->ct, b);
  const auto& A = b.inputs["a"];
  const auto& B = b.inputs["b"];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      double acc = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        acc += A({i, k}) * B({k, j});
        mag += std::fabs(A({i, k}) * B({k, j}));
      }
      CHECK(r.oracle.at("c")({i, j}) == Approx(acc).epsilon(1e-15).margin(1e-300));
      double tol = kc::numerics::gamma(K, DType::F32) * mag + kc::numerics::ulp(DType::F32, acc);
      CHECK(r.tolerance.at("tol")({i, j}) == Approx(tol).epsilon(1e-14));
    }
}

TEST_CASE("oracle: layernorm with a scalar input", "[oracle]") {
  auto p = compileContract(kLayernorm);
  const int64_t R = 3, H = 7;
  ko::Bindings b;
  b.dtypes["T"] = DType::F32;
  b.inputs["x"] = ko::Tensor::of({R, H}, values(R * H, 3, -2, 5));
  b.inputs["eps"] = ko::Tensor::scalar(1e-5);
  auto r = ko::evalOracle(*p->ct, b);
  const auto& x = b.inputs["x"];
  for (int64_t i = 0; i < R; ++i) {
    double mu = 0;
    for (int64_t h = 0; h < H; ++h) mu += x({i, h});
    mu /= H;
    double var = 0;
    for (int64_t h = 0; h < H; ++h) var += (x({i, h}) - mu) * (x({i, h}) - mu);
    var /= H;
    double sd = std::sqrt(var + 1e-5);
    CHECK(r.oracle.at("mu")({i}) == Approx(mu).epsilon(1e-15));
    CHECK(r.oracle.at("sd")({i}) == Approx(sd).epsilon(1e-14));
    for (int64_t h = 0; h < H; ++h) CHECK(r.oracle.at("y")({i, h}) == Approx((x({i, h}) - mu) / sd).epsilon(1e-13));
    CHECK(r.tolerance.at("emu")({i}) > 0);
  }
}

TEST_CASE("oracle: explicit reduction ranges, NaN propagation and builtins", "[oracle]") {
  auto p = compileContract(kMisc);
  const int64_t R = 3, H = 6;
  ko::Bindings b;
  auto xs = values(R * H, 4);
  xs[1 * H + 4] = NAN;  // row 1 has a NaN at h = 4
  b.inputs["x"] = ko::Tensor::of({R, H}, xs);
  auto r = ko::evalOracle(*p->ct, b, {1});
  const auto& x = b.inputs["x"];
  // s[r] = x1 + x2 + x3 + x0 * x1 + min(x2..x5)
  for (int64_t i = 0; i < R; ++i) {
    double mn = INFINITY;
    bool nan = false;
    for (int64_t k = 2; k < H; ++k) {
      nan = nan || std::isnan(x({i, k}));
      mn = std::min(mn, x({i, k}));
    }
    double want = x({i, 1}) + x({i, 2}) + x({i, 3}) + x({i, 0}) * x({i, 1}) + mn;
    if (nan) CHECK(std::isnan(r.oracle.at("s")({i})));
    else CHECK(r.oracle.at("s")({i}) == Approx(want).epsilon(1e-15));
  }
  // NaN propagates through max-reduction, fmax/fmin and whole-tensor max.
  CHECK(std::isnan(r.oracle.at("m")({1})));
  CHECK_FALSE(std::isnan(r.oracle.at("m")({0})));
  CHECK(std::isnan(r.oracle.at("f")({1, 4})));
  CHECK(r.oracle.at("f")({0, 0}) == Approx(std::fmax(x({0, 0}), 0.5) + std::fmin(x({0, 0}), 0.5)));
  CHECK(std::isnan(r.oracle.at("g")({})));
  CHECK(r.oracle.at("g").rank() == 0);
  CHECK(r.oracle.at("z")({}) == 0.0);  // empty range
  for (int64_t h = 0; h < H; ++h) {
    double v = x({0, h});
    double q = v > 0 ? std::sqrt(v) + std::log(v) + std::tanh(v) : 1 / (1 + std::exp(-v)) + std::erf(v);
    CHECK(r.oracle.at("q")({0, h}) == Approx(q).epsilon(1e-15));
    double y = kc::numerics::roundTo(DType::BF16, v) + std::floor(v) + std::ceil(v);
    CHECK(r.oracle.at("y")({0, h}) == y);
  }
  // Reductions cached by the slots they depend on: a column sum, a prefix sum, a total.
  double total = 0;
  for (double v : xs) total += v;
  for (int64_t i = 0; i < R; ++i)
    for (int64_t h = 0; h < H; ++h) {
      double col = 0, prefix = 0;
      for (int64_t k = 0; k < R; ++k) col += x({k, h});
      for (int64_t k = 0; k <= h; ++k) prefix += x({i, k});
      double want = x({i, h}) * col + prefix * total;
      double got = r.oracle.at("w")({i, h});
      CHECK(std::isnan(got) == std::isnan(want));
      if (!std::isnan(want)) CHECK(got == Approx(want).epsilon(1e-14));
    }
  // exists and implication; the MPFR evaluator sees the same NaNs.
  for (const auto& c : p->ct->post) CHECK(ko::evalCondition(*c.expr, *p->ct, b, r));
  auto cmp = ko::compareCells(*p->ct, b, r, "m", {{0}, {1}, {2}});
  CHECK(cmp[0].absDiff == 0);
  CHECK(std::isnan(cmp[1].exact));
  CHECK(cmp[1].absDiff == 0);
  // Without the NaN, the whole-tensor max is the largest value.
  xs[1 * H + 4] = 0.25;
  b.inputs["x"] = ko::Tensor::of({R, H}, xs);
  auto r2 = ko::evalOracle(*p->ct, b);
  CHECK(r2.oracle.at("g")({}) == *std::max_element(xs.begin(), xs.end()));
  for (int64_t h = 0; h < H; ++h) {
    double col = 0, prefix = 0, total2 = 0;
    for (int64_t k = 0; k < R; ++k) col += xs[static_cast<size_t>(k * H + h)];
    for (int64_t k = 0; k <= h; ++k) prefix += xs[static_cast<size_t>(2 * H + k)];
    for (double v : xs) total2 += v;
    CHECK(r2.oracle.at("w")({2, h}) == Approx(xs[static_cast<size_t>(2 * H + h)] * col + prefix * total2).epsilon(1e-14));
  }
  for (const auto& c : ko::compareCells(*p->ct, b, r2, "w", {{0, 0}, {1, 5}, {2, 3}})) CHECK(c.relDiff <= 1e-12);
  CHECK_FALSE(ko::evalCondition(*p->ct->post[0].expr, *p->ct, b, r2));
}

TEST_CASE("oracle: a tolerance with ulp and gamma", "[oracle]") {
  auto p = compileContract(kLayernorm);
  const int64_t R = 2, H = 9;
  ko::Bindings b;
  b.dtypes["T"] = DType::BF16;
  b.inputs["x"] = ko::Tensor::of({R, H}, values(R * H, 5));
  b.inputs["eps"] = ko::Tensor::scalar(0.001);
  auto r = ko::evalOracle(*p->ct, b);
  const auto& x = b.inputs["x"];
  for (int64_t i = 0; i < R; ++i) {
    double mag = 0;
    for (int64_t k = 0; k < H; ++k) mag += std::fabs(x({i, k}));
    double emu = kc::numerics::gamma(H, DType::F32) * mag / H;
    CHECK(r.tolerance.at("emu")({i}) == Approx(emu).epsilon(1e-15));
    for (int64_t h = 0; h < H; ++h) {
      double ys = r.oracle.at("y")({i, h});
      double tol = kc::numerics::ulp(DType::BF16, ys) + kc::numerics::gamma(2 * H + 8, DType::F32) * std::fabs(ys) +
                   2 * emu / r.oracle.at("sd")({i});
      CHECK(r.tolerance.at("tol")({i, h}) == Approx(tol).epsilon(1e-14));
    }
  }
  SECTION("an unbound dtype variable is an error") {
    b.dtypes.clear();
    CHECK_THROWS_AS(ko::evalOracle(*p->ct, b), ko::EvalError);
  }
}

TEST_CASE("oracle: postconditions hold on f32 outputs and fail on a perturbed one", "[oracle]") {
  auto p = compileContract(kSoftmax);
  auto b = softmaxInputs(4, 9, 6);
  auto r = ko::evalOracle(*p->ct, b);
  ko::Tensor y = r.oracle.at("y");
  for (auto& v : y.data) v = kc::numerics::roundTo(DType::F32, v);
  b.outputs["y"] = y;
  REQUIRE(p->ct->post.size() == 3);
  for (const auto& c : p->ct->post) {
    std::vector<ko::Cell> failing;
    CHECK(ko::evalCondition(*c.expr, *p->ct, b, r, &failing));
    CHECK(failing.empty());
  }
  b.outputs["y"]({1, 2}) += 1e-3;
  std::vector<ko::Cell> failing;
  CHECK_FALSE(ko::evalCondition(*p->ct->post[0].expr, *p->ct, b, r, &failing));
  REQUIRE(failing.size() == 1);
  CHECK(failing[0] == ko::Cell{1, 2});
  failing.clear();
  CHECK_FALSE(ko::evalCondition(*p->ct->post[2].expr, *p->ct, b, r, &failing));
  CHECK(failing == std::vector<ko::Cell>{{1}});
  CHECK(ko::evalCondition(*p->ct->post[1].expr, *p->ct, b, r));
  b.outputs["y"]({3, 8}) = -0.5;
  CHECK_FALSE(ko::evalCondition(*p->ct->post[1].expr, *p->ct, b, r));
}

TEST_CASE("oracle: a forall split over threads gives the tuples and answer of one thread", "[oracle]") {
  auto p = compileContract(kSoftmax);
  auto b = softmaxInputs(7, 5, 3);
  auto r = ko::evalOracle(*p->ct, b);
  ko::Tensor y = r.oracle.at("y");
  for (auto& v : y.data) v = kc::numerics::roundTo(DType::F32, v);
  for (int64_t row : {0, 2, 3, 6})
    for (int64_t h : {1, 4}) y({row, h}) += 1e-3;
  b.outputs["y"] = y;
  const kc::ir::Node& post = *p->ct->post[0].expr;
  std::vector<ko::Cell> one, many, capped;
  CHECK_FALSE(ko::evalCondition(post, *p->ct, b, r, &one, 64, 1));
  REQUIRE(one.size() == 8);
  for (unsigned threads : {2u, 3u, 7u, 16u}) {
    many.clear();
    CHECK_FALSE(ko::evalCondition(post, *p->ct, b, r, &many, 64, threads));
    CHECK(many == one);
    capped.clear();
    CHECK_FALSE(ko::evalCondition(post, *p->ct, b, r, &capped, 3, threads));
    CHECK(capped == std::vector<ko::Cell>(one.begin(), one.begin() + 3));
    CHECK_FALSE(ko::evalCondition(post, *p->ct, b, r, nullptr, 0, threads));
  }
  b.outputs["y"] = r.oracle.at("y");
  CHECK(ko::evalCondition(post, *p->ct, b, r, nullptr, 0, 4));
}

TEST_CASE("oracle: f64 agrees with MPFR on softmax, layernorm and matmul cells", "[oracle][mpfr]") {
  std::vector<ko::Cell> cells2 = {{0, 0}, {1, 3}, {2, 6}, {3, 1}};
  {
    auto p = compileContract(kSoftmax);
    auto b = softmaxInputs(4, 7, 7);
    auto r = ko::evalOracle(*p->ct, b);
    auto cmp = ko::compareCells(*p->ct, b, r, "y", cells2);
    REQUIRE(cmp.size() == 4);
    for (const auto& c : cmp) {
      CHECK(c.relDiff <= 1e-12);
      CHECK(c.f64 == r.oracle.at("y").at(c.cell));
      CHECK_FALSE(c.text.empty());
    }
    auto tol = ko::compareCells(*p->ct, b, r, "tol", cells2);
    for (const auto& c : tol) CHECK(c.relDiff <= 1e-12);
    auto vals = ko::evalCellsMpfr(*p->ct, b, r, "m", {{0}, {3}}, {512});
    CHECK(vals[0] == r.oracle.at("m")({0}));  // max is exact
    CHECK(vals[1] == r.oracle.at("m")({3}));
  }
  {
    auto p = compileContract(kLayernorm);
    ko::Bindings b;
    b.dtypes["T"] = DType::F32;
    b.inputs["x"] = ko::Tensor::of({4, 7}, values(28, 8, 10, 11));  // a large mean: cancellation
    b.inputs["eps"] = ko::Tensor::scalar(1e-5);
    auto r = ko::evalOracle(*p->ct, b);
    for (const auto& c : ko::compareCells(*p->ct, b, r, "y", cells2)) CHECK(c.relDiff <= 1e-12);
    for (const auto& c : ko::compareCells(*p->ct, b, r, "sd", {{0}, {2}})) CHECK(c.relDiff <= 1e-12);
  }
  {
    auto p = compileContract(kMatmul);
    ko::Bindings b;
    b.dtypes["T"] = DType::F32;
    b.inputs["a"] = ko::Tensor::of({4, 5}, values(20, 9));
    b.inputs["b"] = ko::Tensor::of({5, 3}, values(15, 10));
    auto r = ko::evalOracle(*p->ct, b);
    auto cmp = ko::compareCells(*p->ct, b, r, "c", {{0, 0}, {1, 2}, {3, 1}}, {128});
    for (const auto& c : cmp) CHECK(c.relDiff <= 1e-12);
  }
}

TEST_CASE("oracle: results do not depend on the thread count", "[oracle]") {
  auto p = compileContract(kSoftmax);
  auto b = softmaxInputs(37, 50, 11);
  auto one = ko::evalOracle(*p->ct, b, {1});
  auto two = ko::evalOracle(*p->ct, b, {2});
  auto three = ko::evalOracle(*p->ct, b, {3});
  for (const auto& [name, t] : one.oracle) {
    CHECK(t.data == two.oracle.at(name).data);
    CHECK(t.data == three.oracle.at(name).data);
  }
  CHECK(one.tolerance.at("tol").data == two.tolerance.at("tol").data);
}

TEST_CASE("oracle: a read outside a tensor is an error, from any thread", "[oracle]") {
  auto p = compileContract(R"(kcontract 1

kernel sh(x: f32[R, H]) -> (y: f32[R, H])
  where R in 1..64, H in 2..64

contract t.shift@1 "reads one past the row" {
  scope {
    kernel sh
  }
  oracle f64 {
    y[r, h] = x[r, h] + sum(k in 0..H, x[r, k])
  }
  post {
    forall r, h: y[r, h] == y*[r, h]
  }
}
)");
  ko::Bindings b;
  b.inputs["x"] = ko::Tensor::of({4, 3}, values(12, 13));
  for (unsigned t : {1u, 2u}) CHECK_THROWS_AS(ko::evalOracle(*p->ct, b, {t}), ko::EvalError);
  b.inputs.clear();
  b.dims = {{"R", 4}, {"H", 3}};
  CHECK_THROWS_AS(ko::evalOracle(*p->ct, b), ko::EvalError);  // x is not bound
}

TEST_CASE("oracle: the examples' oracles, tolerances and postconditions", "[oracle]") {
  for (const char* name : {"softmax/softmax", "layernorm/layernorm", "matmul/matmul"}) {
    kc::Compilation c;
    kc::compile(c, {std::string(KC_SOURCE_DIR) + "/examples/" + name + ".kcontract"}, kc::Stage::Sema);
    REQUIRE_FALSE(c.diags.hasErrors());
    const kc::sema::ContractInfo* ct = nullptr;
    for (const auto& k : c.program->contracts)
      if (!k->isClass && k->kernel) ct = k.get();
    REQUIRE(ct != nullptr);
    ko::Bindings b;
    b.dtypes["T"] = DType::F32;
    uint64_t seed = 20;
    for (const auto& t : ct->kernel->tensors) {
      if (t.output) continue;
      if (t.rank() == 0) {
        b.inputs[t.name] = ko::Tensor::scalar(1e-5);
        continue;
      }
      std::vector<int64_t> shape(t.rank(), 0);
      for (size_t k = 0; k < t.rank(); ++k) shape[k] = 3 + static_cast<int64_t>(k) + (t.name == "b" ? 1 : 0);
      int64_t n = 1;
      for (auto e : shape) n *= e;
      b.inputs[t.name] = ko::Tensor::of(shape, values(static_cast<size_t>(n), seed++));
    }
    auto r = ko::evalOracle(*ct, b);
    for (const auto& t : ct->kernel->tensors) {
      if (!t.output) continue;
      ko::Tensor y = r.oracle.at(t.name);
      for (auto& v : y.data) v = kc::numerics::roundTo(DType::F32, v);
      b.outputs[t.name] = y;
    }
    INFO(name);
    for (const auto& p : ct->post) {
      INFO(kc::ir::print(*p.expr));
      CHECK(ko::evalCondition(*p.expr, *ct, b, r));
    }
  }
}

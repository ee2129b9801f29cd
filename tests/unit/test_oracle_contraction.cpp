// Contractions at BLAS speed (checker/oracle/contraction.h): every definition evaluated with
// the fast path agrees with the interpreter (EvalOptions::blas = false) to 1e-12, and the
// counter in OracleResult::contractions shows which reductions went to cblas_dgemm — matmul,
// transposed operands, bmm, attention's two products, products inside other reductions —
// and which must not (an extra factor, an index expression, NaN inputs, a read out of range).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "compiled_contract.h"
#include "checker/oracle/evaluator.h"
#include "compiler/pipeline.h"

namespace {

namespace ko = kc::oracle;
using kc::numerics::DType;

using kc::test::Compiled;
using kc::test::compileContract;

// A contract over kernel `kernel` with the given oracle (and tolerance) definitions; the
// oracle defines the kernel's output c (or as `post` names it).
std::string contract(const std::string& kernel, const std::string& oracle, const std::string& tolerance = "",
                     const std::string& post = "forall i, j: c[i, j] == c*[i, j]") {
  std::string name = kernel.substr(7, kernel.find('(') - 7);
  return "kcontract 1\n\n" + kernel + "\n\ncontract t.c@1 \"contractions\" {\n  scope {\n    kernel " + name +
         "\n  }\n  oracle f64 {\n" + oracle + "\n  }\n" +
         (tolerance.empty() ? "" : "  tolerance {\n" + tolerance + "\n  }\n") + "  post {\n    " + post +
         "\n  }\n}\n";
}

ko::Tensor randomTensor(std::vector<int64_t> shape, uint64_t seed) {
  ko::Tensor t(std::move(shape));
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& v : t.data) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    v = -3.0 + 6.0 * static_cast<double>(s >> 11) / 9007199254740992.0;
  }
  return t;
}

unsigned contractions(const ko::OracleResult& r, const std::string& def) {
  auto it = r.contractions.find(def);
  return it == r.contractions.end() ? 0 : it->second;
}

// Every cell of `fast` within 1e-12 of `slow`, relative to the cell or, for a cell that
// cancels to near zero, to 1e-3 of the tensor's largest magnitude (the sums are taken in a
// different order, so a cancelled cell keeps an absolute, not a relative, agreement).
void requireClose(const ko::Tensor& fast, const ko::Tensor& slow, const std::string& name) {
  INFO("definition " << name);
  REQUIRE(fast.shape == slow.shape);
  double scale = 0;
  for (double v : slow.data) scale = std::max(scale, std::fabs(v));
  size_t bad = 0;
  for (size_t c = 0; c < slow.data.size(); ++c) {
    double f = fast.data[c], s = slow.data[c];
    if (std::isnan(s) || std::isnan(f)) {
      bad += std::isnan(s) != std::isnan(f);
      continue;
    }
    bad += std::fabs(f - s) > 1e-12 * std::max(std::fabs(s), 1e-3 * scale);
  }
  CHECK(bad == 0);
}

// The fast path and the interpreter on every definition; returns the fast result.
ko::OracleResult compareWithInterpreter(const kc::sema::ContractInfo& ct, const ko::Bindings& b, unsigned threads = 2) {
  auto fast = ko::evalOracle(ct, b, {threads, true});
  auto slow = ko::evalOracle(ct, b, {threads, false});
  CHECK(slow.contractions.empty());
  for (const auto& [name, t] : slow.oracle) requireClose(fast.oracle.at(name), t, name);
  for (const auto& [name, t] : slow.tolerance) requireClose(fast.tolerance.at(name), t, name);
  return fast;
}

const std::string kMatmulKernel =
    "kernel mm(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N])\n  where M in 1..4096, N in 1..4096, K in 1..4096";

ko::Bindings matmulInputs(int64_t M, int64_t N, int64_t K, uint64_t seed) {
  ko::Bindings b;
  b.inputs["a"] = randomTensor({M, K}, seed);
  b.inputs["b"] = randomTensor({K, N}, seed + 1);
  return b;
}

}  // namespace

TEST_CASE("contraction: matmul and its |a b| tolerance go to dgemm", "[oracle][blas]") {
  auto p = compileContract(contract(kMatmulKernel, "    c[i, j] = sum(k, a[i, k] * b[k, j])",
                                    "    tol[i, j] = gamma(K, f32) * sum(k, |a[i, k] * b[k, j]|) + ulp(f32, c*[i, j])\n"
                                    "    mag[i, j] = sum(k, |a[i, k]| * |b[k, j]|)",
                                    "forall i, j: |c[i, j] - c*[i, j]| <= tol[i, j] + mag[i, j]"));
  auto r = compareWithInterpreter(*p->ct, matmulInputs(13, 17, 29, 1));
  CHECK(contractions(r, "c") == 1);
  CHECK(contractions(r, "tol") == 1);
  CHECK(contractions(r, "mag") == 1);
  CHECK(r.tolerance.at("mag").data != r.oracle.at("c").data);  // the absolute values were taken
}

TEST_CASE("contraction: transposed operands and a transposed result", "[oracle][blas]") {
  auto p = compileContract(contract(
      "kernel mt(a: f32[K, M], b: f32[N, K]) -> (c: f32[M, N])\n  where M in 1..4096, N in 1..4096, K in 1..4096",
      "    c[i, j] = sum(k, a[k, i] * b[j, k])\n    ct[j, i] = sum(k, a[k, i] * b[j, k])\n"
      "    g[i, i2] = sum(k, a[k, i] * a[k, i2])"));
  ko::Bindings b;
  b.inputs["a"] = randomTensor({31, 9}, 2);
  b.inputs["b"] = randomTensor({11, 31}, 3);
  auto r = compareWithInterpreter(*p->ct, b);
  for (const char* d : {"c", "ct", "g"}) CHECK(contractions(r, d) == 1);
  CHECK(r.oracle.at("ct")({4, 7}) == r.oracle.at("c")({7, 4}));
}

TEST_CASE("contraction: bmm over a batch index", "[oracle][blas]") {
  auto p = compileContract(contract(
      "kernel bmm(a: f32[Z, M, K], b: f32[Z, K, N]) -> (c: f32[Z, M, N])\n"
      "  where Z in 1..64, M in 1..4096, N in 1..4096, K in 1..4096",
      "    c[z, i, j] = sum(k, a[z, i, k] * b[z, k, j])\n    d[i, z, j] = 0.5 * sum(k, b[z, k, j] * a[z, i, k])", "",
      "forall z, i, j: c[z, i, j] == 2 * d*[i, z, j]"));
  ko::Bindings b;
  b.inputs["a"] = randomTensor({5, 7, 23}, 4);
  b.inputs["b"] = randomTensor({5, 23, 6}, 5);
  auto r = compareWithInterpreter(*p->ct, b);
  CHECK(contractions(r, "c") == 1);
  CHECK(contractions(r, "d") == 1);
}

TEST_CASE("contraction: attention's q k^T and p v", "[oracle][blas]") {
  auto p = compileContract(contract(
      "kernel att(q: f32[L, D], k: f32[S, D], v: f32[S, D]) -> (o: f32[L, D])\n"
      "  where L in 1..4096, S in 1..4096, D in 1..256",
      "    s[i, j] = sum(d, q[i, d] * k[j, d]) / sqrt(D)\n    m[i] = max(j, s[i, j])\n"
      "    e[i, j] = exp(s[i, j] - m[i])\n    p[i, j] = e[i, j] / sum(j2, e[i, j2])\n"
      "    o[i, d] = sum(j, p[i, j] * v[j, d])", "", "forall i, d: o[i, d] == o*[i, d]"));
  ko::Bindings b;
  b.inputs["q"] = randomTensor({19, 16}, 6);
  b.inputs["k"] = randomTensor({27, 16}, 7);
  b.inputs["v"] = randomTensor({27, 16}, 8);
  auto r = compareWithInterpreter(*p->ct, b);
  CHECK(contractions(r, "s") == 1);
  CHECK(contractions(r, "o") == 1);
  CHECK(contractions(r, "p") == 0);  // sum(j2, e[i, j2]) is not a product
  CHECK(r.contractions.size() == 2);
}

TEST_CASE("contraction: products inside other reductions and over explicit ranges", "[oracle][blas]") {
  auto p = compileContract(contract(kMatmulKernel,
                                    "    c[i, j] = sum(k, a[i, k] * b[k, j])\n"
                                    "    t[j] = sum(i, sum(k, a[i, k] * b[k, j]))\n"
                                    "    u[i, j] = sum(k in 1..K - 1, a[i, k] * b[k, j])\n"
                                    "    w[j] = max(i in 2..M - 1, sum(k, a[i, k] * b[k, j]))\n"
                                    "    f = sum(i, sum(k, a[i, k] * a[i, k]))\n"
                                    "    z[i, j] = sum(k in 3..2, a[i, k] * b[k, j])\n"
                                    "    dg[j] = sum(k in 0..M - 1, a[k, k] * b[k, j])"));
  auto r = compareWithInterpreter(*p->ct, matmulInputs(8, 6, 12, 9));
  for (const char* d : {"c", "t", "u", "w", "f", "z", "dg"}) CHECK(contractions(r, d) == 1);
  CHECK(r.oracle.at("z").data == std::vector<double>(48, 0.0));  // an empty sum
}

TEST_CASE("contraction: what is not a contraction stays in the interpreter", "[oracle][blas]") {
  auto p = compileContract(contract(kMatmulKernel,
                                    "    c[i, j] = sum(k, a[i, k] * b[k, j] * 2)\n"
                                    "    sh[i, j] = sum(k in 0..K - 2, a[i, k + 1] * b[k, j])\n"
                                    "    q[i, j] = sum(k, a[i, k] / b[k, j])\n"
                                    "    pr[i, j] = prod(k, a[i, k] * b[k, j])\n"
                                    "    one[i] = sum(k, a[i, k] * b[k, 0])\n"
                                    "    tri[i, j] = sum(k in 0..i, a[i, k] * b[k, j])"));
  auto r = compareWithInterpreter(*p->ct, matmulInputs(5, 4, 6, 10));
  // one[i] would be a matrix-vector product, but b[k, 0] has a constant index, not a
  // variable; tri's range of k depends on i.
  CHECK(r.contractions.empty());
}

TEST_CASE("contraction: NaN and infinite inputs and reads out of range fall back", "[oracle][blas]") {
  auto p = compileContract(contract(kMatmulKernel, "    c[i, j] = sum(k, a[i, k] * b[k, j])"));
  auto b = matmulInputs(4, 5, 6, 11);
  b.inputs["a"]({1, 2}) = NAN;
  b.inputs["b"]({3, 4}) = INFINITY;
  auto r = compareWithInterpreter(*p->ct, b);
  CHECK(r.contractions.empty());
  CHECK(std::isnan(r.oracle.at("c")({1, 0})));
  CHECK(std::isinf(r.oracle.at("c")({0, 4})));

  auto over = compileContract(contract(kMatmulKernel, "    c[i, j] = sum(k in 0..K, a[i, k] * b[k, j])"));
  CHECK_THROWS_AS(ko::evalOracle(*over->ct, matmulInputs(4, 5, 6, 12)), ko::EvalError);
}

TEST_CASE("contraction: results do not depend on the thread count", "[oracle][blas]") {
  // Large enough for OpenBLAS to use several threads (where it would split C by the thread
  // count); odd sizes put tile edges everywhere; more than 512 rows, then more than 512
  // columns, cut C into several blocks.
  auto p = compileContract(contract(kMatmulKernel,
                                    "    c[i, j] = sum(k, a[i, k] * b[k, j])\n"
                                    "    s[i, j] = sum(k, a[i, k] * b[k, j]) / 3",
                                    "", "forall i, j: c[i, j] == 3 * s*[i, j]"));
  for (auto [M, N, K] : {std::tuple{97, 131, 203}, std::tuple{601, 37, 45}, std::tuple{29, 1033, 41}}) {
    INFO(M << " x " << N << " x " << K);
    auto b = matmulInputs(M, N, K, 13);
    auto one = compareWithInterpreter(*p->ct, b, 1);
    REQUIRE(contractions(one, "c") == 1);
    for (unsigned t : {2u, 3u}) {
      auto r = ko::evalOracle(*p->ct, b, {t});
      CHECK(r.oracle.at("c").data == one.oracle.at("c").data);
      CHECK(r.oracle.at("s").data == one.oracle.at("s").data);
    }
  }
}

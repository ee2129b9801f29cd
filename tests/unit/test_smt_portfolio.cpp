// The SMT backend's portfolio (prover/smt/portfolio.cpp): witness probes and the fallback
// configuration answer what the primary configuration alone cannot, and say so; and the
// correct-implementation model of blind-band-correct (compiler/obligations) for outputs
// that are copied, selected, rounded once, or rounded into a narrower dtype; and the facts
// about normalised weighted sums that let it answer for attention-like outputs.
#include <catch2/catch.hpp>

#include <string>

#include "prover/smt/solver.h"
#include "compiled_contract.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"

namespace {

namespace smt = kc::smt;
namespace obl = kc::obl;

// The obligation `suffix` of the contract in `path` (relative to the source tree).
obl::Obligation obligationOf(const std::string& path, const std::string& suffix) {
  kc::Compilation c;
  kc::compile(c, {std::string(KC_SOURCE_DIR) + "/" + path}, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  for (const auto& ct : c.program->contracts) {
    if (ct->isClass) continue;
    for (auto& o : obl::buildObligationSet(*ct).obligations)
      if (o.id.size() >= suffix.size() && o.id.compare(o.id.size() - suffix.size(), suffix.size(), suffix) == 0) return o;
  }
  FAIL("no obligation ending in " << suffix << " in " << path);
  return {};
}


// The blind-band-correct obligation of a contract text.
obl::Obligation blindBandCorrectOf(const std::string& text) {
  auto p = kc::test::compileContract(text);
  for (auto& o : obl::buildObligationSet(*p->ct).obligations)
    if (o.kind == obl::Kind::BlindBandCorrect) return o;
  FAIL("no blind-band-correct obligation");
  return {};
}

// A contract of one output y = ORACLE with tolerance TOL, inputs x (and i when given) of dtype TIN.
obl::Obligation correctOf(const std::string& out, const std::string& in, const std::string& oracle,
                          const std::string& tol) {
  std::string text = "kcontract 1\n"
                     "kernel k(x: " + in + "[N, M], i: i32[N]) -> (y: " + out + "[N, M])\n  where N in 1..64, M in 1..64\n"
                     "contract acme.model@1 {\n  scope {\n    kernel k\n  }\n"
                     "  pre {\n    forall n: 0 <= i[n] < N\n  }\n"
                     "  oracle f64 {\n    y[n, m] = " + oracle + "\n  }\n"
                     "  tolerance {\n    tol[n, m] = " + tol + "\n  }\n"
                     "  post {\n    forall n, m: |y[n, m] - y*[n, m]| <= tol[n, m]\n  }\n}\n";
  return blindBandCorrectOf(text);
}

// A contract whose output is a normalised weighted sum, y = sum_j p_j v_j / sum_j p_j with
// p_j = exp(x_j) (attention's shape), under the tolerance TOL; its blind-band-correct.
obl::Obligation weightedMeanOf(const std::string& weight, const std::string& tol) {
  std::string text = "kcontract 1\n"
                     "kernel k(x: f32[N, M], v: f32[M, D]) -> (y: f32[N, D])\n"
                     "  where N in 1..64, M in 1..64, D in 1..64\n"
                     "contract acme.mean@1 {\n  scope {\n    kernel k\n  }\n"
                     "  oracle f64 {\n    p[n, j] = " + weight + "\n    z[n] = sum(j, p[n, j])\n"
                     "    y[n, d] = sum(j, p[n, j] * v[j, d]) / z[n]\n  }\n"
                     "  tolerance {\n    tol[n, d] = " + tol + "\n  }\n"
                     "  post {\n    forall n, d: |y[n, d] - y*[n, d]| <= tol[n, d]\n  }\n}\n";
  return blindBandCorrectOf(text);
}

smt::Answer solved(const obl::Obligation& o) {
  smt::Options opt;
  opt.timeoutSeconds = 10;
  opt.probes = smt::fixedValueProbes(o.inputs);
  smt::Result r = smt::solve(o.smt2, opt);
  INFO(o.id << ": " << smt::answerName(r.answer) << " " << r.reason << " " << r.strategy);
  return r.answer;
}

}  // namespace

TEST_CASE("smt portfolio: fixed-value probes fix every input constant", "[smt][portfolio]") {
  CHECK(smt::fixedValueProbes({}).empty());
  auto p = smt::fixedValueProbes({"a_0", "a_1", "b_0", "b_1", "c"});
  REQUIRE(p.size() == 5);
  CHECK(p[0].name == "inputs = 1");
  CHECK(p[0].assertions ==
        "(assert (= a_0 1.0))\n(assert (= a_1 1.0))\n(assert (= b_0 1.0))\n(assert (= b_1 1.0))\n(assert (= c 1.0))\n");
  CHECK(p[1].assertions ==
        "(assert (= a_0 1.0))\n(assert (= a_1 (- 2.0)))\n(assert (= b_0 0.5))\n(assert (= b_1 3.0))\n(assert (= c 1.0))\n");
  CHECK(p[2].name == "inputs = 1 + 2^-12");
  CHECK(p[2].assertions.find("(assert (= c 1.000244140625))\n") != std::string::npos);
  CHECK(p[3].name == "inputs = 256.5, -256, ...");
  CHECK(p[3].assertions.find("(assert (= a_1 (- 256.0)))\n(assert (= b_0 256.5))") != std::string::npos);
  CHECK(p[4].assertions.find("(assert (= b_0 (- 1.0)))\n(assert (= b_1 1024.0))") != std::string::npos);
}

TEST_CASE("smt portfolio: the fault models find witnesses with probes and prove blindness by relaxation",
          "[smt][portfolio][obligations]") {
  // examples/matmul: its gamma(K) tolerance sees both faults (a witness from a probe) ...
  for (const char* kind : {"/blind-band-accumulator", "/blind-band-operand"}) {
    obl::Obligation o = obligationOf("examples/matmul/matmul.kcontract", kind);
    CHECK(o.probeFirst);
    CHECK_FALSE(o.relaxation.empty());
    CHECK(o.smt2.find("((_ to_fp 8 ") != std::string::npos);
    smt::Options opt;
    opt.timeoutSeconds = 10;
    opt.headStartSeconds = 0.1;
    opt.probes = smt::fixedValueProbes(o.inputs);
    opt.relaxation = o.relaxation;
    smt::Result r = smt::solve(o.smt2, opt);
    INFO(kind << ": " << smt::answerName(r.answer) << " " << r.reason);
    CHECK(r.answer == smt::Answer::Sat);
    CHECK(r.strategy.rfind("witness probe: ", 0) == 0);
  }
  // ... a tolerance of 100 % of the row's magnitude does not: the relaxation proves it blind.
  const std::string loose = "kcontract 1\n"
                            "kernel k(x: f32[R, H]) -> (y: f32[R])\n  where R in 1..8, H in 1..64\n"
                            "contract acme.loose@1 {\n  scope {\n    kernel k\n  }\n"
                            "  pre {\n    forall r, h: isfinite(x[r, h])\n  }\n"
                            "  oracle f64 {\n    y[r] = sum(h, x[r, h])\n  }\n"
                            "  tolerance {\n    tol[r] = sum(h, |x[r, h]|)\n  }\n"
                            "  post {\n    forall r: |y[r] - y*[r]| <= tol[r]\n  }\n}\n";
  kc::Compilation c;
  kc::compileText(c, "t.kcontract", loose, kc::Stage::Sema);
  REQUIRE_FALSE(c.diags.hasErrors());
  bool seen = false;
  for (const auto& ct : c.program->contracts)
    for (const auto& o : obl::buildObligationSet(*ct).obligations) {
      if (o.kind == obl::Kind::BlindBandOperand) FAIL("a sum without products has no operand fault");
      if (o.kind != obl::Kind::BlindBandAccumulator) continue;
      seen = true;
      smt::Options opt;
      opt.timeoutSeconds = 10;
      opt.headStartSeconds = 0.1;
      opt.probes = smt::fixedValueProbes(o.inputs);
      opt.relaxation = o.relaxation;
      smt::Result r = smt::solve(o.smt2, opt);
      INFO(smt::answerName(r.answer) << " " << r.reason);
      CHECK(r.answer == smt::Answer::Unsat);
      CHECK(r.strategy == "relaxation");
    }
  CHECK(seen);
}

TEST_CASE("smt portfolio: a witness probe finds what nonlinear search misses, and says so", "[smt][portfolio]") {
  // int8 GEMM's blind-band-detect: trivially sat (any nonzero product), but the products of
  // four free scales keep cvc5's nonlinear search busy past any limit; with every input 1 it is linear.
  obl::Obligation o = obligationOf("stdlib/ops/int8_gemm.kcontract", "/blind-band-detect");
  REQUIRE_FALSE(o.inputs.empty());
  smt::Options alone;
  alone.timeoutSeconds = 3;
  alone.portfolio = false;
  smt::Result a = smt::solve(o.smt2, alone);
  INFO("alone: " << smt::answerName(a.answer) << " " << a.reason);
  CHECK(a.answer == smt::Answer::Timeout);
  CHECK(a.strategy.empty());

  smt::Options with = alone;
  with.timeoutSeconds = 10;
  with.portfolio = true;
  with.probes = smt::fixedValueProbes(o.inputs);
  for (auto iso : {smt::Isolation::Subprocess, smt::Isolation::InProcess}) {
    with.isolation = iso;
    smt::Result r = smt::solve(o.smt2, with);
    INFO(smt::answerName(r.answer) << " " << r.reason);
    CHECK(r.answer == smt::Answer::Sat);
    CHECK(r.strategy == "witness probe: inputs = 1");
    bool fixed = false;
    for (const auto& m : r.model)
      if (m.name == o.inputs[0]) fixed = m.value == "1";
    CHECK(fixed);  // the model is the probe's witness
  }
}

TEST_CASE("smt portfolio: what nobody answers is a timeout naming the whole limit", "[smt][portfolio]") {
  std::string hard = "(set-logic QF_NRA)(declare-const x Real)(declare-const y Real)(declare-const z Real)"
                     "(assert (= (* x x x) (+ (* y y y) (* z z z) 1.0)))(assert (> (* x y z) 1000000.0))"
                     "(assert (< (+ (* x x) (* y y) (* z z)) 0.0))(check-sat)";
  smt::Options o;
  o.timeoutSeconds = 1;
  smt::Result r = smt::solve(hard, o);
  INFO(smt::answerName(r.answer) << " " << r.reason);
  if (r.answer == smt::Answer::Timeout) CHECK(r.reason == "time limit of 1 s");
  CHECK(r.answer != smt::Answer::Sat);  // a sum of squares is never negative
}

TEST_CASE("smt: the correct-implementation model of blind-band-correct", "[smt][obligations]") {
  // A copy (transpose, gather) is exact: a tolerance of 0 admits every correct implementation.
  auto copy = correctOf("f32", "f32", "x[n, m]", "0 * |x[n, m]|");
  CHECK(copy.smt2.find("|y - y*| <= 0 |y*|") != std::string::npos);
  CHECK(solved(copy) == smt::Answer::Unsat);
  // A gather written as a selection over rows: one nonzero term, an exact sum.
  auto gather = correctOf("f32", "f32", "sum(v in 0..N - 1, if i[n] == v then x[v, m] else 0)", "0 * |x[n, m]|");
  CHECK(solved(gather) == smt::Answer::Unsat);
  // ... but a sum of several terms rounds: a tolerance of 0 fails a correct implementation.
  auto sum = correctOf("f32", "f32", "sum(v in 0..N - 1, x[v, m])", "0 * |x[n, m]|");
  CHECK(solved(sum) == smt::Answer::Sat);
  // One correctly rounded operation is within one ulp, and within u |y*|.
  auto mul = correctOf("f32", "f32", "x[n, m] * x[n, m]", "ulp(f32, y*[n, m])");
  CHECK(mul.smt2.find("|y - y*| <= min(u(f32) |y*|, ulp(f32, y*) / 2)") != std::string::npos);
  CHECK(solved(mul) == smt::Answer::Unsat);
  // Two operations round twice: gamma(2, f32) reaches past one spacing of f32 (a correct
  // x * x * x, like 1 / sqrt(x), can be 1.5 spacings off); three spacings hold (the model's
  // ulp is at least eps/2 |v|, and gamma(2) is a little over eps).
  auto cube = correctOf("f32", "f32", "x[n, m] * x[n, m] * x[n, m]", "ulp(f32, y*[n, m])");
  CHECK(cube.smt2.find("|y - y*| <= gamma(2, f32) |y*|") != std::string::npos);
  CHECK(cube.purpose.find("(2 roundings in f32, one per operation)") != std::string::npos);
  CHECK(solved(cube) == smt::Answer::Sat);
  CHECK(solved(correctOf("f32", "f32", "x[n, m] * x[n, m] * x[n, m]", "3 * ulp(f32, y*[n, m])")) == smt::Answer::Unsat);
  // A function counts its own rounding, not its argument's (scaled by its condition number,
  // left to the tolerance); scaling by a power of two is exact.
  CHECK(correctOf("f32", "f32", "exp(x[n, m] * x[n, m])", "ulp(f32, y*[n, m])").purpose.find("min(u(f32) |y*|, ulp(f32, y*) / 2) (one rounding") !=
        std::string::npos);
  CHECK(correctOf("f32", "f32", "0.5 * x[n, m] * x[n, m] / 2", "ulp(f32, y*[n, m])").purpose.find("min(u(f32) |y*|, ulp(f32, y*) / 2) (one rounding") !=
        std::string::npos);
  // A sum of n products adds n - 1 roundings to the products' one: gamma(n), and one more for
  // each operation on its result.
  auto dot = correctOf("f32", "f32", "sum(v in 0..N - 1, x[v, m] * x[v, m])", "0 * |x[n, m]|");
  CHECK(dot.purpose.find("gamma(2, f32) |y*| (a length-2 reduction accumulated in f32)") != std::string::npos);
  auto mean = correctOf("f32", "f32", "sum(v in 0..N - 1, x[v, m] * x[v, m]) / N", "0 * |x[n, m]|");
  CHECK(mean.purpose.find("gamma(3, f32) |y*| (a length-2 reduction accumulated in f32 and the operations around it: 3 "
                          "roundings in f32)") != std::string::npos);
  // A prefix sum: each cell's own length (y[0] one term, y[1] two), not the longest for all.
  auto prefix = correctOf("f32", "f32", "sum(v in 0..n, x[v, m])", "gamma(n + 1, f32) * sum(v in 0..n, |x[v, m]|) + 0 * |x[n, m]|");
  CHECK(prefix.purpose.find("gamma(2, f32) |y*| (a length-2 reduction accumulated in f32 at its longest cell; fewer "
                            "where its reductions are shorter)") != std::string::npos);
  CHECK(solved(prefix) == smt::Answer::Unsat);
  // max is exact.
  auto relu = correctOf("f32", "f32", "fmax(x[n, m], 0)", "0 * |x[n, m]|");
  CHECK(solved(relu) == smt::Answer::Unsat);
  // Into bf16: one more rounding, half a spacing: half an ulp plus the f32 part passes ...
  auto bf16 = correctOf("bf16", "f32", "x[n, m] * x[n, m]", "ulp(bf16, y*[n, m]) / 2 + 2 * eps(f32) * |y*[n, m]|");
  CHECK(bf16.smt2.find("ulp(bf16, y*) / 2") != std::string::npos);
  CHECK(solved(bf16) == smt::Answer::Unsat);
  // ... and the f32 part alone does not.
  auto tight = correctOf("bf16", "f32", "x[n, m] * x[n, m]", "2 * eps(f32) * |y*[n, m]|");
  CHECK(solved(tight) == smt::Answer::Sat);
  // A copy into a narrower dtype rounds once.
  auto cast = correctOf("bf16", "f32", "x[n, m]", "0 * |x[n, m]|");
  CHECK(solved(cast) == smt::Answer::Sat);
}

TEST_CASE("smt: blind-band-correct of a normalised weighted sum answers within its limit", "[smt][obligations]") {
  // A tolerance with gamma(M + 4) relative to the weighted |v_j| + |y*| covers the model's
  // gamma(2) |y*|: proving it needs sum_j p_j (...) / z >= |y*| gamma(M + 4), which cvc5 1.0.3
  // does not find by itself (a timeout before the facts about weighted means); with them, unsat.
  auto cover = weightedMeanOf("exp(x[n, j])",
                              "sum(j, p[n, j] * (gamma(M + 4, f32) * (|v[j, d]| + |y*[n, d]|))) / z[n]");
  CHECK(cover.smt2.find("a weighted mean lies between its least and greatest term") != std::string::npos);
  CHECK(cover.smt2.find("facts about the signs of products") != std::string::npos);
  CHECK(solved(cover) == smt::Answer::Unsat);
  // A quarter of eps relative to the same terms does not cover it: sat, a real counterexample.
  auto miss = weightedMeanOf("exp(x[n, j])", "sum(j, p[n, j] * (eps(f32) / 4 * (|v[j, d]| + |y*[n, d]|))) / z[n]");
  CHECK(solved(miss) == smt::Answer::Sat);
  // Weights of unknown sign are no weighted mean: no such fact.
  auto signless = weightedMeanOf("x[n, j]", "sum(j, p[n, j] * (gamma(M + 4, f32) * (|v[j, d]| + |y*[n, d]|))) / z[n]");
  CHECK(signless.smt2.find("weighted") == std::string::npos);
  // exp weights of which a causal mask zeroes some: still a mean of the terms left.
  auto masked = weightedMeanOf("if j <= n then exp(x[n, j]) else 0",
                               "sum(j, p[n, j] * (gamma(M + 4, f32) * (|v[j, d]| + |y*[n, d]|))) / z[n]");
  CHECK(masked.smt2.find("a weighted mean lies between its least and greatest term") != std::string::npos);
  CHECK(solved(masked) == smt::Answer::Unsat);
}

// Symbolic mode of the PTX engine (prover/kernel/, docs/ptx.md "Symbolic mode"): the DAG's
// terms and exact cases, one bounded rounding variable per rounded f32 operation, the
// symbolic run of PTX over input symbols (selects as ite, the concrete control flow kept),
// and the UNKNOWN a branch on a value computed from the inputs ends the run with.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backends/ptx/ptx_parser.h"
#include "prover/kernel/concrete_probes.h"
#include "prover/kernel/sym_dag.h"
#include "prover/kernel/sym_exec.h"
#include "prover/smt/solver.h"

using namespace kc::kprove;
namespace sm = kc::obl::smt;

namespace {

std::string kernel(const std::string& body) {
  return ".version 9.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(\n\t.param .u64 k_p0,\n\t.param .u64 k_p1,\n\t.param .u32 k_p2\n)\n{\n"
         "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<32>;\n\t.reg .f32 %f<16>;\n" +
         body + "\n}\n";
}

// %rd5 = &in[g], %rd6 = &out[g] for g = ctaid.x * ntid.x + tid.x; skips to DONE when g >= n.
const char* kPrologue =
    "\tld.param.u64 %rd1, [k_p0];\n\tld.param.u64 %rd2, [k_p1];\n\tld.param.u32 %r9, [k_p2];\n"
    "\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
    "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tsetp.ge.u32 %p7, %r4, %r9;\n\t@%p7 bra DONE;\n"
    "\tmul.wide.s32 %rd7, %r4, 4;\n\tadd.s64 %rd5, %rd3, %rd7;\n\tadd.s64 %rd6, %rd4, %rd7;\n";

constexpr uint32_t kPoison = 0x7fa5a5a5u;

struct SymRun {
  Dag dag;
  std::vector<int> out;  // node per output cell
  std::string unknown;
  int line = 0;
};

// Runs k symbolically over n threads (one block): input 0 is in (n f32 cells), output 1 out.
void runSym(SymRun& r, const std::string& text, uint32_t n, uint32_t block = 32) {
  kc::ptx::Module m = kc::ptx::parseModule(text, "sym.ptx");
  std::vector<uint32_t> in(n, 0x7fcc0000u), out(n, kPoison);
  kc::ptx::Allocations mem;
  mem.add(in.data(), n * 4);
  mem.add(out.data(), n * 4);
  std::vector<Region> regions(2);
  regions[0] = {reinterpret_cast<uint64_t>(in.data()), n * 4ull, 0, true, 0};
  regions[1] = {reinterpret_cast<uint64_t>(out.data()), n * 4ull, 1, false, 0};
  SymMachine sym(m, r.dag, regions, &mem, kPoison);
  uint64_t p0 = reinterpret_cast<uint64_t>(in.data()), p1 = reinterpret_cast<uint64_t>(out.data());
  uint32_t p2 = n;
  void* args[] = {&p0, &p1, &p2};
  try {
    sym.launch(*m.find("k"), {(n + block - 1) / block, 1, 1}, {block, 1, 1}, 0, args);
  } catch (const SymUnknown& e) {
    r.unknown = e.what();
    r.line = e.line;
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    SymVal v = sym.globalCell(reinterpret_cast<uint64_t>(out.data()) + 4ull * i);
    float f = 0;
    uint32_t b = static_cast<uint32_t>(v.bits);
    std::memcpy(&f, &b, 4);
    r.out.push_back(v.symbolic() ? v.node : r.dag.constant(f));
  }
}

}  // namespace

TEST_CASE("ptx symbolic: terms are hash-consed and exact operations are not rounded", "[ptx][symbolic]") {
  Dag d;
  int x = d.input(0, 0), y = d.input(0, 1);
  int s1 = d.add(x, y, false, 1), s2 = d.add(y, x, false, 2);
  CHECK(s1 == s2);  // a + b and b + a: one node
  CHECK(d.roundings() == 1);
  CHECK(d.node(s1).rounded);
  CHECK(d.add(x, d.constant(0.0f), false, 3) == x);   // x + 0
  CHECK(d.mul(x, d.constant(1.0f), false, 3) == x);   // x * 1
  int twice = d.add(x, x, false, 4);                  // x + x = 2x: exact
  CHECK(d.node(twice).kind == NodeKind::Mul);
  CHECK_FALSE(d.node(twice).rounded);
  CHECK_FALSE(d.node(d.mul(d.constant(0.25f), y, false, 5)).rounded);  // by a power of two
  CHECK(d.node(d.mul(d.constant(3.0f), y, false, 5)).rounded);
  CHECK(d.fma(d.constant(0.0f), y, x, false, 6) == x);  // fma(0, b, c) = c
  CHECK(d.max(d.constant(-INFINITY), x) == x);
  // A comparison of a finite value with an infinity is decided: isnan(x) written |x| > inf.
  CHECK(d.node(d.cmp(NodeKind::Gt, d.abs(x), d.constant(INFINITY))).kind == NodeKind::BoolConst);
  CHECK(d.node(d.cmp(NodeKind::Gt, d.abs(x), d.constant(INFINITY))).value == 0);
  // Poison (a never-written output cell read back) spreads.
  CHECK(d.node(d.add(d.poison(), x, false, 7)).kind == NodeKind::Poison);
  // The f32 evaluation rounds each rounded node as the kernel does.
  std::vector<float> memo;
  float v = d.evaluate(s1, [](int, int64_t f) { return f == 0 ? 1.0f : 1e-8f; }, memo);
  CHECK(v == 1.0f + 1e-8f);
}

TEST_CASE("ptx symbolic: each rounding is one bounded variable in the SMT script", "[ptx][symbolic]") {
  Dag d;
  int x = d.input(0, 0), y = d.input(0, 1);
  int s = d.add(x, y, false, 12);
  sm::Script script;
  sm::NameTable names;
  SmtEmitter em(d, script, names, [&](int, int64_t f) {
    std::string n = f == 0 ? "x_0" : "x_1";
    script.declareConst(n, sm::Sort::Real);
    return sm::symbol(n, sm::Sort::Real);
  });
  sm::TermPtr t = em.term(s);
  CHECK(sm::print(*t) == "k_2");
  CHECK(em.roundingConstants() == 1);
  std::string text = script.text();
  CHECK(text.find("(declare-const k_2 Real)") != std::string::npos);
  CHECK(text.find("0.000000059604644775390625") != std::string::npos);  // u = 2^-24
  CHECK(text.find("PTX line 12") != std::string::npos);
  // The model is sound: the rounded sum is within u |x + y| (unsat), and not always exact (sat).
  auto absT = [](const sm::TermPtr& v) { return sm::mkIte(sm::mkCmp(">=", v, sm::realConst(0)), v, sm::mkNeg(v)); };
  sm::TermPtr exact = sm::mkArith("+", {sm::symbol("x_0", sm::Sort::Real), sm::symbol("x_1", sm::Sort::Real)});
  sm::Script within = script;
  within.assertTerm("q", "", sm::mkNot(sm::mkCmp("<=", absT(sm::mkArith("-", {t, exact})),
                                                 sm::mkArith("*", {sm::realConst(std::ldexp(1.0, -24)), absT(exact)}))));
  kc::smt::Options so;
  so.timeoutSeconds = 10;
  CHECK(kc::smt::solve(within.text(), so).answer == kc::smt::Answer::Unsat);
  sm::Script inexact = script;
  inexact.assertTerm("q", "", sm::mkNot(sm::mkCmp("=", t, exact)));
  CHECK(kc::smt::solve(inexact.text(), so).answer == kc::smt::Answer::Sat);
}

TEST_CASE("ptx symbolic: a tree of rounded additions is one summation idiom, as sound as its roundings", "[ptx][symbolic]") {
  // ((x0 + x1) + (x2 - x3)) + fma(x4, x5, x6): 4 roundings, 6 terms, at most 2 on a path.
  Dag d;
  int x[7];
  for (int i = 0; i < 7; ++i) x[i] = d.input(0, i);
  int left = d.add(d.add(x[0], x[1], false, 1), d.sub(x[2], x[3], false, 2), false, 3);
  int s = d.add(left, d.fma(x[4], x[5], x[6], false, 4), false, 5);
  auto emit = [&](bool idioms, sm::Script& script, sm::NameTable& names) {
    SmtEmitter em(d, script, names, [&](int, int64_t f) {
      std::string n = "x_" + std::to_string(f);
      script.declareConst(n, sm::Sort::Real);
      return sm::symbol(n, sm::Sort::Real);
    });
    em.useIdioms(idioms);
    sm::TermPtr t = em.term(s);
    CHECK(em.sums() == (idioms ? 1u : 0u));
    CHECK(em.roundingsInSums() == (idioms ? 5u : 0u));
    CHECK(em.roundingConstants() == (idioms ? 1u : 5u));
    return t;
  };
  sm::Script script;
  sm::NameTable names;
  sm::TermPtr t = emit(true, script, names);
  CHECK(script.text().find("a sum of 6 terms in 5 roundings, at most 3 on a path") != std::string::npos);
  auto absT = [](const sm::TermPtr& v) { return sm::mkIte(sm::mkCmp(">=", v, sm::realConst(0)), v, sm::mkNeg(v)); };
  auto sym = [](int i) { return sm::symbol("x_" + std::to_string(i), sm::Sort::Real); };
  sm::TermPtr exact = sm::mkArith("+", {sym(0), sym(1), sym(2), sm::mkNeg(sym(3)), sm::mkArith("*", {sym(4), sym(5)}), sym(6)});
  sm::TermPtr mass = sm::mkArith("+", {absT(sym(0)), absT(sym(1)), absT(sym(2)), absT(sym(3)),
                                       absT(sm::mkArith("*", {sym(4), sym(5)})), absT(sym(6))});
  kc::smt::Options so;
  so.timeoutSeconds = 10;
  // Within gamma_3 of the exact sum (unsat), and not always exact (sat)...
  double g3 = 3 * std::ldexp(1.0, -24) / (1 - 3 * std::ldexp(1.0, -24));
  sm::Script within = script;
  within.assertTerm("q", "", sm::mkNot(sm::mkCmp("<=", absT(sm::mkArith("-", {t, exact})),
                                                 sm::mkArith("*", {sm::realConst(g3 * (1 + 1e-15)), mass}))));
  CHECK(kc::smt::solve(within.text(), so).answer == kc::smt::Answer::Unsat);
  sm::Script inexact = script;
  inexact.assertTerm("q", "", sm::mkNot(sm::mkCmp("=", t, exact)));
  CHECK(kc::smt::solve(inexact.text(), so).answer == kc::smt::Answer::Sat);
  // ... and implied by the five roundings one by one: the idiom gives up no behaviour the
  // per-operation model allows, so PROVED stays sound.
  sm::Script plain;
  sm::NameTable plainNames;
  sm::TermPtr p = emit(false, plain, plainNames);
  plain.assertTerm("q", "", sm::mkNot(sm::mkCmp("<=", absT(sm::mkArith("-", {p, exact})),
                                                sm::mkArith("*", {sm::realConst(g3 * (1 + 1e-15)), mass}))));
  CHECK(kc::smt::solve(plain.text(), so).answer == kc::smt::Answer::Unsat);
}

TEST_CASE("ptx symbolic: a kernel's loads of an input are its cells' symbols, and the control flow stays concrete", "[ptx][symbolic]") {
  // out[g] = in[g] * in[g] + in[g] (an fma) for g < n; a relu by setp + selp for the odd g.
  SymRun r;
  runSym(r, kernel(std::string(kPrologue) +
                   "\tld.global.f32 %f1, [%rd5];\n\tfma.rn.f32 %f2, %f1, %f1, %f1;\n"
                   "\tand.b32 %r5, %r4, 1;\n\tsetp.eq.u32 %p2, %r5, 1;\n\t@!%p2 bra STORE;\n"
                   "\tsetp.gt.f32 %p3, %f1, 0f00000000;\n\tselp.f32 %f2, %f1, 0f00000000, %p3;\n"
                   "STORE:\n\tst.global.f32 [%rd6], %f2;\nDONE:\n\tret;"),
         5);
  REQUIRE(r.unknown.empty());
  REQUIRE(r.out.size() == 5);
  const Node& even = r.dag.node(r.out[0]);
  CHECK(even.kind == NodeKind::Fma);
  CHECK(even.rounded);
  CHECK(r.dag.node(even.c).kind == NodeKind::Input);
  CHECK(r.dag.node(even.c).flat == 0);
  const Node& odd = r.dag.node(r.out[3]);
  CHECK(odd.kind == NodeKind::Ite);
  CHECK(r.dag.node(odd.a).kind == NodeKind::Gt);
  CHECK(r.dag.node(odd.b).flat == 3);
  // Every lane computed its fma (the odd ones then select over it): five roundings; the
  // selects round nothing.
  CHECK(r.dag.roundings() == 5);
}

TEST_CASE("ptx symbolic: a branch on a value computed from the inputs ends the run as UNKNOWN", "[ptx][symbolic]") {
  SymRun r;
  runSym(r, kernel(std::string(kPrologue) +
                   "\tld.global.f32 %f1, [%rd5];\n\tsetp.gt.f32 %p3, %f1, 0f00000000;\n\t@%p3 bra DONE;\n"
                   "\tst.global.f32 [%rd6], %f1;\nDONE:\n\tret;"),
         4);
  CHECK(r.unknown == "a branch on a value computed from the inputs (data-dependent control flow): bra (line 30 of k)");
  CHECK(r.line == 30);
  // An address computed from an input is UNKNOWN too (a gather).
  SymRun g;
  runSym(g, kernel(std::string(kPrologue) +
                   "\tld.global.f32 %f1, [%rd5];\n\tcvt.rzi.s32.f32 %r6, %f1;\n\tst.global.f32 [%rd6], %f1;\nDONE:\n\tret;"),
         4);
  CHECK_THAT(g.unknown, Catch::StartsWith("a conversion of a value computed from the inputs"));
}

TEST_CASE("ptx symbolic: an output cell never written is poison", "[ptx][symbolic]") {
  SymRun r;  // only g < n - 1 is written: the tail cell keeps the poison
  runSym(r, kernel(std::string(kPrologue) +
                   "\tadd.s32 %r7, %r4, 1;\n\tsetp.ge.u32 %p4, %r7, %r9;\n\t@%p4 bra DONE;\n"
                   "\tld.global.f32 %f1, [%rd5];\n\tst.global.f32 [%rd6], %f1;\nDONE:\n\tret;"),
         3);
  REQUIRE(r.unknown.empty());
  CHECK(r.dag.node(r.out[0]).kind == NodeKind::Input);
  CHECK(r.dag.node(r.out[2]).kind == NodeKind::Poison);
}

TEST_CASE("ptx symbolic: concrete probes fill every tensor input, with rank-0 inputs at 1", "[ptx][symbolic]") {
  Counterexample layout;
  layout.dims = {{"R", 2}, {"H", 3}};
  layout.inputs.push_back({"x", {2, 3}, std::vector<float>(6, 0.0f)});
  layout.inputs.push_back({"eps", {}, std::vector<float>(1, 0.0f)});
  std::vector<ConcreteProbe> probes = concreteProbes(layout);
  REQUIRE(probes.size() == 7);
  for (const auto& p : probes) {
    REQUIRE(p.inputs.dims == layout.dims);
    REQUIRE(p.inputs.inputs.size() == 2);
    CHECK(p.inputs.inputs[0].values.size() == 6);
    CHECK(p.inputs.inputs[1].values == std::vector<float>{1.0f});
  }
  // The large offset with a small spread: exact in f32, so the kernel sees these values.
  auto offset = std::find_if(probes.begin(), probes.end(), [](const ConcreteProbe& p) { return p.name.find("4096 +") != std::string::npos; });
  REQUIRE(offset != probes.end());
  CHECK(offset->inputs.inputs[0].values == std::vector<float>{4097.0f, 4094.0f, 4096.5f, 4099.0f, 4097.0f, 4094.0f});
  CHECK(probes[2].inputs.inputs[0].values[0] == 1.000244140625f);
}

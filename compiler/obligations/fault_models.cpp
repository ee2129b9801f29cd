// The fault-model obligations (issue 5): for an output defined as a sum reduction, does the
// tolerance catch the two precision faults allclose lets through — a reduction accumulated in
// bf16 instead of f32 (blind-band-accumulator), and f32 operands rounded to TF32 before the
// products (blind-band-operand, silent TF32)? `sat` (expected) is an input on which the
// tolerance rejects the faulty kernel; `unsat` means the tolerance is blind to that fault at
// the reduced shape (longer reductions lose more).
//
// Each obligation is two scripts. The script itself writes the faulty output exactly, each
// rounding as SMT-LIB's ((_ to_fp e s) RNE x) read back by fp.to_real, over the oracle's own
// terms, so a model is a real witness. Unconstrained, that floating-point search is slow; with
// the inputs fixed (smt::fixedValueProbes, 1 + 2^-12 among them: exact in f32, not in TF32 or
// bf16) every rounding is a constant, which is how witnesses are found. Its relaxation
// replaces the roundings by the error bound of the faulty computation (|y - y*| <= e sum |t|,
// linear): every faulty output is among its models, so its `unsat` proves the blindness that
// the exact script cannot get through.
#include <algorithm>

#include "compiler/ir/eval.h"
#include "compiler/obligations/builder.h"
#include "stdlib/numerics/dtype.h"

namespace kc::obl::detail {

using smt::Sort;
using smt::TermPtr;

namespace {

// x rounded to nearest-even in `dtype`, as a Real. Sort has no floating-point sorts (these two
// applications are all that need one), so the rounding is an opaque application.
TermPtr roundTo(const std::string& dtype, TermPtr x) {
  const auto& f = numerics::floatFormat(*numerics::parseDType(dtype));
  std::string to = "(_ to_fp " + std::to_string(f.exponentBits) + " " + std::to_string(f.precision) + ")";
  return smt::app("fp.to_real", Sort::Real, {smt::app(to, Sort::Real, {smt::symbol("RNE", Sort::Real), std::move(x)})});
}

int precisionOf(const std::string& dtype) { return numerics::floatFormat(*numerics::parseDType(dtype)).precision; }
double uOf(const std::string& dtype) { return numerics::unitRoundoff(*numerics::parseDType(dtype)); }

struct Fault {
  Kind kind;
  std::string name;         // "accumulator", "operand"
  std::string title;        // "a bf16 accumulator"
  std::string what;         // how the faulty output is computed
  std::string accumulator;  // the dtype the faulty sum is accumulated in
  std::string operands;     // "" or the dtype both factors are rounded to first
};

// The sum reduction that defines y, when a fault model applies to it.
const ir::Node* faultableSum(const sema::ContractInfo& c, const sema::Definition* d, const Fault& f,
                             const ReducedShape& shape) {
  if (!d) return nullptr;
  const ir::Node& v = *d->value;
  if (v.op != ir::Op::Reduce || v.name != "sum" || v.vars.size() != 1 || selectsOne(v)) return nullptr;
  if (f.operands.empty()) return &v;
  const ir::Node& body = *v.kids[2];
  if (body.op != ir::Op::Mul || body.kids.size() != 2) return nullptr;
  bool allF32 = true;
  ir::walk(body, [&](const ir::Node& n) {
    if (n.op != ir::Op::TensorRead || n.role != ir::Role::Input) return;
    for (const auto& t : c.kernel->tensors)
      if (t.name == n.name && resolvedDType(t, shape) != "f32") allF32 = false;
  });
  return allF32 ? &v : nullptr;
}

// One script of the obligation: exact roundings, or (relaxed) the error bound of the fault.
std::string script(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape,
                   const sema::TensorInfo& y, const sema::Condition& post, const sema::Definition& d,
                   const ir::Node& v, const Fault& f, const std::string& T, bool relaxed, const std::string& id,
                   const std::string& purpose, std::vector<std::string>* inputs) {
  Builder b(c, opts, shape);
  if (!relaxed) b.script.logic = "QF_UFFPNRA";  // reals with floating-point roundings (and the ulp functions)
  b.assertPre();
  const ir::Node& body = *v.kids[2];
  bool narrowOut = precisionOf(T) < precisionOf(f.accumulator);
  std::string section =
      relaxed ? "the fault, relaxed: " + y.name + " within the error bound of " + f.what
              : "the fault: " + y.name + " with " + f.what;
  b.u.outputModel = [&](const std::string&, const std::vector<int64_t>& idx, const std::string& printed) {
    ir::IntEnv env = b.u.bind(d.indices, idx);
    for (const auto& [dim, value] : shape.fixed) env.emplace(dim, value);
    auto lo = ir::evalInt(*v.kids[0], env), hi = ir::evalInt(*v.kids[1], env);
    if (!lo || !hi) throw Unsupported("the reduction's range is not fixed at the reduced shape");
    int64_t n = std::max<int64_t>(1, *hi - *lo + 1);
    TermPtr acc, absSum;
    for (int64_t k = *lo; k <= *hi; ++k) {
      ir::IntEnv at = env;
      at[v.vars[0]] = k;
      if (relaxed) {
        TermPtr t = b.u.abs(b.u.term(body, at));
        absSum = absSum ? smt::mkArith("+", {absSum, t}) : t;
        continue;
      }
      TermPtr term = f.operands.empty() ? b.u.term(body, at)
                                        : smt::mkArith("*", {roundTo(f.operands, b.u.term(*body.kids[0], at)),
                                                             roundTo(f.operands, b.u.term(*body.kids[1], at))});
      term = roundTo("f32", term);
      acc = roundTo(f.accumulator, acc ? smt::mkArith("+", {acc, term}) : term);
    }
    b.script.declareConst(printed, Sort::Real);
    TermPtr sym = smt::symbol(printed, Sort::Real);
    if (relaxed) {
      // Recursive summation in precision u errs by at most gamma(n - 1, u) sum |x_k|; with the
      // f32 products, the TF32 factors ((1 + u_tf32)^2 - 1 <= 3 u_tf32) and a last rounding
      // into a narrower T: e sum |t_k| + u_T (|y*| + e sum |t_k|), e as below.
      TermPtr e = f.operands.empty()
                      ? smt::mkArith("+", {b.u.gamma(smt::intConst(n), f.accumulator), smt::realConst(2 * uOf("f32"))})
                      : smt::mkArith("+", {smt::realConst(3 * uOf(f.operands)),
                                           smt::mkArith("*", {smt::realConst(2), b.u.gamma(smt::intConst(n), "f32")})});
      TermPtr bound = absSum ? smt::mkArith("*", {e, absSum}) : smt::realConst(0);
      TermPtr star = b.u.oracleCell(y.name, idx);
      if (narrowOut)
        bound = smt::mkArith("+", {bound, smt::mkArith("*", {smt::realConst(uOf(T)), smt::mkArith("+", {b.u.abs(star), bound})})});
      b.script.assertTerm(section, "", smt::mkCmp("<=", b.u.abs(smt::mkArith("-", {sym, star})), bound));
    } else {
      if (!acc) acc = smt::realConst(0);
      if (narrowOut) acc = roundTo(T, acc);
      b.script.assertTerm(section, "", smt::mkCmp("=", sym, acc));
    }
    return sym;
  };
  TermPtr holdsPost = b.u.term(*post.expr);
  b.u.addFacts();
  b.script.assertTerm("the tolerance rejects it", "violated: " + ir::print(*post.expr), smt::mkNot(holdsPost));
  std::vector<std::string> model = {"reduced shape: " + dimsText(shape), std::string("model: ") + kFiniteNote};
  model.push_back(relaxed ? "model: relaxed: each rounding an error term within its bound; unsat here is unsat of "
                            "the exact script, sat says nothing"
                          : "model: each rounding is ((_ to_fp e s) RNE x) read back by fp.to_real");
  Obligation o = b.finish(id, f.kind, Answer::Sat, purpose, post.range, model);
  if (inputs) *inputs = o.inputs;
  return o.smt2;
}

}  // namespace

void faultModels(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape,
                 const sema::TensorInfo& y, const sema::Condition& post, ObligationSet& out) {
  const sema::Definition* d = nullptr;
  for (const auto& o : c.oracle)
    if (o.name == y.name) d = &o;
  std::string T = resolvedDType(y, shape);
  auto Td = numerics::parseDType(T);
  // An f64 result has no f32 accumulator to replace.
  if (!Td || !numerics::isFloat(*Td) || precisionOf(T) > precisionOf("f32")) return;
  const Fault faults[] = {
      {Kind::BlindBandAccumulator, "accumulator", "a bf16 accumulator",
       "its reduction accumulated in bf16 (each product rounded to f32, each partial sum to bf16)", "bf16", ""},
      {Kind::BlindBandOperand, "operand", "silent TF32",
       "both factors of each product rounded to TF32 first (the products and the sum in f32)", "f32", "tf32"}};
  for (const Fault& f : faults) {
    // Where a fault does not exist there is no question (no obligation, nothing skipped): no
    // sum to accumulate (or a sum that only selects), no products, operands that are not f32.
    const ir::Node* v = faultableSum(c, d, f, shape);
    if (!v) continue;
    std::string id = c.id + "/blind-band-" + f.name;
    try {
      std::string purpose = "The tolerance sees " + f.title + ": some input meeting the precondition, with " + y.name +
                            " computed with " + f.what + ", violates " + shorten(ir::print(*post.expr), 80) +
                            " at the reduced shape (" + dimsText(shape) +
                            "); unsat means the tolerance is blind to that fault there (longer reductions lose more).";
      Obligation o;
      o.id = id;
      o.kind = f.kind;
      o.expected = Answer::Sat;
      o.purpose = purpose;
      o.range = post.range;
      o.smt2 = script(c, opts, shape, y, post, *d, *v, f, T, false, id, purpose, &o.inputs);
      o.relaxation = script(c, opts, shape, y, post, *d, *v, f, T, true, id + " (relaxed)", purpose, nullptr);
      o.probeFirst = true;
      out.obligations.push_back(std::move(o));
    } catch (const Unsupported& e) {
      out.skipped.push_back({id, e.what(), post.range});
    }
  }
}

}  // namespace kc::obl::detail

// The prove verdicts (prove.h): each obligation's answer judged, with counterexamples named
// as the contract writes them and the plan consulted for reachable index widths.
#include "prover/prove.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "compiler/diag/diagnostics.h"
#include "compiler/ir/eval.h"
#include "compiler/plan/index_width.h"
#include "compiler/plan/planner.h"

namespace kc::prove {

const char* verdictName(Verdict v) {
  switch (v) {
    case Verdict::Ok: return "ok";
    case Verdict::Covered: return "covered";
    case Verdict::Blind: return "blind";
    case Verdict::Problem: return "problem";
    case Verdict::NotProven: return "not proven";
    case Verdict::Error: return "error";
  }
  return "?";
}

// A header line of the script ("; reduced shape: R = 2, H = 2; T = f32" -> "R = 2, H = 2; T = f32").
std::string scriptHeader(const std::string& smt2, const std::string& key) {
  std::string prefix = "; " + key + ": ";
  size_t at = smt2.find(prefix);
  if (at == std::string::npos) return "";
  size_t from = at + prefix.size();
  return smt2.substr(from, smt2.find('\n', from) - from);
}

namespace {

// The uninterpreted functions a script declares: exp_real, ulp_f32, ...
std::vector<std::string> uninterpreted(const std::string& smt2) {
  std::vector<std::string> out;
  for (size_t at = 0; (at = smt2.find("\n(declare-fun ", at)) != std::string::npos;) {
    at += 14;
    out.push_back(smt2.substr(at, smt2.find(' ', at) - at));
  }
  return out;
}

}  // namespace

namespace {

std::string joined(const std::vector<std::string>& xs, const std::string& sep = ", ") {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : sep) + x;
  return s;
}

}  // namespace

// --- counterexamples ----------------------------------------------------------------------------


Named prettyName(const std::string& sym, const sema::ContractInfo& c) {
  if (c.kernel && c.kernel->dim(sym)) return {sym, 0};
  std::vector<std::string> idx;
  std::string base = sym;
  for (;;) {
    size_t us = base.rfind('_');
    if (us == std::string::npos || us == 0) break;
    std::string part = base.substr(us + 1);
    bool neg = part.size() > 1 && part[0] == 'm';
    std::string digits = neg ? part.substr(1) : part;
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) break;
    idx.insert(idx.begin(), (neg ? "-" : "") + digits);
    base = base.substr(0, us);
  }
  auto cell = [&](const std::string& name) { return idx.empty() ? name : name + "[" + joined(idx) + "]"; };
  if (c.kernel)
    if (const sema::TensorInfo* t = c.kernel->tensor(base); t && t->rank() == idx.size())
      return {cell(base), t->output ? 2 : 1};
  bool star = !base.empty() && base.back() == '*';
  std::string plain = star ? base.substr(0, base.size() - 1) : base;
  for (const auto* defs : {&c.oracle, &c.tolerance})
    for (const auto& d : *defs)
      if (d.name == plain && d.indices.size() == idx.size()) return {cell(base), 2};
  if (base == "delta") return {cell(base), 2};
  return {sym, 2};
}

namespace {

Counterexample counterexample(const smt::Result& r, const sema::ContractInfo& c) {
  constexpr size_t kMaxLines = 16;
  std::vector<std::pair<Named, std::string>> items;
  for (const auto& m : r.model) items.push_back({prettyName(m.name, c), smt::readableValue(m)});
  std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first.group < b.first.group; });
  Counterexample out;
  for (const auto& [n, v] : items) {
    if (out.lines.size() >= kMaxLines) {
      ++out.more;
      continue;
    }
    out.lines.push_back(n.text + " = " + v);
  }
  return out;
}

}  // namespace

namespace {

// --- index widths and the plan ------------------------------------------------------------------

const sema::TensorInfo* indexWidthTensor(const obl::Obligation& o, const sema::ContractInfo& c) {
  size_t slash = o.id.rfind('/');
  return c.kernel ? c.kernel->tensor(o.id.substr(slash + 1)) : nullptr;
}

}  // namespace

namespace {

std::optional<int64_t> elementCount(const sema::TensorInfo& t, const ir::IntEnv& env) {
  int64_t n = 1;
  for (const auto& e : t.shape) {
    auto v = ir::evalInt(*e, env);
    if (!v || __builtin_mul_overflow(n, *v, &n)) return std::nullopt;
  }
  return n;
}

}  // namespace

namespace {

// The first plan case where the tensor holds more than `limit` elements: "case #24 (M = ...)".
std::string coveringCase(const plan::Plan& p, const sema::TensorInfo& t, int64_t limit) {
  for (const auto& cs : p.cases) {
    ir::IntEnv env(cs.dims.begin(), cs.dims.end());
    auto n = elementCount(t, env);
    if (n && *n > limit) {
      std::string dims;
      for (const auto& [d, v] : cs.dims) dims += (dims.empty() ? "" : ", ") + d + " = " + std::to_string(v);
      return "case #" + std::to_string(cs.number) + " (" + dims + "): " + t.name + " holds " + std::to_string(*n) +
             " elements";
    }
  }
  return "";
}

}  // namespace

namespace {

// --- one obligation -----------------------------------------------------------------------------


std::string whatFails(const obl::Obligation& o) {
  // defined/<definition>/<site>-<n>
  std::string rest = o.id.substr(o.id.find("/defined/") + 9);
  std::string def = rest.substr(0, rest.find('/'));
  std::string site = rest.substr(rest.find('/') + 1);
  site = site.substr(0, site.rfind('-'));
  std::string what = site == "div"    ? "a division by zero"
                     : site == "sqrt" ? "the square root of a negative number"
                     : site == "rsqrt" ? "rsqrt of a number <= 0"
                                       : site + " of a number <= 0";
  return def + " can be undefined: " + what + " is possible when the precondition holds";
}

}  // namespace

namespace {

std::string problemMessage(const obl::Obligation& o, const Outcome& out, const std::string& shape) {
  std::string at = shape.empty() ? "" : " (at the reduced shape " + shape + ")";
  switch (o.kind) {
    case obl::Kind::PreSatisfiable:
      return "the precondition is unsatisfiable" + at + ": the contract is vacuous, every implementation meets it";
    case obl::Kind::IndexWidth31:
    case obl::Kind::IndexWidth32: {
      const sema::TensorInfo* t = indexWidthTensor(o, *out.contract);
      std::string name = t ? t->name : "a tensor";
      int bits = o.kind == obl::Kind::IndexWidth31 ? 31 : 32;
      std::string offsets = bits == 31 ? "32-bit signed" : "32-bit unsigned";
      std::string head = name + " can hold more than 2^" + std::to_string(bits) +
                         " elements within the scope, and the plan holds no case that large: ";
      // One case is enough, one dim varied (plan_large_index.cpp); a large value in the
      // protocol's dims would be paired with every value of the other dims instead.
      std::string dims;
      if (t)
        for (const auto& [d, v] : plan::largeIndexDims(*out.contract, t->name, bits))
          dims += (dims.empty() ? "" : ", ") + d + " = " + std::to_string(v);
      if (dims.empty())
        return head + "no shape the planner grows reaches it; narrow the scope so " + offsets + " offsets suffice";
      return head + "its large-index case (" + dims + ") was dropped at the plan's bound of " +
             std::to_string(plan::Options{}.maxCases) + " cases, after the coverage cases; list fewer values in the " +
             "protocol's dims (not a large one: each is paired with every other dim's values), or narrow the scope so " +
             offsets + " offsets suffice";
    }
    case obl::Kind::Defined: return whatFails(o) + at;
    case obl::Kind::BlindBandDetect:
      return "the tolerance is blind to a one-ulp fault" + at +
             ": every output one spacing of its dtype away from the oracle still meets the postcondition";
    case obl::Kind::BlindBandCorrect:
      return "a correct implementation can fail" + at +
             ": with every output within the error of a correct implementation (the script's model), some input " +
             "meeting the precondition violates the postcondition (the tolerance is too tight)";
    case obl::Kind::BlindBandAccumulator:
    case obl::Kind::BlindBandOperand:
      return "the tolerance is blind to a precision fault" + at;
  }
  return std::string("expected ") + obl::answerName(o.expected) + ", the solver answered " +
         smt::answerName(out.result.answer);
}

}  // namespace

// The catalogue code of a finding (compiler/diag/catalog.def, KC3xxx).
std::string findingCode(const obl::Obligation& o, Verdict v) {
  DiagCode code = DiagCode::SolverFailed;
  if (v == Verdict::NotProven) code = DiagCode::NotProven;
  if (v == Verdict::Problem) switch (o.kind) {
      case obl::Kind::PreSatisfiable: code = DiagCode::VacuousPrecondition; break;
      case obl::Kind::IndexWidth31:
      case obl::Kind::IndexWidth32: code = DiagCode::IndexWidthUncovered; break;
      case obl::Kind::Defined: code = DiagCode::MayBeUndefined; break;
      case obl::Kind::BlindBandCorrect: code = DiagCode::ToleranceTooTight; break;
      case obl::Kind::BlindBandDetect:
      case obl::Kind::BlindBandAccumulator:
      case obl::Kind::BlindBandOperand: return "";  // reported as blind, never a problem
    }
  return diagCodeString(code);
}

namespace {

void judge(Outcome& out, std::map<const sema::ContractInfo*, plan::Plan>& plans, const std::string& limitText) {
  const obl::Obligation& o = *out.o;
  const smt::Result& r = out.result;
  std::string shape = scriptHeader(o.smt2, "reduced shape");
  if (r.answer == smt::Answer::Timeout) {
    // The message leaves out how the limit struck (cvc5's own limit, or the kill after the
    // grace): the same contract gives the same text.
    out.verdict = Verdict::NotProven;
    out.note = "not proven: no answer within the time limit of " + limitText + "; a timeout is not a pass";
    return;
  }
  if (r.answer == smt::Answer::Unknown) {
    out.verdict = Verdict::NotProven;
    out.note = "not proven: the solver answered unknown" + (r.reason.empty() ? "" : " (" + r.reason + ")");
    return;
  }
  if (r.answer == smt::Answer::Error) {
    out.verdict = Verdict::Error;
    out.note = "the solver could not run this obligation: " + r.reason;
    return;
  }
  bool sat = r.answer == smt::Answer::Sat;
  if (sat == (o.expected == obl::Answer::Sat)) {
    out.verdict = Verdict::Ok;
    return;
  }
  if (sat) out.cex = counterexample(r, *out.contract);
  if (sat && (o.kind == obl::Kind::IndexWidth31 || o.kind == obl::Kind::IndexWidth32)) {
    // Reachable: fine when the plan holds a case past the limit (docs/language.md, "The kinds").
    if (const sema::TensorInfo* t = indexWidthTensor(o, *out.contract)) {
      auto it = plans.find(out.contract);
      if (it == plans.end()) it = plans.emplace(out.contract, plan::makePlan(*out.contract)).first;
      int64_t limit = static_cast<int64_t>(plan::indexWidthLimit(o.kind == obl::Kind::IndexWidth31 ? 31 : 32));
      std::string c = coveringCase(it->second, *t, limit);
      ir::IntEnv env;
      for (const auto& m : r.model)
        if (out.contract->kernel->dim(m.name)) env[m.name] = std::strtoll(m.value.c_str(), nullptr, 10);
      if (auto n = elementCount(*t, env)) out.cex.lines.push_back("(" + t->name + " holds " + std::to_string(*n) + " elements)");
      if (!c.empty()) {
        out.verdict = Verdict::Covered;
        out.note = "covered by the plan: " + c;
        return;
      }
    }
  }
  if (o.kind == obl::Kind::BlindBandDetect && !sat) {
    out.verdict = Verdict::Blind;
    out.note = "blind to one-ulp faults" + (shape.empty() ? "" : " at " + shape) +
               ": every output one spacing of its dtype from the oracle meets the postcondition, so an epilogue that "
               "rounds wrongly passes; std.prec.epilogue-exactness@1 (exact inputs, y == round(T, y*)) catches those";
    return;
  }
  if ((o.kind == obl::Kind::BlindBandAccumulator || o.kind == obl::Kind::BlindBandOperand) && !sat) {
    bool acc = o.kind == obl::Kind::BlindBandAccumulator;
    out.verdict = Verdict::Blind;
    out.note = std::string(acc ? "blind to a bf16 accumulator" : "blind to silent TF32") +
               (shape.empty() ? "" : " at " + shape) + ": computed that way, every output still meets the " +
               "postcondition there; longer reductions lose more, and " +
               (acc ? "std.prec.accumulator@1" : "std.prec.operand-coercion@1") +
               " chooses inputs that show it";
    return;
  }
  out.verdict = Verdict::Problem;
  out.note = problemMessage(o, out, shape);
  if (sat) {
    auto fns = uninterpreted(o.smt2);
    out.uncertain = !fns.empty();
    if (out.uncertain)
      out.note += " (" + joined(fns) + (fns.size() == 1 ? " is" : " are") +
                  " only partly modelled: check that the counterexample is real)";
  }
}

}  // namespace

Prover::Prover(const Options& o) {
  solver_.timeoutSeconds = o.timeout;
  std::ostringstream t;
  t << o.timeout << " s";
  limitText_ = t.str();
}

Outcome Prover::prove(const obl::Obligation& o, const sema::ContractInfo* contract) {
  Outcome out;
  out.o = &o;
  out.contract = contract;
  solver_.probes = smt::fixedValueProbes(o.inputs);
  solver_.headStartSeconds = o.probeFirst ? 0.1 : 2.0;
  solver_.relaxation = o.relaxation;
  out.result = smt::solve(o.smt2, solver_);
  judge(out, plans_, limitText_);
  // Under an unsatisfiable precondition every question that assumes it is answered trivially.
  if (o.kind == obl::Kind::PreSatisfiable && out.verdict == Verdict::Problem) vacuous_.insert(contract);
  bool assumesPre = o.kind != obl::Kind::IndexWidth31 && o.kind != obl::Kind::IndexWidth32 &&
                    o.kind != obl::Kind::PreSatisfiable;
  if (assumesPre && vacuous_.count(contract) && out.result.answer == smt::Answer::Unsat) {
    if (out.verdict == Verdict::Ok)
      out.note = "ok, vacuously: no input meets the precondition";
    else if (out.verdict == Verdict::Problem)
      out.note += " (trivially: no input meets the precondition)";
  }
  ++counts_[out.verdict];
  return out;
}

size_t Prover::count(Verdict v) const {
  auto it = counts_.find(v);
  return it == counts_.end() ? 0 : it->second;
}

}  // namespace kc::prove

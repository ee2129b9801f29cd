// kcontract prove FILE|ID... [--smt2 DIR] [--timeout S] [--json] [-I DIR]: discharges each
// contract's symbolic obligations with cvc5 (backends/smt) and says, per obligation, whether
// its answer is the fine one. docs/language.md ("Obligations", "kcontract prove").
//
// Verdicts: ok (the expected answer), covered (an index width is reachable and the plan holds
// a case past it), problem (the unexpected answer: a located message says what it means),
// not proven (unknown, timeout, or an obligation kcontract could not build), error (the
// solver could not run the script). A timeout is never ok.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "backends/smt/solver.h"
#include "compiler/driver/cli.h"
#include "compiler/driver/obligation_files.h"
#include "compiler/driver/output.h"
#include "compiler/ir/eval.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"
#include "compiler/plan/planner.h"

namespace kc::driver {

namespace {

struct ProveOptions {
  InputOptions in;
  std::string smt2;  // a folder, or "" for none
  double timeout = 10.0;
  bool json = false;
} gProve;

// Blind: the tolerance cannot see a one-ulp fault. That is the nature of any tolerance of
// one ulp or more (it must admit the output's own rounding), not a defect: it is reported,
// with the class that can see such faults, and does not fail the run.
enum class Verdict { Ok, Covered, Blind, Problem, NotProven, Error };

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

std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

// A header line of the script ("; reduced shape: R = 2, H = 2; T = f32" -> "R = 2, H = 2; T = f32").
std::string scriptHeader(const std::string& smt2, const std::string& key) {
  std::string prefix = "; " + key + ": ";
  size_t at = smt2.find(prefix);
  if (at == std::string::npos) return "";
  size_t from = at + prefix.size();
  return smt2.substr(from, smt2.find('\n', from) - from);
}

// The uninterpreted functions a script declares: exp_real, ulp_f32, ...
std::vector<std::string> uninterpreted(const std::string& smt2) {
  std::vector<std::string> out;
  for (size_t at = 0; (at = smt2.find("\n(declare-fun ", at)) != std::string::npos;) {
    at += 14;
    out.push_back(smt2.substr(at, smt2.find(' ', at) - at));
  }
  return out;
}

std::string joined(const std::vector<std::string>& xs, const std::string& sep = ", ") {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : sep) + x;
  return s;
}

// --- counterexamples ----------------------------------------------------------------------------

// A model symbol as the contract writes it: x_0_1 -> x[0, 1], y*_1 -> y*[1], m1 -> -1.
struct Named {
  std::string text;
  int group = 2;  // 0 a dimension, 1 an input, 2 anything else
};

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

struct Counterexample {
  std::vector<std::string> lines;  // "x[0, 1] = -0.5", dims and inputs first
  size_t more = 0;                 // left out of the text (the JSON has all)
};

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

// --- index widths and the plan ------------------------------------------------------------------

const sema::TensorInfo* indexWidthTensor(const obl::Obligation& o, const sema::ContractInfo& c) {
  size_t slash = o.id.rfind('/');
  return c.kernel ? c.kernel->tensor(o.id.substr(slash + 1)) : nullptr;
}

std::optional<int64_t> elementCount(const sema::TensorInfo& t, const ir::IntEnv& env) {
  int64_t n = 1;
  for (const auto& e : t.shape) {
    auto v = ir::evalInt(*e, env);
    if (!v || __builtin_mul_overflow(n, *v, &n)) return std::nullopt;
  }
  return n;
}

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

// --- one obligation -----------------------------------------------------------------------------

struct Outcome {
  const obl::Obligation* o = nullptr;
  const sema::ContractInfo* contract = nullptr;
  smt::Result result;
  Verdict verdict = Verdict::Error;
  std::string note;     // covered: the plan case; problem: the message; not proven/error: why
  bool uncertain = false;  // a problem found with uninterpreted functions: the model may be spurious
  Counterexample cex;
};

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
      return name + " can hold more than 2^" + std::to_string(bits) + "-1 elements within the scope, and the plan " +
             "holds no case that large: add a large-index size to the protocol's dims, or narrow the scope so " +
             (bits == 31 ? "32-bit signed" : "32-bit unsigned") + " offsets suffice";
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
      int64_t limit = (int64_t{1} << (o.kind == obl::Kind::IndexWidth31 ? 31 : 32)) - 1;
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

// --- printing -----------------------------------------------------------------------------------

void printText(const Outcome& out, const Compilation& c, const std::map<std::string, std::string>& fileOf, bool color) {
  const obl::Obligation& o = *out.o;
  std::cout << o.id << "\n";
  std::cout << "  kind: " << obl::kindName(o.kind) << ", expect " << obl::answerName(o.expected) << ", at "
            << obl::locationText(o.range, &c.sources) << "\n";
  std::cout << "  " << o.purpose << "\n";
  if (auto f = fileOf.find(o.id); f != fileOf.end()) std::cout << "  script: " << f->second << "\n";
  std::cout << "  answer: " << smt::answerName(out.result.answer) << " in " << secondsText(out.result.seconds)
            << (out.result.strategy.empty() ? "" : " (" + out.result.strategy + ")") << "\n";
  if (!out.cex.lines.empty()) {
    std::string shape = scriptHeader(o.smt2, "reduced shape");
    // A covered index width is reachable, but fine: what the solver found is a witness.
    std::cout << (out.verdict == Verdict::Covered ? "  witness" : "  counterexample")
              << (shape.empty() ? "" : " at " + shape) << ":\n";
    for (const auto& l : out.cex.lines) std::cout << "    " << l << "\n";
    if (out.cex.more) std::cout << "    ... " << out.cex.more << " more values (--json lists them all)\n";
  }
  std::cout << "  verdict: " << (out.verdict == Verdict::Covered || out.verdict == Verdict::Blind ||
                                          (out.verdict == Verdict::Ok && !out.note.empty())
                                      ? out.note
                                      : verdictName(out.verdict))
            << "\n";
  std::cout.flush();
  if (out.verdict == Verdict::Problem || out.verdict == Verdict::Error || out.verdict == Verdict::NotProven) {
    const char* sev = out.verdict == Verdict::NotProven ? "warning" : "error";
    printLocated(std::cerr, c.sources, o.range, sev, out.note, color, findingCode(o, out.verdict));
    std::cerr.flush();
  }
}

nlohmann::json outcomeJson(const Outcome& out, const Compilation& c, const std::map<std::string, std::string>& fileOf) {
  const obl::Obligation& o = *out.o;
  nlohmann::json j;
  j["id"] = o.id;
  j["kind"] = obl::kindName(o.kind);
  j["expected"] = obl::answerName(o.expected);
  j["answer"] = smt::answerName(out.result.answer);
  if (!out.result.strategy.empty()) j["strategy"] = out.result.strategy;
  j["seconds"] = out.result.seconds;
  j["verdict"] = verdictName(out.verdict);
  j["purpose"] = o.purpose;
  j["location"] = locationJson(o.range, c.sources);
  if (!out.note.empty()) j["message"] = out.note;
  if (out.verdict == Verdict::Problem || out.verdict == Verdict::NotProven || out.verdict == Verdict::Error)
    if (std::string code = findingCode(o, out.verdict); !code.empty()) j["code"] = code;
  if (out.uncertain) j["may_be_spurious"] = true;
  if (!out.result.reason.empty()) j["reason"] = out.result.reason;
  if (auto f = fileOf.find(o.id); f != fileOf.end()) j["file"] = f->second;
  if (!out.result.model.empty()) {
    nlohmann::json model = nlohmann::json::array();
    for (const auto& m : out.result.model) {
      nlohmann::json v{{"name", m.name}, {"display", prettyName(m.name, *out.contract).text}, {"sort", m.sort},
                       {"value", m.value}};
      if (m.approx) v["approx"] = *m.approx;
      model.push_back(v);
    }
    j[out.verdict == Verdict::Ok || out.verdict == Verdict::Covered ? "witness" : "counterexample"] = model;
  }
  return j;
}

int runProve(const GlobalOptions& opts) {
  Compilation c;
  Targets chosen;
  if (!compileInputs(c, gProve.in, opts, Stage::Sema, chosen)) return kExitInput;

  std::vector<obl::Obligation> all;
  std::vector<obl::Skipped> skipped;
  std::vector<const sema::ContractInfo*> owners;
  collectObligations(c, chosen, all, skipped, &owners);

  std::map<std::string, std::string> fileOf;
  if (!gProve.smt2.empty() && !writeObligationScripts(gProve.smt2, all, fileOf)) return kExitInput;

  bool color = useColor(opts, STDERR_FILENO);
  smt::Options so;
  so.timeoutSeconds = gProve.timeout;
  std::map<const sema::ContractInfo*, plan::Plan> plans;
  std::map<Verdict, size_t> counts;
  std::set<const sema::ContractInfo*> vacuous;
  std::string limitText = [] {
    std::ostringstream t;
    t << gProve.timeout << " s";
    return t.str();
  }();
  nlohmann::json items = nlohmann::json::array();
  auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < all.size(); ++i) {
    Outcome out;
    out.o = &all[i];
    out.contract = owners[i];
    so.probes = smt::fixedValueProbes(all[i].inputs);
    so.headStartSeconds = all[i].probeFirst ? 0.1 : 2.0;
    so.relaxation = all[i].relaxation;
    out.result = smt::solve(all[i].smt2, so);
    judge(out, plans, limitText);
    // Under an unsatisfiable precondition every question that assumes it is answered trivially.
    if (out.o->kind == obl::Kind::PreSatisfiable && out.verdict == Verdict::Problem) vacuous.insert(out.contract);
    bool assumesPre = out.o->kind != obl::Kind::IndexWidth31 && out.o->kind != obl::Kind::IndexWidth32 &&
                      out.o->kind != obl::Kind::PreSatisfiable;
    if (assumesPre && vacuous.count(out.contract) && out.result.answer == smt::Answer::Unsat) {
      if (out.verdict == Verdict::Ok)
        out.note = "ok, vacuously: no input meets the precondition";
      else if (out.verdict == Verdict::Problem)
        out.note += " (trivially: no input meets the precondition)";
    }
    ++counts[out.verdict];
    if (gProve.json)
      items.push_back(outcomeJson(out, c, fileOf));
    else
      printText(out, c, fileOf, color);
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  size_t notProven = counts[Verdict::NotProven] + skipped.size();
  int rc = counts[Verdict::Error] ? kExitInternal
           : counts[Verdict::Problem] || notProven ? kExitFailed
                                                   : kExitOk;
  if (gProve.json) {
    nlohmann::json j;
    j["solver"] = smt::solverVersion();
    j["timeout_s"] = gProve.timeout;
    j["obligations"] = items;
    j["skipped"] = nlohmann::json::array();
    for (const auto& s : skipped)
      j["skipped"].push_back({{"id", s.id}, {"reason", s.reason}, {"location", locationJson(s.range, c.sources)}});
    j["summary"] = {{"obligations", all.size()},     {"ok", counts[Verdict::Ok]},
                    {"covered", counts[Verdict::Covered]}, {"blind", counts[Verdict::Blind]},
                    {"problems", counts[Verdict::Problem]},
                    {"not_proven", counts[Verdict::NotProven]}, {"skipped", skipped.size()},
                    {"errors", counts[Verdict::Error]}, {"seconds", total}, {"exit", rc}};
    std::cout << j.dump(2) << "\n";
    return rc;
  }

  for (const auto& s : skipped)
    std::cout << "skipped " << s.id << " (" << obl::locationText(s.range, &c.sources) << "): " << s.reason << "\n";
  std::cout << "prove: " << all.size() << " obligation" << (all.size() == 1 ? "" : "s") << ": " << counts[Verdict::Ok]
            << " ok, " << counts[Verdict::Covered] << " covered by the plan, " << counts[Verdict::Blind]
            << " blind to one-ulp faults, " << counts[Verdict::Problem] << " problem"
            << (counts[Verdict::Problem] == 1 ? "" : "s") << ", " << counts[Verdict::NotProven] << " not proven, "
            << skipped.size() << " skipped, " << counts[Verdict::Error] << " error"
            << (counts[Verdict::Error] == 1 ? "" : "s") << " in " << secondsText(total) << "\n";
  std::cout.flush();
  if (notProven)
    std::cerr << "kcontract: not proven: " << notProven << " obligation" << (notProven == 1 ? "" : "s")
              << " got no answer (unknown, timeout, or not built); a timeout is not a pass: raise --timeout or "
                 "simplify the contract\n";
  return rc;
}

}  // namespace

void addProveCommand(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* sub = app.add_subcommand("prove", "Discharge the symbolic obligations of contracts with cvc5");
  addInputOptions(sub, gProve.in);
  sub->add_option("--smt2", gProve.smt2, "Also write one NAME.smt2 per obligation into this folder");
  sub->add_option("--timeout", gProve.timeout, "Seconds each query may run (default 10); a timeout is not a pass")
      ->check(CLI::Validator(
          [](std::string& v) {
            char* end = nullptr;
            double d = std::strtod(v.c_str(), &end);
            return *end == 0 && d > 0 && d <= 1e6 ? std::string() : "the time limit must be a positive number of seconds";
          },
          "SECONDS"));
  sub->add_flag("--json", gProve.json, "Print the answers as JSON");
  commands.emplace_back(sub, &runProve);
}

}  // namespace kc::driver

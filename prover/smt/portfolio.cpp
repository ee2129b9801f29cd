// solve(): one script, one answer, from a small portfolio. cvc5 1.0.3's nonlinear real
// arithmetic (no CAD in Debian's build) is sensitive to its options: with relevance
// filtering of lemmas (nl-rlv=always, the primary configuration) it answers most of the
// standard library's obligations fastest, but refines forever on some that it answers at
// once without (the fallback), and the other way round; and a witness that both miss is
// often found at once when the inputs are fixed (a probe), since the oracle then turns
// linear; an unsat that the floating-point roundings of a fault model hide is often quick in
// a relaxation with bounded error terms instead. So: the primary alone for a head start (its answers, and models, stay what they
// were for every query it answers quickly), then probes and the fallback beside it; the
// first sat or unsat wins. Both configurations are sound and a probe only adds assertions,
// so any sat or unsat is the script's answer; timeouts and unknowns are never a pass.
#include <algorithm>
#include <memory>

#include "prover/smt/query.h"

namespace kc::smt {

namespace {

bool definitive(const Result& r) { return r.answer == Answer::Sat || r.answer == Answer::Unsat; }

// The script with `assertions` placed before its (last) check-sat.
std::string withAssertions(const std::string& smt2, const std::string& assertions) {
  size_t at = smt2.rfind("(check-sat)");
  if (at == std::string::npos) return smt2;
  return smt2.substr(0, at) + "; a witness probe\n" + assertions + smt2.substr(at);
}

Options single(const Options& o, double seconds) {
  Options s = o;
  s.timeoutSeconds = std::max(seconds, 0.01);
  s.portfolio = false;
  s.probes.clear();
  s.relaxation.clear();
  return s;
}

// The second runner: every probe for a short while, the relaxation for half of what is
// left, then the fallback configuration for the rest of `seconds`. Runs in this process (inside a child when isolated).
Result secondRunner(const std::string& smt2, const Options& opt, double seconds) {
  auto start = std::chrono::steady_clock::now();
  for (const Probe& p : opt.probes) {
    double left = seconds - secondsSince(start);
    double slice = std::min(0.5, left / (2.0 * static_cast<double>(opt.probes.size())));
    if (slice <= 0.01) break;
    Result r = solveInProcess(withAssertions(smt2, p.assertions), single(opt, slice));
    if (r.answer == Answer::Sat) {
      r.strategy = "witness probe: " + p.name;
      return r;
    }
  }
  if (!opt.relaxation.empty()) {
    Result r = solveInProcess(opt.relaxation, single(opt, (seconds - secondsSince(start)) / 2));
    if (r.answer == Answer::Unsat) {
      r.strategy = "relaxation";
      return r;
    }
  }
  Options fb = single(opt, seconds - secondsSince(start));
  for (auto& kv : fallbackSolverOptions()) fb.solverOptions.push_back(kv);
  for (auto& kv : opt.solverOptions) fb.solverOptions.push_back(kv);  // the caller's word is last
  Result r = solveInProcess(smt2, fb);
  r.strategy = "fallback configuration";
  return r;
}

// Neither answered: the primary's result, its reason naming the whole time limit.
Result neither(Result primary, const Options& opt) {
  if (primary.answer == Answer::Timeout) primary.reason = "time limit of " + secondsText(opt.timeoutSeconds) + " s";
  primary.strategy.clear();
  return primary;
}

double headStart(const Options& opt) { return std::max(0.0, std::min(opt.headStartSeconds, opt.timeoutSeconds / 2)); }

Result solveInProcessPortfolio(const std::string& smt2, const Options& opt) {
  auto start = std::chrono::steady_clock::now();
  Result a = solveInProcess(smt2, single(opt, headStart(opt)));
  if (definitive(a) || a.answer == Answer::Error) return a;
  Result b = secondRunner(smt2, opt, opt.timeoutSeconds - secondsSince(start));
  Result out = definitive(b) ? b : neither(a, opt);
  out.seconds = secondsSince(start);
  return out;
}

double backstop(const Options& opt, double seconds) {
  return seconds + std::max(opt.graceSeconds, 0.0) + 0.25 * seconds;
}

Result solveInChildren(const std::string& smt2, const Options& opt) {
  auto start = std::chrono::steady_clock::now();
  Options primary = single(opt, opt.timeoutSeconds);
  ChildQuery a([&] { return solveInProcess(smt2, primary); }, primary, backstop(primary, primary.timeoutSeconds));
  bool early = a.wait(opt.portfolio ? headStart(opt) : 1e9);
  // An early end without an answer (cvc5 1.0.3 can abort inside CaDiCaL on floating-point
  // queries: "can only get value in satisfied state") still leaves the probes and the
  // fallback their chance.
  if (!opt.portfolio || (early && definitive(a.result()))) return a.result();
  double rest = opt.timeoutSeconds - secondsSince(start);
  ChildQuery b([&] { return secondRunner(smt2, opt, rest); }, primary, backstop(primary, rest));
  for (;;) {
    a.wait(0.02);
    if (a.done() && (definitive(a.result()) || b.done())) break;
    b.wait(0.02);
    if (b.done() && definitive(b.result())) break;
    if (a.done() && b.done()) break;
  }
  Result out;
  if (a.done() && definitive(a.result())) {
    out = a.result();
  } else if (b.done() && definitive(b.result())) {
    out = b.result();
  } else {
    b.wait(1e9);  // a is done without an answer: b's last word decides
    out = definitive(b.result()) ? b.result() : neither(a.result(), opt);
  }
  a.stop("another configuration answered");
  b.stop("another configuration answered");
  out.seconds = secondsSince(start);
  return out;
}

std::string realLiteral(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v < 0 ? -v : v);
  std::string lit = v == 0.5 ? "0.5" : buf;
  return v < 0 ? "(- " + lit + ")" : lit;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> fallbackSolverOptions() { return {{"nl-rlv", "none"}}; }

std::vector<Probe> fixedValueProbes(const std::vector<std::string>& realConstants) {
  if (realConstants.empty()) return {};
  static const double cycle[] = {1.0, -2.0, 0.5, 3.0};
  Probe ones{"inputs = 1", ""}, mixed{"inputs = 1, -2, 0.5, 3, ...", ""}, fine{"inputs = 1 + 2^-12", ""},
      cancel{"inputs = 256.5, -256, ...", ""}, fineCancel{"inputs = 1 + 2^-12, 1024, -1, 1024, ...", ""};
  for (size_t i = 0; i < realConstants.size(); ++i) {
    ones.assertions += "(assert (= " + realConstants[i] + " 1.0))\n";
    mixed.assertions += "(assert (= " + realConstants[i] + " " + realLiteral(cycle[i % 4]) + "))\n";
    // Exact in f32, not in TF32, f16 or bf16: precision faults show at once.
    fine.assertions += "(assert (= " + realConstants[i] + " 1.000244140625))\n";
    // Cancellation: neighbours nearly cancel, so a sum's rounding error is large against its
    // value (256.5 is exact in f32 and f16, not in bf16).
    cancel.assertions += "(assert (= " + realConstants[i] + " " + (i % 2 ? "(- 256.0)" : "256.5") + "))\n";
  }
  // The same for products: with a dot product's cells declared a, b, a, b, ... the products
  // are 1024 + 1/4 and -1024 (1 + 2^-12 is exact in f32, not in TF32).
  static const char* fc[] = {"1.000244140625", "1024.0", "(- 1.0)", "1024.0"};
  for (size_t i = 0; i < realConstants.size(); ++i)
    fineCancel.assertions += "(assert (= " + realConstants[i] + " " + fc[i % 4] + "))\n";
  return {ones, mixed, fine, cancel, fineCancel};
}

Result solve(const std::string& smt2, const Options& options) {
  if (!(options.timeoutSeconds > 0)) {
    Result r;
    r.reason = "the time limit must be positive";
    return r;
  }
  if (options.isolation == Isolation::InProcess)
    return options.portfolio ? solveInProcessPortfolio(smt2, options) : solveInProcess(smt2, options);
  return solveInChildren(smt2, options);
}

}  // namespace kc::smt

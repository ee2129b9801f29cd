#include "checker/run/judge.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>

#include "checker/oracle/evaluator.h"
#include "checker/report/builtin_signatures.h"
#include "checker/run/chunks.h"
#include "checker/run/poison_scan.h"
#include "checker/run/signatures.h"
#include "compiler/ir/ir.h"
#include "stdlib/numerics/float_bits.h"
#include "stdlib/numerics/rounding.h"

namespace kc::run {

namespace {

using report::Verdict;
constexpr size_t kMaxWrongCells = 100000;  // wrong cells listed per postcondition
constexpr size_t kWorstShown = 10;

const uint8_t* storageOf(const std::vector<uint8_t>& image) { return image.data() + kCanaryBytes; }

double ulpsBetween(numerics::DType t, double got, double expected) {
  if (std::isnan(got) && std::isnan(expected)) return 0;
  if (std::isnan(got) || std::isnan(expected)) return INFINITY;
  if (!numerics::isFloat(t)) return std::fabs(got - expected);
  uint64_t d = numerics::ulpDistance(t, got, expected);
  return d == numerics::kUlpDistanceNaN ? INFINITY : static_cast<double>(d);
}

double absError(double got, double expected) {
  if (std::isnan(got) && std::isnan(expected)) return 0;
  if (std::isnan(got) || std::isnan(expected)) return INFINITY;
  if (got == expected) return 0;  // equal infinities
  return std::fabs(got - expected);
}

// The tolerance definition that goes with an output: the first of the same shape.
const oracle::Tensor* toleranceFor(const oracle::OracleResult& r, const oracle::Tensor& y) {
  for (const auto& [name, t] : r.tolerance)
    if (t.shape == y.shape) return &t;
  return nullptr;
}

// A contract that applies std.iface.precondition-report@1 demands that a kernel report
// inputs that break its precondition with a nonzero return (docs/catalog.md).
constexpr const char* kPreconditionReport = "std.iface.precondition-report@1";
std::string brokenPrecondition(const JudgeInput& in) {
  return brokenPrecondition(*in.contract, *in.setup, *in.storage, in.threads);
}

std::string launchLabel(int k) { return "launch " + std::to_string(k + 1); }

// A plain allclose over every output cell of launch 1 (see Allclose in judge.h).
void judgeAllclose(const Allclose& ac, const CaseSetup& s, const oracle::Bindings& b, const oracle::OracleResult& r,
                   const LaunchRecord& L, report::CaseResult& out) {
  std::vector<report::WorstCell> cells;
  int64_t bad = 0;
  for (size_t a = 0; a < s.args.size(); ++a) {
    const ArgSpec& spec = s.args[a];
    if (!spec.output) continue;
    auto oit = r.oracle.find(spec.name);
    if (oit == r.oracle.end()) continue;
    const oracle::Tensor& y = b.outputs.at(spec.name);
    const oracle::Tensor& ystar = oit->second;
    const uint8_t* st = storageOf(L.images[a][0]);
    out.compared += y.numel();
    std::vector<int64_t> idx(y.shape.size(), 0);
    for (int64_t i = 0; i < y.numel(); ++i) {
      double got = y.data[static_cast<size_t>(i)], want = ystar.data[static_cast<size_t>(i)];
      double e = absError(got, want);
      if (!(std::isnan(got) && std::isnan(want))) out.maxAbsError = std::max(out.maxAbsError, e);
      double allowed = ac.atol + ac.rtol * std::fabs(want);
      bool close = !std::isnan(got) && !std::isnan(want) && (got == want || e <= allowed);
      if (!close) {
        ++bad;
        if (cells.size() < kWorstShown) {
          report::WorstCell w;
          w.tensor = spec.name;
          w.index = idx;
          w.got = got;
          w.expected = want;
          w.absError = e;
          w.ulps = ulpsBetween(spec.dtype, got, want);
          w.tolerance = allowed;
          w.unwritten = isPoison(spec, st, spec.storageIndex(w.index));
          cells.push_back(std::move(w));
        }
      }
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < y.shape[d]) break;
        idx[d] = 0;
      }
    }
  }
  out.mismatched = bad;
  out.worst = std::move(cells);
  char text[96];
  std::snprintf(text, sizeof text, "allclose(atol=%g, rtol=%g)", ac.atol, ac.rtol);
  if (bad > 0) {
    out.verdict = Verdict::Fail;
    out.violated.push_back(std::string(text) + ": " + std::to_string(bad) + " of " + std::to_string(out.compared) +
                           " cells differ");
    out.reason = "plain allclose failed";
  } else {
    out.verdict = Verdict::Pass;
  }
}

// One run of a case on its way to a verdict: what each step leaves for the next. The steps,
// in judge()'s order, are its member functions; one that settles the verdict returns true.
struct Judging {
  Judging(const JudgeInput& i, report::CaseResult& o) : in(i), out(o) {}

  const JudgeInput& in;
  report::CaseResult& out;
  const sema::ContractInfo& ct = *in.contract;
  const CaseSetup& s = *in.setup;
  const LaunchRecord& L = *in.launch;
  std::vector<std::string> builtIn;  // the built-in signatures the harness's checks name
  bool differs = false;              // an output differs between launches
  oracle::Bindings b;                // the pristine inputs and the outputs of launch 1
  oracle::OracleResult r;
  std::map<std::string, std::set<oracle::Cell>> wrong;  // output -> its wrong cells
  std::set<std::string> violatedBy;  // who brought the violated postconditions ("": the contract)
  bool precision = false;     // a wrong cell is outside its tolerance
  bool allUnwritten = false;  // every wrong cell still holds the poison

  bool fate();
  void harnessChecks();
  bool oracleOverInputs();
  oracle::OracleResult computeOracle();
  void overflowedCells();
  void postconditions();
  void completeness();
  void errorStatistics();
  bool postsHold(const oracle::Bindings& with) const;
  bool oracleUnfit();
  bool failure();
  void mistrustOrPass();
};

// 1. The worker's fate.
bool Judging::fate() {
  switch (L.status) {
    case LaunchStatus::Crash:
      out.verdict = Verdict::Crash;
      out.reason = "the kernel crashed: " + L.message;
      return true;
    case LaunchStatus::Timeout:
      out.verdict = Verdict::Timeout;
      out.reason = L.message;
      return true;
    case LaunchStatus::Error:
      out.verdict = Verdict::Error;
      out.reason = L.message;
      return true;
    case LaunchStatus::Nonzero:
      if (reportsPrecondition(ct) && !in.allclose) {
        std::string broken = brokenPrecondition(in);
        if (!broken.empty()) {
          out.verdict = Verdict::Pass;
          out.reason = "the kernel reported the broken precondition '" + broken + "' (" + L.message + ")";
          return true;
        }
      }
      out.verdict = Verdict::Error;
      out.reason = L.message + " on " + launchLabel(L.launches - 1) + " (nonzero means the kernel reported an error)";
      return true;
    case LaunchStatus::Ok: break;
  }
  return false;
}

// 2. The harness's checks: canaries, writes outside the view, inputs, repeats (not in a
// plain allclose harness).
void Judging::harnessChecks() {
  for (size_t a = 0; a < s.args.size() && !in.allclose; ++a) {
    const ArgSpec& spec = s.args[a];
    for (size_t k = 0; k < L.images[a].size(); ++k)
      if (!canariesIntact(L.images[a][k], spec.marks)) {
        out.violated.push_back("canary: " + spec.name + " written past the ends of its buffer (" + launchLabel(static_cast<int>(k)) + ")");
        builtIn.push_back(report::signature::kOutOfBoundsWrite);
        break;
      }
    if (spec.output && spec.storage > spec.numel()) {
      int64_t outside = writesOutsideView(spec, storageOf(L.images[a][0]), in.threads);
      if (outside > 0) {
        out.violated.push_back("view: " + std::to_string(outside) + " element(s) of " + spec.name +
                               " written outside its view (layout " + spec.layout + ")");
        builtIn.push_back(report::signature::kOutOfViewWrite);
      }
    }
    if (!spec.output && !L.images[a].empty() &&
        std::memcmp(storageOf(L.images[a][0]), (*in.storage)[a].data(), spec.storageBytes()) != 0) {
      out.violated.push_back("input integrity: the kernel changed its input " + spec.name);
      builtIn.push_back(report::signature::kInputModified);
    }
  }
  if (!L.resource.empty() && !in.allclose) {  // e.g. device memory allocated by every launch and never freed
    // One line per resource (Backend::resourceReport): "streams: ..." is a stream kept per
    // launch, any other line device memory.
    size_t at = 0;
    while (at < L.resource.size()) {
      size_t end = L.resource.find('\n', at);
      if (end == std::string::npos) end = L.resource.size();
      std::string line = L.resource.substr(at, end - at);
      at = end + 1;
      if (line.empty()) continue;
      out.violated.push_back(line);
      builtIn.push_back(line.rfind("streams:", 0) == 0 ? report::signature::kStreamLeak : report::signature::kDeviceMemoryLeak);
    }
  }
  for (size_t a = 0; a < s.args.size() && !in.allclose; ++a) {
    if (!s.args[a].output) continue;
    for (size_t k = 1; k < L.images[a].size(); ++k)
      if (std::memcmp(storageOf(L.images[a][k]), storageOf(L.images[a][0]), s.args[a].storageBytes()) != 0) {
        // A repeat that wrote none of the cells the first launch wrote did not compute: it
        // kept an earlier result (same buffers, same shapes) and left the new poison.
        const int64_t cells = s.args[a].numel();
        if (cells > 0 && unwrittenCells(s.args[a], storageOf(L.images[a][k]), {}, 0, in.threads).count == cells &&
            unwrittenCells(s.args[a], storageOf(L.images[a][0]), {}, 0, in.threads).count < cells) {
          out.violated.push_back("determinism: " + launchLabel(static_cast<int>(k)) + " wrote none of " + s.args[a].name +
                                 ", which launch 1 wrote: a result kept from an earlier launch, not computed");
          builtIn.push_back(report::signature::kOutputNeverComputed);
          break;
        }
        out.violated.push_back("determinism: " + s.args[a].name + " differs between launch 1 and " + launchLabel(static_cast<int>(k)));
        differs = true;
        break;
      }
  }

  // A smaller batch of the same rows differed; when the full batch already differs run to
  // run, that is the failure's name, not the batch size.
  if (in.batch && !in.allclose && !differs) {
    out.violated.push_back("batch invariance: " + in.batch->text() + "  [from std.ord.batch-invariance@1]");
    builtIn.push_back(report::signature::kBatchVariant);
  }
}

// The compiled oracle when the check asked for one and it runs (out.oracle says which ran),
// else the interpreter. A compiled program's failure is not the case's: the interpreter runs,
// and names the error if there is one.
oracle::OracleResult Judging::computeOracle() {
  if (in.oracleEngine) {
    std::string why;
    if (auto c = in.oracleEngine->eval(ct, b, why, nullptr, in.threads)) {
      out.oracle = device_oracle::targetName(in.oracleEngine->target());
      return std::move(*c);
    }
    out.oracle = "interpreter: " + why;
  } else if (!in.oracleNotUsed.empty()) {
    out.oracle = "interpreter: " + in.oracleNotUsed;
  }
  return oracle::evalOracle(ct, b, {in.threads});
}

// 3. The oracle over the pristine inputs; the outputs of launch 1.
bool Judging::oracleOverInputs() {
  b = inputBindings(s, *in.storage, in.threads);
  for (size_t a = 0; a < s.args.size(); ++a)
    if (s.args[a].output) b.outputs[s.args[a].name] = decodeView(s.args[a], storageOf(L.images[a][0]), in.threads);
  try {
    r = computeOracle();
    if (in.largestExact)
      for (const auto& [name, t] : r.oracle) {
        double m = -INFINITY;
        for (double v : t.data)
          if (std::isfinite(v)) m = std::max(m, v);
        (*in.largestExact)[name] = m;
      }
    for (const auto& pre : ct.pre)
      if (!oracle::evalCondition(*pre.expr, ct, b, r, nullptr, 0, in.threads)) {
        if (reportsPrecondition(ct) && !in.allclose) {
          out.verdict = Verdict::Fail;
          out.violated.push_back("precondition report: the inputs break '" + ir::print(*pre.expr) +
                                 "' and the kernel returned 0  [from " + kPreconditionReport + "]");
          out.signatures = {report::signature::kPreconditionUnreported};
          out.reason = "1 check violated";
          return true;
        }
        out.verdict = Verdict::Mistrusted;
        out.reason = "the generated inputs break the precondition '" + ir::print(*pre.expr) +
                     "', so the case says nothing about the kernel";
        return true;
      }
  } catch (const std::exception& e) {
    out.verdict = Verdict::Error;
    out.reason = std::string("the oracle could not be evaluated: ") + e.what();
    return true;
  }
  return false;
}

// Where the exact result is beyond an output dtype's range, its value in that dtype is the
// infinity of its sign (IEEE round to nearest), which a correct kernel writes: an f16 sum
// of 10^9, say. The postconditions compare such a cell as the oracle itself, so that
// |y - y*| is 0 and not inf - 10^9. An infinity where the exact result fits the dtype (an
// f16 accumulator that overflowed on the way) is compared as written, and fails.
void Judging::overflowedCells() {
  for (const ArgSpec& spec : s.args) {
    auto it = r.oracle.find(spec.name);
    if (!spec.output || it == r.oracle.end() || !numerics::isFloat(spec.dtype)) continue;
    const std::vector<double>& ystar = it->second.data;
    std::vector<double>& y = b.outputs.at(spec.name).data;
    forEachChunk(y.size(), in.threads, [&](unsigned, size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        if (std::isinf(y[i]) && std::isfinite(ystar[i]) && numerics::roundTo(spec.dtype, ystar[i]) == y[i]) y[i] = ystar[i];
    });
  }
}

namespace {

// A postcondition's text with its bound variables renamed in order of appearance: the
// contract's `forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h]` and a class's `forall cells:
// ...` (cell_0, cell_1) read the same.
void renameBound(ir::Node& n, std::map<std::string, std::string>& names) {
  for (std::string& v : n.vars)
    if (!names.count(v)) names[v] = "v" + std::to_string(names.size());
  for (std::string& v : n.vars) v = names[v];
  if (n.op == ir::Op::IndexVar && names.count(n.name)) n.name = names[n.name];
  for (auto& k : n.kids)
    if (k) renameBound(*k, names);
}

std::string boundAgnostic(const ir::Node& e) {
  ir::NodePtr copy = e.clone();
  std::map<std::string, std::string> names;
  renameBound(*copy, names);
  return ir::printSExpr(*copy);
}

}  // namespace

// 4. Every postcondition of the case; the wrong cells of each output. A violated
// postcondition is listed once, with every class that brought the same one.
void Judging::postconditions() {
  const std::vector<sema::TensorInfo>& tensors = ct.kernel->tensors;
  struct Listed {
    std::string key;  // the bound-agnostic text
    size_t line;      // its entry in violated
    std::string text;
    std::vector<std::string> classes;  // the classes that brought it
  };
  std::vector<Listed> listed;
  for (size_t p : in.kase->post) {
    const sema::Condition& post = ct.post.at(in.plan->post.at(p).index);
    std::vector<oracle::Cell> failing;
    bool holds = oracle::evalCondition(*post.expr, ct, b, r, &failing, kMaxWrongCells, in.threads);
    if (holds) continue;
    std::string key = boundAgnostic(*post.expr);
    auto seen = std::find_if(listed.begin(), listed.end(), [&](const Listed& l) { return l.key == key; });
    if (seen == listed.end()) {
      listed.push_back({key, out.violated.size(), ir::print(*post.expr), {}});
      out.violated.push_back(listed.back().text);
      seen = listed.end() - 1;
      if (!post.origin.fromClass) seen->classes.push_back("");  // the contract's own comes first
    }
    if (post.origin.fromClass) seen->classes.push_back(post.origin.id);
    violatedBy.insert(post.origin.fromClass ? post.origin.id : "");
    // "TEXT  [from C1, C2]" for classes alone; "TEXT  [also from C1]" after the contract's own.
    std::string from;
    for (const auto& c : seen->classes)
      if (!c.empty()) from += (from.empty() ? "" : ", ") + c;
    bool own = !seen->classes.empty() && seen->classes.front().empty();
    out.violated[seen->line] = seen->text + (from.empty() ? "" : (own ? "  [also from " : "  [from ") + from + "]");
    // A failing tuple is a cell of every output of that rank (forall r, h: over y[r, h]).
    for (const auto& t : tensors)
      if (t.output)
        for (const auto& c : failing)
          if (c.size() == t.rank()) wrong[t.name].insert(c);
  }
}

// Completeness: a float output cell still holding the poison (a NaN payload no arithmetic
// makes) was never written. Where the oracle is NaN too, the postconditions accept it (a
// kernel that skips rows holding a NaN, or whose work is still running on a private
// stream when its outputs are read); those cells fail here. Integer poison (a byte repeated) is
// a value a kernel can write: integer outputs are judged by their postconditions alone.
void Judging::completeness() {
  for (size_t a = 0; a < s.args.size() && in.completeness; ++a) {
    const ArgSpec& spec = s.args[a];
    if (!spec.output || !numerics::isFloat(spec.dtype) || L.images[a].empty()) continue;
    const std::set<oracle::Cell>& flagged = wrong[spec.name];
    if (flagged.size() >= kMaxWrongCells) continue;  // listed in part: the case fails anyway
    UnwrittenCells unwritten = unwrittenCells(spec, storageOf(L.images[a][0]), flagged, 3, in.threads);
    const int64_t accepted = unwritten.count;
    std::string first;
    for (const oracle::Cell& idx : unwritten.first) {
      std::string cell;
      for (int64_t v : idx) cell += (cell.empty() ? "" : ", ") + std::to_string(v);
      first += (first.empty() ? "(" : ", (") + cell + ")";
    }
    if (accepted > 0) {
      out.violated.push_back("completeness: " + std::to_string(accepted) + " of " + std::to_string(spec.numel()) +
                             " cells of " + spec.name + " were never written and the postconditions accept them (first: " +
                             first + ")");
      builtIn.push_back(report::signature::kUnwrittenCells);
    }
  }
}

// 5. Error statistics and the worst cells over every output.
void Judging::errorStatistics() {
  std::vector<report::WorstCell> cells;
  for (size_t a = 0; a < s.args.size(); ++a) {
    const ArgSpec& spec = s.args[a];
    if (!spec.output) continue;
    auto oit = r.oracle.find(spec.name);
    if (oit == r.oracle.end()) continue;
    const oracle::Tensor& y = b.outputs[spec.name];
    const oracle::Tensor& ystar = oit->second;
    const oracle::Tensor* tol = toleranceFor(r, ystar);
    out.compared += y.numel();
    // The largest error over every cell, in chunks over the oracle's threads.
    const size_t cellsN = static_cast<size_t>(y.numel());
    const unsigned n = rangeChunks(cellsN, in.threads);
    std::vector<double> maxAbs(n, 0.0), maxUlps(n, 0.0), maxUsed(n, 0.0);
    const bool sameShape = tol && tol->data.size() == cellsN;
    forEachChunk(cellsN, in.threads, [&](unsigned t, size_t begin, size_t end) {
      // In locals: threads storing to neighbouring elements per cell fight over one cache line.
      double abs = 0.0, ulps = 0.0, used = 0.0;
      for (size_t i = begin; i < end; ++i) {
        double e = absError(y.data[i], ystar.data[i]);
        abs = std::max(abs, e);
        ulps = std::max(ulps, ulpsBetween(spec.dtype, y.data[i], ystar.data[i]));
        // NaN where both are NaN (no error) or the tolerance is not a number: not counted.
        if (sameShape && e > 0) used = std::max(used, tol->data[i] > 0 ? e / tol->data[i] : INFINITY);
      }
      maxAbs[t] = abs;
      maxUlps[t] = ulps;
      maxUsed[t] = used;
    });
    for (unsigned t = 0; t < n; ++t) {
      out.maxAbsError = std::max(out.maxAbsError, maxAbs[t]);
      out.maxUlps = std::max(out.maxUlps, maxUlps[t]);
      out.toleranceUsed = std::max(out.toleranceUsed, maxUsed[t]);
    }
    const uint8_t* st = storageOf(L.images[a][0]);
    for (const oracle::Cell& c : wrong[spec.name]) {
      report::WorstCell w;
      w.tensor = spec.name;
      w.index = c;
      w.got = y.at(c);
      w.expected = ystar.at(c);
      w.absError = absError(w.got, w.expected);
      w.ulps = ulpsBetween(spec.dtype, w.got, w.expected);
      if (tol) w.tolerance = tol->at(c);
      w.unwritten = isPoison(spec, st, spec.storageIndex(c));
      if (std::isfinite(w.absError) && !(w.absError <= w.tolerance)) precision = true;
      cells.push_back(std::move(w));
    }
  }
  out.mismatched = static_cast<int64_t>(cells.size());
  allUnwritten = !cells.empty() && std::all_of(cells.begin(), cells.end(), [](const auto& w) { return w.unwritten; });
  auto badness = [](const report::WorstCell& w) -> double {
    if (!std::isfinite(w.absError)) return INFINITY;
    return std::isnan(w.tolerance) || w.tolerance <= 0 ? w.absError : w.absError / w.tolerance;
  };
  std::stable_sort(cells.begin(), cells.end(), [&](const auto& x, const auto& y) { return badness(x) > badness(y); });
  if (cells.size() > kWorstShown) cells.resize(kWorstShown);
  out.worst = std::move(cells);
}

// Whether every postcondition of the case holds with the outputs of `with` (false when the
// case has none).
bool Judging::postsHold(const oracle::Bindings& with) const {
  for (size_t p : in.kase->post)
    if (!oracle::evalCondition(*ct.post.at(in.plan->post.at(p).index).expr, ct, with, r, nullptr, 0, in.threads))
      return false;
  return !in.kase->post.empty();
}

// 6. The verdict. When the oracle's own values break a postcondition of the case, no
// output could pass it: the case is unfit (NaN everywhere, a tolerance of zero where the
// oracle is not representable), not the kernel.
bool Judging::oracleUnfit() {
  if (!out.violated.empty() && builtIn.empty() && !differs) {
    // The best output a kernel can write: the oracle rounded to each output's dtype, swapped
    // into `b` in place of the outputs for the while (a copy of `b` would copy every input).
    std::map<std::string, oracle::Tensor> ideal;
    for (const ArgSpec& spec : s.args) {
      auto it = r.oracle.find(spec.name);
      if (!spec.output || it == r.oracle.end()) continue;
      oracle::Tensor& t = ideal[spec.name];
      t = it->second;
      forEachChunk(t.data.size(), in.threads, [&](unsigned, size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
          double rounded = numerics::roundTo(spec.dtype, t.data[i]);
          if (!(std::isinf(rounded) && std::isfinite(t.data[i]))) t.data[i] = rounded;  // see overflowedCells()
        }
      });
    }
    for (auto& [name, t] : ideal) std::swap(b.outputs.at(name), t);
    const bool idealPasses = postsHold(b);
    for (auto& [name, t] : ideal) std::swap(b.outputs.at(name), t);
    if (!idealPasses) {
      out.verdict = Verdict::Mistrusted;
      out.reason = "the oracle's own values break a postcondition of this case, so no output could pass it (" +
                   out.violated.front() + ")";
      out.signatures.clear();
      return true;
    }
  }
  return false;
}

// FAIL when a check was violated: the signatures that name the failure.
bool Judging::failure() {
  if (!out.violated.empty()) {
    out.verdict = Verdict::Fail;
    FailureFacts facts;
    for (auto& [name, set] : wrong) facts.wrongCells.emplace_back(name, std::vector<oracle::Cell>(set.begin(), set.end()));
    facts.differsRunToRun = differs;
    facts.precisionFailure = precision;
    facts.maxAbsError = out.maxAbsError;
    facts.allUnwritten = allUnwritten;
    facts.caseOrigins = in.kase->origins;
    facts.everywhere = in.plan->everywhere;
    facts.violatedBy.assign(violatedBy.begin(), violatedBy.end());
    out.signatures = matchSignatures(ct, b, r, facts, &out.outranked);
    if (allUnwritten) builtIn.push_back(report::signature::kUnwrittenCells);
    for (const auto& name : builtIn)
      if (std::find(out.signatures.begin(), out.signatures.end(), name) == out.signatures.end())
        out.signatures.insert(out.signatures.begin(), name);
    if (differs && std::find(out.signatures.begin(), out.signatures.end(), report::signature::kNondeterministic) == out.signatures.end() &&
        out.signatures.empty())
      out.signatures.push_back(report::signature::kNondeterministic);
    size_t n = out.violated.size();
    out.reason = std::to_string(n) + (n == 1 ? " check" : " checks") + " violated";
    return true;
  }
  return false;
}

// MISTRUSTED: nothing could have been caught. The postconditions of the case accept two
// outputs that are both wrong and differ from each other everywhere — all zeros, and the
// oracle moved by max(1, |y*|) per cell — so they cannot tell right from wrong. (Outputs
// are poisoned with NaN, so an output that is merely zero is not suspect on its own.)
// Nothing reads the outputs of `b` after this: the probes overwrite them in place, on
// threads; an output the oracle does not define is kept as written for the shifted probe.
// Else PASS.
void Judging::mistrustOrPass() {
  std::map<std::string, oracle::Tensor> undefined;
  for (const auto& [name, t] : b.outputs)
    if (!r.oracle.count(name)) undefined[name] = t;
  // Lambdas capture `t` by a plain reference: a structured binding cannot be captured
  // before C++20's P1091 (clang 16), and the fuzz build uses Debian's clang 14.
  for (auto& entry : b.outputs) {
    oracle::Tensor& t = entry.second;
    forEachChunk(t.data.size(), in.threads,
                 [&](unsigned, size_t begin, size_t end) { std::fill(t.data.begin() + begin, t.data.begin() + end, 0.0); });
  }
  if (postsHold(b)) {
    for (auto& [name, binding] : b.outputs) {
      oracle::Tensor& t = binding;
      auto it = r.oracle.find(name);
      if (it == r.oracle.end()) {
        t = std::move(undefined.at(name));
        continue;
      }
      const std::vector<double>& ystar = it->second.data;
      forEachChunk(t.data.size(), in.threads, [&](unsigned, size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) t.data[i] = ystar[i] + std::max(1.0, std::fabs(ystar[i]));
      });
    }
    if (postsHold(b)) {
      out.verdict = Verdict::Mistrusted;
      out.reason = "the postconditions of this case accept an output of zeros and an output far from the oracle alike: it proves nothing";
      return;
    }
  }
  out.verdict = Verdict::Pass;
}

}  // namespace

bool reportsPrecondition(const sema::ContractInfo& ct) {
  return std::find(ct.applies.begin(), ct.applies.end(), kPreconditionReport) != ct.applies.end();
}

// A precondition reads inputs and dims only: no oracle value is needed to evaluate it.
std::string brokenPrecondition(const sema::ContractInfo& ct, const CaseSetup& s,
                               const std::vector<std::vector<uint8_t>>& storage, unsigned threads) {
  if (ct.pre.empty()) return "";
  try {
    oracle::Bindings b = inputBindings(s, storage, threads);
    oracle::OracleResult none;  // no oracle value: only the dims
    none.dims = oracle::resolveDims(ct, b);
    for (const auto& pre : ct.pre)
      if (!oracle::evalCondition(*pre.expr, ct, b, none, nullptr, 0, threads)) return ir::print(*pre.expr);
  } catch (const std::exception&) {
  }
  return "";
}

void judge(const JudgeInput& in, report::CaseResult& out) {
  out.kernelOutput = in.launch->output;
  Judging j(in, out);
  if (j.fate()) return;
  PhaseTimer harnessTimer(in.phases ? &in.phases->judgeRest : nullptr);
  j.harnessChecks();
  harnessTimer.stop();
  PhaseTimer oracleTimer(in.phases ? &in.phases->oracle : nullptr);
  if (j.oracleOverInputs()) return;
  oracleTimer.stop();
  if (in.allclose) {
    judgeAllclose(*in.allclose, j.s, j.b, j.r, j.L, out);
    return;
  }
  PhaseTimer postsTimer(in.phases ? &in.phases->posts : nullptr);
  j.overflowedCells();
  j.postconditions();
  postsTimer.stop();
  PhaseTimer restTimer(in.phases ? &in.phases->judgeRest : nullptr);
  j.completeness();
  j.errorStatistics();
  out.conditions = evaluateConditions(*in.contract, j.b, j.r);
  if (j.oracleUnfit()) return;
  if (j.failure()) return;
  j.mistrustOrPass();
}

}  // namespace kc::run

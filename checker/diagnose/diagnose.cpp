#include "checker/diagnose/diagnose.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <map>
#include <set>

#include "checker/diagnose/probes.h"
#include "checker/growth.h"
#include "checker/report/builtin_signatures.h"
#include "checker/run/control.h"
#include "compiler/ir/ir.h"

namespace kc::diagnose {

namespace {

using report::CaseResult;
using report::Verdict;
using Kind = ast::SignatureClauseKind;

// How strong a name's evidence is, strongest last.
constexpr int64_t kTailProbeMax = 65536;  // the largest dim the tail re-run rounds up

enum class Strength { Control = 1, Statistical = 2, Observed = 3 };

struct Candidate {
  std::string name;
  Strength strength = Strength::Control;
  std::string evidence;
  std::vector<size_t> cases;
  int order = 0;  // first appearance, for ties
};

// `|y - y*| > tol`, or `!(|y - y*| <= tol)`: any wrong cell satisfies it, so it is no evidence.
bool restatesFailure(const ir::Node& e) {
  std::string s;
  for (char ch : ir::print(e))
    if (ch != ' ') s += ch;
  std::string op = ">";
  if (s.size() > 3 && s.compare(0, 2, "!(") == 0 && s.back() == ')') {
    s = s.substr(2, s.size() - 3);
    op = "<=";
  }
  if (s.empty() || s[0] != '|') return false;
  size_t close = s.find('|', 1);
  if (close == std::string::npos) return false;
  std::string inside = s.substr(1, close - 1);
  return inside.find('-') != std::string::npos && inside.find('*') != std::string::npos &&
         s.compare(close + 1, op.size() + 3, op + "tol") == 0;
}

enum class SigKind { Observed, Condition, Growth, Generic };

// The kind of evidence a signature of the contract brings; of several with one name (a
// class's `overflow` and an op's), the strongest.
// Above this, the failing cases meeting a `fails only when` condition is what chance gives:
// a name on odds weaker than 3 to 1 against coincidence is a guess. (One failing case on a
// `case` made for the bug, its condition on a fifth of the cases, stays named.)
constexpr double kConditionChance = 0.25;

SigKind kindOf(const sema::ContractInfo& ct, const std::string& name) {
  if (report::signature::isBuiltIn(name)) return SigKind::Observed;
  SigKind best = SigKind::Generic;
  auto rank = [](SigKind k) { return k == SigKind::Observed ? 3 : k == SigKind::Condition ? 2 : k == SigKind::Growth ? 1 : 0; };
  for (const auto& sig : ct.signatures) {
    if (sig.name != name) continue;
    SigKind k = SigKind::Generic;
    bool condition = false, growth = false, pattern = false;
    for (const auto& cl : sig.clauses) {
      if (cl.kind == Kind::FailsWhen || cl.kind == Kind::FailsOnlyWhen || cl.kind == Kind::DiffersRunToRun || cl.kind == Kind::ErrorBound)
        condition = true;
      if (cl.kind == Kind::ErrorGrows) growth = true;
      if (cl.kind == Kind::WrongCells && cl.expr && !restatesFailure(*cl.expr)) pattern = true;
    }
    if (condition) k = SigKind::Condition;
    else if (growth) k = SigKind::Growth;
    else if (pattern) k = SigKind::Observed;
    if (rank(k) > rank(best)) best = k;
  }
  return best;
}

// Whether the signature named `name` has nothing but its condition to show: no `wrong cells`
// pattern of its own (one that says more than "the cell is wrong"), such as overflow's NaN
// where the exact value is finite. The chance rule below weighs such a condition alone.
bool conditionAlone(const sema::ContractInfo& ct, const std::string& name) {
  for (const auto& sig : ct.signatures)
    if (sig.name == name)
      for (const auto& cl : sig.clauses)
        if (cl.kind == Kind::WrongCells && cl.expr && !restatesFailure(*cl.expr)) return false;
  return true;
}

// The `fails when` or `fails only when` clause of the signature named `name` (WrongCells: none).
Kind conditionKind(const sema::ContractInfo& ct, const std::string& name) {
  for (const auto& sig : ct.signatures)
    if (sig.name == name)
      for (const auto& cl : sig.clauses)
        if (cl.kind == Kind::FailsWhen || cl.kind == Kind::FailsOnlyWhen) return cl.kind;
  return Kind::WrongCells;
}

std::string list(const std::vector<size_t>& cases) {
  std::string s;
  for (size_t i = 0; i < cases.size() && i < 6; ++i) s += (i ? ", #" : "#") + std::to_string(cases[i]);
  if (cases.size() > 6) s += ", ...";
  return s;
}

bool hasUnwritten(const CaseResult& r) {
  if (std::find(r.signatures.begin(), r.signatures.end(), report::signature::kUnwrittenCells) != r.signatures.end()) return true;
  return std::any_of(r.worst.begin(), r.worst.end(), [](const report::WorstCell& w) { return w.unwritten; });
}

// A failure the harness saw in what the kernel did rather than in the values it wrote (a
// precondition it did not report, inputs it changed, runs that differ): the re-runs, which
// vary values and shapes, have nothing to test there.
bool byBehaviour(const CaseResult& r) {
  namespace sig = report::signature;
  for (const auto& n : r.signatures)
    for (const char* b : {sig::kPreconditionUnreported, sig::kInputModified, sig::kNondeterministic, sig::kOutOfBoundsWrite,
                          sig::kStreamLeak, sig::kDeviceMemoryLeak, sig::kBatchVariant, sig::kOutputNeverComputed})
      if (n == b) return true;
  return false;
}

const plan::Case* planCase(const plan::Plan& plan, size_t number) {
  for (const auto& c : plan.cases)
    if (c.number == number) return &c;
  return nullptr;
}

bool hasSpecialValues(const plan::Plan& plan, const plan::Case& c) {
  for (const auto& [name, k] : c.values) {
    const plan::TensorPlan* t = plan.tensor(name);
    if (t && k < t->values.size() && t->values[k].special) return true;
  }
  return false;
}

bool plainCase(const plan::Plan& plan, const plan::Case& c) {
  for (const auto& [name, k] : c.layouts) {
    const plan::TensorPlan* t = plan.tensor(name);
    if (t && k < t->layouts.size() && t->layouts[k].kind != "contiguous") return false;
  }
  return true;  // a re-run is never perturbed
}

Candidate& candidate(std::vector<Candidate>& cs, const std::string& name, Strength s, const std::string& evidence) {
  for (auto& c : cs)
    if (c.name == name) {
      if (static_cast<int>(s) > static_cast<int>(c.strength)) {
        c.strength = s;
        c.evidence = evidence;
      }
      return c;
    }
  cs.push_back({name, s, evidence, {}, static_cast<int>(cs.size())});
  return cs.back();
}

void explains(Candidate& c, size_t number) {
  if (std::find(c.cases.begin(), c.cases.end(), number) == c.cases.end()) c.cases.push_back(number);
}

// The case with every tensor in its contiguous layout (added to the plan when a tensor has
// none): the re-runs vary one factor at a time, and a layout is not the one they vary.
plan::Case contiguousVariant(plan::Plan& plan, const plan::Case& c) {
  plan::Case out = c;
  for (auto& [name, k] : out.layouts)
    if (plan::TensorPlan* t = plan.tensor(name)) k = layoutIndex(*t, {"contiguous", "contiguous", 0, {}});
  return out;
}

// Whether the tail re-run can vary some dim of the case (one not already a multiple of the
// widest tile it tries, small enough to round up cheaply).
bool tailProbeable(const plan::Case& c) {
  for (const auto& [dim, v] : c.dims)
    if (v >= 2 && v <= kTailProbeMax && v % 64 != 0) return true;
  return false;
}

// A passing case (in contiguous views, not a large-index one: up to two tried) on which the kernel
// computes its outputs from its inputs (computesOn), or none.
const CaseResult* computingPassCase(const DiagnoseInput& in, ProbeContext& ctx, std::vector<std::string>& log) {
  int tried = 0;
  for (const CaseResult& r : *in.results) {
    if (r.verdict != Verdict::Pass) continue;
    const plan::Case* c = planCase(*in.plan, r.number);
    if (!c || c->largeIndex != 0) continue;
    plan::Case v = plainCase(*in.plan, *c) ? *c : contiguousVariant(ctx.plan, *c);
    uint64_t m = in.marks ? in.marks(r.seed, r.number) : 0;
    if (computesOn(ctx, v, r.seed, m, log)) return &r;
    if (++tried == 2) break;
  }
  return nullptr;
}

// The re-runs on one failing case, in contiguous views: the causes they show, and whether
// the failure needs values that round (when no re-run found a cause of another kind).
// The failing case the re-runs were made on, for the growth re-run after them.
struct ProbeChoice {
  const CaseResult* result = nullptr;
  plan::Case kase;
  uint64_t marks = 0;
};

Rounding runProbes(const DiagnoseInput& in, const std::vector<const CaseResult*>& failing, std::vector<Candidate>& out,
                   report::Diagnosis& d, ProbeChoice& choice) {
  ProbeContext& ctx = *in.probes;
  // Candidates: failing cases whose failure is in the values they wrote. Preferred: one whose
  // shape the tail re-run can vary, then one with no special values, then the largest up to 16 MiB (every part of the kernel
  // runs and re-runs stay cheap), else the smallest; a grid-rows case (65,537 rows of almost
  // nothing, made for the launch limit, which its own re-run probes) only when no other fails.
  constexpr uint64_t kProbeBytes = 16ull << 20;
  std::vector<std::pair<const CaseResult*, const plan::Case*>> order;
  for (const CaseResult* r : failing) {
    const plan::Case* c = planCase(*in.plan, r->number);
    if (c && !byBehaviour(*r) && c->largeIndex == 0) order.emplace_back(r, c);
  }
  const plan::Plan& plan = *in.plan;
  std::stable_sort(order.begin(), order.end(), [&plan](const auto& x, const auto& y) {
    const plan::Case& a = *x.second;
    const plan::Case& b = *y.second;
    bool aGrid = a.why == "grid-rows", bGrid = b.why == "grid-rows";
    if (aGrid != bGrid) return bGrid;
    if (tailProbeable(a) != tailProbeable(b)) return tailProbeable(a);
    // The value re-runs (exact inputs, every input 1, scaling) replace the inputs: on a case
    // whose failure may be its NaN or Inf alone they show nothing, so a finite one first.
    bool aSpecial = hasSpecialValues(plan, a), bSpecial = hasSpecialValues(plan, b);
    if (aSpecial != bSpecial) return bSpecial;
    bool aFits = a.memoryBytes <= kProbeBytes, bFits = b.memoryBytes <= kProbeBytes;
    if (aFits != bFits) return aFits;
    return aFits ? a.memoryBytes > b.memoryBytes : a.memoryBytes < b.memoryBytes;
  });
  const CaseResult* probe = nullptr;
  plan::Case chosen;
  // A failing case with strided views is re-run in contiguous ones first: it must still
  // fail there, or its failure is the layout's (and the re-runs, which vary other factors,
  // would show nothing).
  int tries = 0;
  for (const auto& [r, c] : order) {
    if (plainCase(*in.plan, *c)) {
      probe = r;
      chosen = *c;
      break;
    }
    if (tries++ == 3) continue;
    plan::Case v = contiguousVariant(ctx.plan, *c);
    uint64_t m = in.marks ? in.marks(r->seed, r->number) : 0;
    VariantRun run = runVariant(ctx, v, r->seed, m);
    std::string at = "#" + std::to_string(c->number) + " in contiguous views: ";
    if (run.ran && run.result.verdict == Verdict::Fail) {
      d.probes.push_back(at + "fails too (the re-runs below vary it)");
      probe = r;
      chosen = v;
      break;
    }
    d.probes.push_back(at + (run.ran ? (run.result.verdict == Verdict::Pass ? "passes" : "no verdict") : "did not run (" + run.why + ")"));
  }
  if (!probe) {
    d.probes.push_back("none: no failing case with wrong values alone fails in contiguous views");
    return Rounding::Unknown;
  }
  const plan::Case* pc = &chosen;
  uint64_t marks = in.marks ? in.marks(probe->seed, probe->number) : 0;
  std::string at = " (shown on #" + std::to_string(probe->number) + ")";
  choice = {probe, chosen, marks};
  bool outside = readsOutsideViews(ctx, *pc, probe->seed, marks, d.probes);
  // NaN where the exact value is finite, from inputs that hold none: what the poison past a
  // buffer's end gives a kernel that reads there (changing it shows nothing: NaN either way).
  bool readsPoison = !hasSpecialValues(*in.plan, *pc) &&
                     std::any_of(probe->worst.begin(), probe->worst.end(), [](const report::WorstCell& w) {
                       return !w.unwritten && std::isnan(w.got) && std::isfinite(w.expected);
                     });
  std::optional<TailFinding> tail = failsOnRemainder(ctx, *pc, probe->seed, marks, d.probes);
  if (tail) {
    std::string name;
    // Reading outside its views comes first: cells that hold the poison pattern may be copies
    // of the poison the kernel read past its view (a relu of it is the same bits), not cells
    // it never wrote.
    if (outside || readsPoison) name = "tail-over-read";
    else if (hasUnwritten(*probe)) name = "tail-unwritten";
    else if (!tail->inOutput) name = "k-tail";
    else {
      // The dim is also an output's: the wrong cells say whether a reduction over it lost
      // its tail (cells before the last tile wrong too) or only the last tile is wrong.
      int64_t v = 0;
      for (const auto& [dim, x] : pc->dims)
        if (dim == tail->dim) v = x;
      int64_t tailStart = v - v % tail->tile;
      bool beforeTail = false;
      for (const auto& w : probe->worst)
        if (tail->axis < w.index.size() && w.index[tail->axis] < tailStart) beforeTail = true;
      if (beforeTail) name = "k-tail";
    }
    if (!name.empty()) {
      std::string how = outside ? "; reads outside its views"
                        : readsPoison && name == "tail-over-read"
                            ? "; NaN where the exact value is finite, from inputs without NaN: it reads the poison past its views"
                            : "";
      Candidate& c = candidate(out, name, Strength::Observed, tail->evidence + how + at);
      // A tile is usually square or shared: unwritten cells in a case where any dim is off
      // the tile are the same bug (a transpose whose tiles miss the last rows or columns).
      for (const CaseResult* r : failing) {
        const plan::Case* fc = planCase(*in.plan, r->number);
        if (!fc) continue;
        for (const auto& [dim, x] : fc->dims)
          if ((dim == tail->dim || (name == "tail-unwritten" && hasUnwritten(*r))) && x % tail->tile != 0) explains(c, r->number);
      }
      return Rounding::Unknown;
    }
    d.notNamed.push_back("a tail cause: " + tail->evidence + ", but the wrong cells are in the last tile only and it "
                         "reads nothing outside its views: no signature names that pattern");
  }
  if (std::optional<LimitFinding> limit = failsPastGridLimit(ctx, *pc, probe->seed, marks, d.probes)) {
    Candidate& c = candidate(out, "grid-limit", Strength::Observed, limit->evidence + at);
    for (const CaseResult* r : failing)
      if (const plan::Case* fc = planCase(*in.plan, r->number))
        for (const auto& [dim, x] : fc->dims)
          if (dim == limit->dim && x > 65535) explains(c, r->number);
    return Rounding::Unknown;
  }
  // Asked after the shape: a K below the tile gives zeros whatever the inputs. Not asked of a
  // kernel that reads outside its views: what it reads there (a canary, the next buffer) can
  // swamp or replace its inputs' terms, so outputs that stay put say nothing about reuse.
  if (!outside && ignoresInputs(ctx, *pc, probe->seed, marks, d.probes)) {
    // "Never computed" must hold where it can be asked of a passing case too: one whose
    // outputs follow its inputs shows a kernel that skips work at some shapes instead.
    if (const CaseResult* p = computingPassCase(in, ctx, d.probes)) {
      d.notNamed.push_back(std::string(report::signature::kOutputNeverComputed) + ": #" + std::to_string(probe->number) +
                           "'s outputs do not change when its inputs do, but #" + std::to_string(p->number) +
                           " passes and its outputs follow its inputs: the kernel computes them at some shapes (a bound "
                           "or a tail it skips), and no re-run here shows which");
      return Rounding::Unknown;
    }
    Candidate& c = candidate(out, report::signature::kOutputNeverComputed, Strength::Observed,
                             "the outputs do not change when the inputs do" + at);
    for (const CaseResult* r : failing) explains(c, r->number);
    return Rounding::Unknown;  // nothing about its inputs or shape can explain more
  }
  if (outside) {
    Candidate& c = candidate(out, "tail-over-read", Strength::Observed, "reads outside its views" + at);
    explains(c, probe->number);
    return Rounding::Unknown;
  }
  // Past the limit of a ranged reduction (a causal mask) rather than past a view.
  if (std::optional<std::string> past = readsPastReductionLimit(ctx, *pc, probe->seed, marks, d.probes)) {
    Candidate& c = candidate(out, "tail-over-read", Strength::Observed, *past + at);
    for (const CaseResult* r : failing)
      if (!byBehaviour(*r)) explains(c, r->number);
    return Rounding::Unknown;
  }
  Rounding rounding = needsRounding(ctx, *pc, probe->seed, marks, d.probes);
  std::optional<numerics::DType> narrow;
  // The narrow-input re-run needs inputs with bits below the narrow format: when the chosen
  // case's stay put (integers), up to 3 other failing cases in contiguous views are tried.
  std::vector<std::pair<const CaseResult*, const plan::Case*>> narrowCases = {{probe, pc}};
  for (const auto& [r, c] : order)
    if (narrowCases.size() < 4 && r != probe && plainCase(*in.plan, *c)) narrowCases.emplace_back(r, c);
  size_t shownOn = probe->number;
  if (rounding == Rounding::Needed)
    for (const auto& [r, c] : narrowCases) {
      bool moved = false;
      narrow = seesOnlyNarrowInputs(ctx, *c, r->seed, in.marks ? in.marks(r->seed, r->number) : 0, moved, d.probes);
      shownOn = r->number;
      if (narrow || moved) break;
    }
  if (narrow) {
    Candidate& c = candidate(out, "operand-coercion", Strength::Observed,
                             "its outputs do not change when its f32 inputs are first rounded to " + std::string(numerics::dtypeName(*narrow)) +
                                 ": it rounds its operands (shown on #" + std::to_string(shownOn) + ")");
    for (const CaseResult* r : failing)
      if (!byBehaviour(*r)) explains(c, r->number);
    return rounding;
  }
  // Hypotheses about the values, cheapest first; the first that shows names the cause of
  // every failure in the values.
  std::string name;
  std::optional<std::string> shown = overflowsOnLargeValues(ctx, *pc, *probe, probe->seed, marks, d.probes);
  if (!shown) shown = wrapsOnLargeIntegers(ctx, *pc, *probe, probe->seed, marks, d.probes);
  if (shown) name = "overflow";
  if (!shown && (shown = approximatesPointwise(ctx, *pc, probe->seed, marks, d.probes))) name = "approximate-math";
  if (!shown && (shown = ignoresScaleInput(ctx, *pc, probe->seed, marks, d.probes))) name = "missing-scale";
  if (!shown && (shown = missesRunningMaxRescale(ctx, *pc, probe->seed, marks, d.probes))) name = "online-softmax-rescale";
  if (!shown) {
    // The same scale must fix other failing cases too (with another value of its dim): a
    // norm that only divides by its spread passes by chance at one scale.
    std::vector<ScaleCheck> others;
    for (const auto& [r, c] : order)
      if (r != probe && plainCase(*in.plan, *c) && others.size() < 3)
        others.push_back({*c, r->seed, in.marks ? in.marks(r->seed, r->number) : 0});
    if ((shown = passesWithInputScaled(ctx, *pc, probe->seed, marks, others, d.probes))) name = "missing-scale";
  }
  if (!shown && rounding == Rounding::NotNeeded && (shown = keepsBoundedTerms(ctx, *pc, probe->seed, marks, d.probes)))
    name = "accumulate-overwrite";
  if (shown) {
    Candidate& c = candidate(out, name, Strength::Observed, *shown + at);
    for (const CaseResult* r : failing)
      if (!byBehaviour(*r)) explains(c, r->number);
    // That the failure needs large values fits a cancellation too (a one-pass variance of
    // a large mean): overflow from this re-run alone ranks with the contract's conditions,
    // after them where they explain as many cases.
    if (name == "overflow") {
      c.strength = Strength::Statistical;
      c.order = 1 << 20;
    }
  }
  return rounding;
}

// Causes about the kernel's shape and reads, which only a re-run shows: a contract's pattern
// under one of these names (std.mem.tail-mask@1's `tail-unwritten`, NaN where y* is finite)
// says what the cells look like, not that a tail was dropped or read past.
bool reRunOnly(const std::string& name) {
  for (const char* n : {"tail-unwritten", "tail-over-read", "k-tail", "operand-coercion", "stream-race"})
    if (name == n) return true;
  return false;
}

// A name that says its failure is a rounding error (precision, accumulator, coercion,
// rounding): refuted when the kernel fails on inputs that nothing rounds.
bool roundingName(const std::string& name) {
  for (const char* w : {"precision", "accumulator", "coercion", "rounding", "one-pass"})
    if (name.find(w) != std::string::npos) return true;
  return false;
}

// Whether a factor is one a missing or wrong scale gives: a dim's size, its square root or
// their inverses; N / (N - 1), Bessel's correction (a variance divided by N - 1 for N), its
// square root or their inverses; or one dim's size over another's (a mean divided by the
// wrong dim). Near 1, it must match to a fiftieth of its distance from 1.
bool dimFactor(double f, const CaseResult& r) {
  auto near = [&](double c) { return std::fabs(f - c) <= std::min(1e-3 * std::fabs(c), 0.02 * std::fabs(1 - c)); };
  for (const auto& [name, v] : r.dims) {
    double x = static_cast<double>(v);
    if (x <= 1) continue;
    double b = x / (x - 1);
    for (double c : {x, 1 / x, std::sqrt(x), 1 / std::sqrt(x), b, 1 / b, std::sqrt(b), 1 / std::sqrt(b)})
      if (near(c)) return true;
    for (const auto& [other, w] : r.dims)
      if (other != name && w > 1 && near(x / static_cast<double>(w))) return true;
  }
  return false;
}

}  // namespace

// A race with the launch's stream (std.mem.stream-discipline@1's `stream-race`): unwritten
// cells, or repeats that differ or wrote nothing, are what reading outputs before the
// kernel's own stream is done gives. On a backend with streams, the first failing case that
// shows one (not a large-index one) is re-run with the outputs read once the whole device is
// done; when that passes, every failing case with such a symptom is explained.
void streamRace(const DiagnoseInput& in, const std::vector<const CaseResult*>& failing, std::vector<Candidate>& out,
                   report::Diagnosis& d) {
  namespace sig = report::signature;
  auto racy = [](const CaseResult& r) {
    for (const auto& n : r.signatures)
      if (n == sig::kOutputNeverComputed || n == sig::kNondeterministic) return true;
    return hasUnwritten(r);
  };
  if (!in.probes->worker.backend || !in.probes->worker.backend->hasStreams()) return;
  for (const CaseResult* r : failing) {
    const plan::Case* c = planCase(*in.plan, r->number);
    if (!c || c->largeIndex != 0 || !racy(*r)) continue;
    uint64_t marks = in.marks ? in.marks(r->seed, r->number) : 0;
    if (!racesItsStream(*in.probes, *c, r->seed, marks, d.probes)) return;
    Candidate& cand = candidate(out, "stream-race", Strength::Observed,
                                "fails when only the launch's stream is waited for and passes when the whole device is: its work "
                                "is on a stream of its own, not ordered before it returns (shown on #" + std::to_string(r->number) + ")");
    for (const CaseResult* f : failing)
      if (racy(*f)) explains(cand, f->number);
    return;
  }
}

// Past 2^31 elements only: every failing case is one of the planner's large-index cases
// (more than 2^31 or 2^32 elements) and smaller cases ran and passed, so a 32-bit index or
// count wraps. The plan already varies exactly that; no re-run is needed.
void largeIndexOnly(const DiagnoseInput& in, const std::vector<const CaseResult*>& failing, std::vector<Candidate>& out) {
  size_t smallerPassed = 0;
  for (const CaseResult& r : *in.results) {
    const plan::Case* c = planCase(*in.plan, r.number);
    if (c && c->largeIndex == 0 && r.verdict == Verdict::Pass) ++smallerPassed;
  }
  if (smallerPassed == 0) return;
  for (const CaseResult* r : failing) {
    const plan::Case* c = planCase(*in.plan, r->number);
    if (!c || c->largeIndex == 0) return;
  }
  Candidate& c = candidate(out, "index-overflow", Strength::Observed,
                           "fails only past 2^31 elements: every failing case is a large-index case, and " + std::to_string(smallerPassed) +
                               " smaller cases pass (a 32-bit index or count wraps)");
  for (const CaseResult* r : failing) explains(c, r->number);
}

// A crash: the first crashed case (not a large-index one) re-run, then re-run with every row
// aligned; running then, every crashed case is explained by misaligned access.
void crashCause(const DiagnoseInput& in, const std::vector<const CaseResult*>& crashed, std::vector<Candidate>& out,
                report::Diagnosis& d) {
  for (const CaseResult* r : crashed) {
    const plan::Case* c = planCase(*in.plan, r->number);
    if (!c || c->largeIndex != 0) continue;
    uint64_t marks = in.marks ? in.marks(r->seed, r->number) : 0;
    std::optional<std::string> shown = crashesOnUnalignedRows(*in.probes, *c, r->seed, marks, d.probes);
    if (!shown) return;
    Candidate& cand = candidate(out, "misaligned-access", Strength::Observed, *shown);
    for (const CaseResult* f : crashed) explains(cand, f->number);
    return;
  }
}

report::Diagnosis diagnose(const DiagnoseInput& in) {
  report::Diagnosis d;
  const auto& results = *in.results;
  std::vector<const CaseResult*> failing, crashed;
  for (const auto& r : results) {
    if (r.verdict == Verdict::Fail) failing.push_back(&r);
    if (r.verdict == Verdict::Crash) crashed.push_back(&r);
  }
  if (failing.empty() && crashed.empty()) return d;
  const CaseResult& first = failing.empty() ? *crashed.front() : *failing.front();
  d.kernel = first.kernel;
  d.contract = first.contract;
  d.backend = first.backend;
  d.failing = failing.size() + crashed.size();
  const sema::ContractInfo& ct = *in.contract;

  std::vector<Candidate> cs;
  // Re-runs first: what they show outranks what a name only suggests.
  if (in.probes && !crashed.empty()) crashCause(in, crashed, cs, d);
  if (!failing.empty()) largeIndexOnly(in, failing, cs);
  if (in.probes && !failing.empty()) streamRace(in, failing, cs, d);
  ProbeChoice choice;
  Rounding rounding = in.probes && !failing.empty() ? runProbes(in, failing, cs, d, choice) : Rounding::Unknown;
  // `error grows with D`, re-run on the probe's case with D alone varied; once per dim.
  std::map<std::string, std::optional<std::string>> grownByRerun;
  auto growsByRerun = [&](const std::string& dim) -> const std::optional<std::string>& {
    auto it = grownByRerun.find(dim);
    if (it != grownByRerun.end()) return it->second;
    std::optional<std::string> shown;
    if (in.probes && choice.result) shown = errorGrowsWith(*in.probes, choice.kase, choice.result->seed, choice.marks, dim, d.probes);
    return grownByRerun[dim] = shown;
  };
  std::string roundingEvidence = "the case passes on inputs in -1..1, which no dtype or order rounds: the failure needs the values that showed it";
  // Passing on -1..1 says the failure needs the case's values, not that it is a rounding: a
  // case that writes Inf or NaN where the exact value is finite failed on range (an exp past
  // a shift that is not the row's maximum, an overflow), which a rounding name would misplace.
  auto rangeFailure = [](const CaseResult& r) {
    return std::any_of(r.worst.begin(), r.worst.end(), [](const report::WorstCell& w) {
      return !w.unwritten && std::isfinite(w.expected) && !std::isfinite(w.got);
    });
  };

  // The names the cases matched, by the evidence each kind brings.
  std::vector<check::GrowthFinding> growth = check::judgeGrowth(ct, results);
  std::set<std::string> said;
  std::vector<std::pair<const CaseResult*, double>> factors;  // constantFactor per failing case
  // A name its control confirmed by changing only the case's layouts says the kernel reads the
  // wrong cells of its views; the dependence re-run (readsItsOwnCells) can refute that. Made
  // once per diagnosis, on the first such case; its evidence when the kernel reads its own cells.
  // A write outside a view, seen on any failing case, already shows the kernel misaddresses.
  std::optional<std::optional<std::string>> ownCells;
  bool sawOutOfViewWrite = std::any_of(failing.begin(), failing.end(), [](const CaseResult* f) {
    return std::find(f->signatures.begin(), f->signatures.end(), report::signature::kOutOfViewWrite) != f->signatures.end();
  });
  auto readsOwnCellsOf = [&](const CaseResult* r) -> const std::optional<std::string>& {
    static const std::optional<std::string> none;
    if (ownCells) return *ownCells;
    const plan::Case* c = planCase(*in.plan, r->number);
    if (!in.probes || !c || plainCase(*in.plan, *c) || sawOutOfViewWrite) return none;
    std::optional<plan::Case> control = run::controlCase(*in.plan, *c, nullptr);
    if (!control || control->values != c->values || control->perturb != c->perturb) return none;
    uint64_t marks = in.marks ? in.marks(r->seed, r->number) : 0;
    plan::Case contiguous = contiguousVariant(in.probes->plan, *c);
    ownCells = readsItsOwnCells(*in.probes, *c, contiguous, r->seed, marks, d.probes);
    return *ownCells;
  };
  // What a name a case matched is worth, by the evidence its kind brings: a candidate it
  // explains the case for, or a line of what it lacked.
  auto weigh = [&](const CaseResult* r, const std::string& name) {
    if (name == report::signature::kUnclassified) return;
    if (reRunOnly(name)) {
      if (said.insert(name).second && !std::any_of(cs.begin(), cs.end(), [&](const Candidate& c) { return c.name == name; }))
        d.notNamed.push_back(name + ": only a re-run shows it, and none did");
      return;
    }
    SigKind k = kindOf(ct, name);
    if (rounding == Rounding::NotNeeded && k != SigKind::Observed && roundingName(name)) {
      if (said.insert(name).second)
        d.notNamed.push_back(name + ": the kernel fails on inputs in -1..1 too, which nothing rounds: not a rounding error");
      return;
    }
    if (k == SigKind::Observed) {
      // A built-in name is the harness's own check (its `violated:` line says what it saw).
      const char* why = report::signature::isBuiltIn(name) ? "the checker's own check saw it (the cases' violated: lines)"
                                                             : "seen at every wrong cell of the case";
      explains(candidate(cs, name, Strength::Observed, why), r->number);
    } else if (k == SigKind::Condition) {
      explains(candidate(cs, name, Strength::Statistical, "its condition holds on every failing case it could name"), r->number);
    } else if (k == SigKind::Growth) {
      auto g = std::find_if(growth.begin(), growth.end(), [&](const check::GrowthFinding& f) { return f.signature == name; });
      if (g != growth.end() && g->confirmed) {
        explains(candidate(cs, name, Strength::Statistical, "error grows with " + g->dim + " (" + g->evidence + ")"), r->number);
      } else if (g != growth.end() && rounding != Rounding::NotNeeded && growsByRerun(g->dim)) {
        explains(candidate(cs, name, Strength::Statistical, *growsByRerun(g->dim)), r->number);
      } else if (rounding == Rounding::Needed && roundingName(name) && !rangeFailure(*r)) {
        explains(candidate(cs, name, Strength::Statistical, roundingEvidence), r->number);
      } else if (said.insert(name).second) {
        d.notNamed.push_back(name + ": its error does not grow with " + (g != growth.end() ? g->dim + " across cases (" + g->evidence + ")" : std::string("the dim across cases")));
      }
    } else if (std::find(r->confirmed.begin(), r->confirmed.end(), name) != r->confirmed.end()) {
      if (const std::optional<std::string>& own = readsOwnCellsOf(r)) {
        if (said.insert(name).second) d.notNamed.push_back(name + ": " + *own);
        return;
      }
      explains(candidate(cs, name, Strength::Control, "the same case on neutral inputs and contiguous views passes"), r->number);
    } else if (rounding == Rounding::Needed && roundingName(name) && !rangeFailure(*r)) {
      explains(candidate(cs, name, Strength::Control, roundingEvidence), r->number);
    } else if (said.insert(name).second) {
      d.notNamed.push_back(name + ": its only evidence is that cells are wrong, and no control run showed its class's inputs are needed");
    }
  };
  for (const CaseResult* r : failing) {
    for (const std::string& name : r->signatures) weigh(r, name);
    if (auto f = constantFactor(*r)) factors.emplace_back(r, *f);
  }
  // A missing scale: the factor is a dim's (a mean without 1/N), or one factor in every
  // failing case of wrong values (two cases with the same worst cells are no evidence).
  size_t valueFailures = 0;
  for (const CaseResult* r : failing)
    if (!byBehaviour(*r)) ++valueFailures;
  // A normalisation (x divided by a row's or the tensor's norm) with any wrong norm gives a
  // constant factor per case, which now and then lands near some dim's: a dim's factor is
  // evidence only when most cases with a factor show one (a mean without 1/N does, but for
  // the cases where eps outweighs the mean).
  size_t dimFactors = static_cast<size_t>(
      std::count_if(factors.begin(), factors.end(), [](const auto& rf) { return dimFactor(rf.second, *rf.first); }));
  bool mostDimFactors = 2 * dimFactors > factors.size();
  for (const auto& [r, f] : factors) {
    bool same = factors.size() >= 2 && factors.size() == valueFailures && std::all_of(factors.begin(), factors.end(), [&](const auto& o) {
      return std::fabs(o.second - f) <= 1e-3 * std::fabs(f);
    });
    if (!(dimFactor(f, *r) && mostDimFactors) && !same) continue;
    char buf[160];
    if (f == 0)
      std::snprintf(buf, sizeof buf, "every wrong cell is 0 with its exact value's sign, in every failing case: the result is "
                                     "computed, then scaled by 0");
    else
      std::snprintf(buf, sizeof buf, "every wrong cell is its exact value times %.6g%s", f,
                    dimFactor(f, *r) ? " (a dim's size or square root, N / (N - 1), one dim over another, or an inverse)" : " in every failing case");
    explains(candidate(cs, "missing-scale", Strength::Statistical, buf), r->number);
  }
  // Runs that differ, on CUDA: compute-sanitizer's racecheck on the first such case tells a
  // data race (hazards between threads' shared-memory accesses) from an unordered but
  // race-free reduction (atomics), which it does not report.
  if (in.racecheck)
    for (const CaseResult* r : failing) {
      if (std::find(r->signatures.begin(), r->signatures.end(), report::signature::kNondeterministic) == r->signatures.end())
        continue;
      report::SanitizerRun run = in.racecheck(*r);
      std::string at = "#" + std::to_string(r->number) + " under compute-sanitizer racecheck: ";
      // The replay under the tool must itself have run the case to a verdict; a replay that
      // crashed or errored there shows nothing, whatever the tool's summary says.
      bool completed = run.ran && run.errors >= 0 && (run.note.rfind("PASS", 0) == 0 || run.note.rfind("FAIL", 0) == 0);
      if (!completed) {
        d.probes.push_back(at + "shows nothing: the case did not run to a verdict under the tool (" +
                           (run.note.empty() ? std::string("no verdict line") : run.note) + ")");
        break;
      }
      d.probes.push_back(at + (run.errors > 0 ? std::to_string(run.errors) + " hazard(s)" + (run.findings.empty() ? "" : ": " + run.findings.front())
                                              : "no hazard"));
      if (run.errors <= 0) break;
      Candidate& race = candidate(cs, "race", Strength::Observed,
                                  "its runs differ, and compute-sanitizer racecheck reports " + std::to_string(run.errors) +
                                      " hazard(s) on #" + std::to_string(r->number) + ": threads race on shared memory");
      race.order = -1;  // before the nondeterminism it explains
      for (const CaseResult* f : failing)
        if (std::find(f->signatures.begin(), f->signatures.end(), report::signature::kNondeterministic) != f->signatures.end())
          explains(race, f->number);
      break;
    }
  // A write outside the view of a strided output is what ignoring its strides does.
  auto byName = [&](const std::string& n) {
    return std::find_if(cs.begin(), cs.end(), [&](const Candidate& c) { return c.name == n; });
  };
  auto oov = byName(report::signature::kOutOfViewWrite);
  auto strides = byName("ignores-strides");
  if (oov != cs.end() && strides != cs.end()) {
    for (size_t n : oov->cases) explains(*strides, n);
    strides->strength = Strength::Observed;
    strides->evidence = "writes outside its view, into the gaps of a strided output, and fails where a control on contiguous views passes";
    cs.erase(byName(report::signature::kOutOfViewWrite));
  }

  // A condition is weighed across cases: `fails only when C` is refuted by a failing case
  // where C is false (unless a stronger cause explains it); `fails when C` by a failing case
  // without C that nothing else explains (below), not by a passing case with C: C is a
  // trigger over the exact values, and whether the kernel's own rounding shows its bug there
  // is the kernel's (a constant row whose mean one layernorm computes exactly, another not).
  std::set<size_t> strong;
  for (const auto& c : cs)
    if (c.strength == Strength::Observed) strong.insert(c.cases.begin(), c.cases.end());
  // The cases some other cause explains, for `fails when`.
  auto explainedByOther = [&](const std::string& name, size_t number) {
    return std::any_of(cs.begin(), cs.end(), [&](const Candidate& o) {
      return o.name != name && std::find(o.cases.begin(), o.cases.end(), number) != o.cases.end();
    });
  };
  auto held = [](const CaseResult& r, const std::string& name) -> std::optional<bool> {
    for (const auto& [n, v] : r.conditions)
      if (n == name) return v;
    return std::nullopt;
  };
  for (auto it = cs.begin(); it != cs.end();) {
    Kind clause = conditionKind(ct, it->name);
    if (it->strength != Strength::Statistical || (clause != Kind::FailsWhen && clause != Kind::FailsOnlyWhen)) {
      ++it;
      continue;
    }
    std::vector<size_t> counter;
    std::string how;
    for (const auto& r : results) {
      auto c = held(r, it->name);
      if (!c) continue;
      if (clause == Kind::FailsOnlyWhen && r.verdict == Verdict::Fail && !*c && !strong.count(r.number)) counter.push_back(r.number);
    }
    // `fails when C` says C is enough to fail, not that nothing else fails: a failing case
    // without C that no other cause explains is a cause not found, which may be the one
    // behind the cases with C too.
    std::vector<size_t> without;
    if (clause == Kind::FailsWhen && counter.empty())
      for (const CaseResult* r : failing) {
        auto c = held(*r, it->name);
        if (c && !*c && !explainedByOther(it->name, r->number)) without.push_back(r->number);
      }
    if (!without.empty()) {
      d.notNamed.push_back(it->name + ": its condition holds on " + list(it->cases) + ", but " + list(without) +
                           " failed without it and no cause found explains them");
      it = cs.erase(it);
      continue;
    }
    // `fails only when C` is evidence only where C picks the failing cases out: were the
    // failures blind to C, all F of them would meet it with probability p^F, p the share of
    // the cases run where C holds (zero padding on most of a convolution's cases names
    // nothing when one case fails).
    if (counter.empty() && clause == Kind::FailsOnlyWhen && conditionAlone(ct, it->name)) {
      // (Only where C was evaluated on passing cases too: a condition on values is evaluated
      // on failing cases alone, and then says nothing about its share.)
      size_t evaluated = 0, holding = 0, passing = 0;
      for (const auto& r : results) {
        auto c = held(r, it->name);
        if (!c || (r.verdict != Verdict::Pass && r.verdict != Verdict::Fail)) continue;
        ++evaluated;
        if (*c) ++holding;
        if (r.verdict == Verdict::Pass) ++passing;
      }
      double share = evaluated ? static_cast<double>(holding) / static_cast<double>(evaluated) : 1.0;
      double chance = std::pow(share, static_cast<double>(it->cases.size()));
      if (passing > 0 && chance > kConditionChance) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2g", chance);
        d.notNamed.push_back(it->name + ": its condition holds on " + std::to_string(holding) + " of the " + std::to_string(evaluated) +
                             " cases run, so that " + list(it->cases) + " meet it is what chance gives (" + buf + ")");
        it = cs.erase(it);
        continue;
      }
    }
    if (counter.empty()) {
      ++it;
      continue;
    }
    d.notNamed.push_back(it->name + ": it says the kernel fails only when its condition holds, but " + list(counter) + " failed without it");
    it = cs.erase(it);
  }

  // A failing case whose every name was refuted above falls back on the names its own names
  // outranked (a growth behind a refuted `fails only when`), weighed like the others.
  std::set<size_t> stillExplained;
  for (const auto& c : cs) stillExplained.insert(c.cases.begin(), c.cases.end());
  for (const CaseResult* r : failing)
    if (!stillExplained.count(r->number))
      for (const std::string& name : r->outranked) weigh(r, name);

  // Rank, then keep a cause only when it explains a failing case the ones before it do not.
  std::stable_sort(cs.begin(), cs.end(), [](const Candidate& a, const Candidate& b) {
    if (a.strength != b.strength) return static_cast<int>(a.strength) > static_cast<int>(b.strength);
    if (a.cases.size() != b.cases.size()) return a.cases.size() > b.cases.size();
    return a.order < b.order;
  });
  std::set<size_t> covered;
  for (const auto& c : cs) {
    bool adds = std::any_of(c.cases.begin(), c.cases.end(), [&](size_t n) { return !covered.count(n); });
    if (!adds) {
      if (!d.causes.empty()) d.notNamed.push_back(c.name + ": every case it explains is explained by " + d.causes.front().name);
      continue;
    }
    covered.insert(c.cases.begin(), c.cases.end());
    std::vector<size_t> sorted = c.cases;
    std::sort(sorted.begin(), sorted.end());
    d.causes.push_back({c.name, c.evidence, sorted});
  }
  for (const CaseResult* r : failing)
    if (!covered.count(r->number)) d.unexplained.push_back(r->number);
  for (const CaseResult* r : crashed)
    if (!covered.count(r->number)) d.unexplained.push_back(r->number);
  std::sort(d.unexplained.begin(), d.unexplained.end());
  foldBudgetSpent(d.probes);
  return d;
}

}  // namespace kc::diagnose

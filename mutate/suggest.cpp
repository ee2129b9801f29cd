#include "mutate/suggest.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "compiler/plan/planner.h"
#include "mutate/kill_matrix.h"
#include "stdlib/numerics/dtype.h"

namespace kc::mutate {

namespace {

using plan::Case;
using plan::Plan;
using VK = sema::ProtocolValue::Kind;

bool floatDType(const std::string& name) {
  auto d = numerics::parseDType(name);
  return d && numerics::isFloat(*d);
}

// An input whose values are floating point (not an index, a mask or a scalar parameter).
bool floatInput(const Plan& p, const plan::TensorPlan& t) {
  if (t.output || t.scalar) return false;
  if (!t.dtypeIsVar) return floatDType(t.dtype);
  for (const auto& v : p.dtypeVars)
    if (v.name == t.dtype) return !v.allowed.empty() && std::all_of(v.allowed.begin(), v.allowed.end(), floatDType);
  return false;
}

sema::ProtocolValue real(double d) {
  sema::ProtocolValue v;
  v.kind = VK::Real;
  v.d = d;
  return v;
}

sema::ProtocolValue generator(const std::string& name, double a, double b) {
  sema::ProtocolValue v;
  v.kind = VK::Call;
  v.name = name;
  v.args.emplace_back("", std::vector<sema::ProtocolValue>{real(a)});
  v.args.emplace_back("", std::vector<sema::ProtocolValue>{real(b)});
  return v;
}

// The index of distribution `v` among tensor `t`'s alternatives, added when it is not there.
size_t distribution(plan::TensorPlan& t, const sema::ProtocolValue& v) {
  std::string text = v.str();
  for (size_t k = 0; k < t.values.size(); ++k)
    if (t.values[k].text == text && !t.values[k].special) return k;
  plan::Distribution d;
  d.text = text;
  d.value = v;
  d.origin = "suggested";
  d.origins = {"suggested"};
  t.values.push_back(std::move(d));
  return t.values.size() - 1;
}

// The plan's cases a change starts from: no special values, no perturbation, no large index,
// no grid-rows case (those have postconditions or sizes of their own), smallest first.
std::vector<Case> sources(const Plan& p) {
  std::vector<Case> out;
  for (const Case& c : p.cases) {
    if (c.perturb != backend::perturb::kNone || c.largeIndex || c.why == "grid-rows") continue;
    bool special = false;
    for (const auto& [input, k] : c.values)
      for (const auto& t : p.tensors)
        if (t.name == input && k < t.values.size() && t.values[k].special) special = true;
    if (!special) out.push_back(c);
  }
  std::stable_sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.memoryBytes < b.memoryBytes; });
  return out;
}

std::string caseKey(const Case& c) {
  std::string k;
  for (const auto& [d, v] : c.dims) k += d + "=" + std::to_string(v) + ",";
  for (const auto& [d, t] : c.dtypes) k += d + "=" + t + ",";
  for (const auto& [t, v] : c.values) k += t + "~" + std::to_string(v) + ",";
  for (const auto& [t, l] : c.layouts) k += t + "@" + std::to_string(l) + ",";
  return k;
}

// The plan's cases replaced by the changed copies of its sources: at most kSuggestCases
// distinct ones, spread from the smallest source to the largest, renumbered from 1 (each
// keeps its source's seeds).
void replaceCases(Plan& p, const std::vector<Case>& changed) {
  std::vector<Case> distinct;
  std::set<std::string> seen;
  for (const Case& c : changed)
    if (seen.insert(caseKey(c)).second) distinct.push_back(c);
  std::vector<Case> kept;
  if (distinct.size() <= kSuggestCases) {
    kept = distinct;
  } else {
    for (size_t k = 0; k < kSuggestCases; ++k) kept.push_back(distinct[k * (distinct.size() - 1) / (kSuggestCases - 1)]);
  }
  for (size_t k = 0; k < kept.size(); ++k) {
    kept[k].number = k + 1;
    kept[k].id = p.contract + "#suggested-" + std::to_string(k + 1);  // not a case of the contract's own plan
    kept[k].why = "suggested";
  }
  p.cases = std::move(kept);
}

void setValues(Case& c, const std::string& input, size_t k) {
  for (auto& [name, v] : c.values)
    if (name == input) v = k;
}

// A value of dim `d` past its largest candidate: four times it, plus one (a tail for any
// power-of-two tile), within the dim's range; nullopt when the range has no room.
std::optional<int64_t> grownDim(const plan::DimPlan& d) {
  if (d.candidates.empty() || !d.allowed.empty()) return std::nullopt;
  int64_t top = *std::max_element(d.candidates.begin(), d.candidates.end());
  if (top > (int64_t{1} << 40)) return std::nullopt;
  int64_t v = std::min(d.hi, 4 * top + 1);
  if (v <= top) return std::nullopt;
  return v;
}

}  // namespace

std::vector<PlanChange> planChanges(const sema::ContractInfo& contract, const Plan& reference) {
  std::vector<PlanChange> out;
  std::vector<std::string> floats;
  for (const auto& t : reference.tensors)
    if (floatInput(reference, t)) floats.push_back(t.name);
  // Values: wide (past f16's largest finite, 65504: a maximum or a sum kept in half), a large
  // mean over a small spread (cancellation), and plain normal(0, 1) (where a plan has only
  // narrow or structured values).
  const std::vector<sema::ProtocolValue> values = {generator("uniform", -1e5, 1e5), generator("normal", 100, 1),
                                                   generator("normal", 0, 1)};
  for (const auto& input : floats)
    for (const auto& v : values) {
      bool present = false;
      for (const auto& t : reference.tensors)
        if (t.name == input)
          for (const auto& d : t.values) present = present || (d.text == v.str() && !d.special);
      if (present) continue;
      out.push_back({"values " + input + " ~ " + v.str(), [input, v](Plan& p) {
                       size_t k = 0;
                       for (auto& t : p.tensors)
                         if (t.name == input) k = distribution(t, v);
                       std::vector<Case> changed = sources(p);
                       for (Case& c : changed) setValues(c, input, k);
                       replaceCases(p, changed);
                     }});
    }
  // Dims: one dim past its largest candidate, with the rest of each case as it is; then the
  // same with every floating input at normal(0, 1) (spread values at the larger size).
  for (const auto& d : reference.dims) {
    auto grown = grownDim(d);
    if (!grown) continue;
    for (bool spread : {false, true}) {
      if (spread && floats.empty()) continue;
      std::string text = "dims " + d.name + " in {" + std::to_string(*grown) + "}";
      if (spread) {
        text += ", values";
        for (size_t k = 0; k < floats.size(); ++k) text += (k ? ", " : " ") + floats[k] + " ~ normal(0, 1)";
      }
      std::string dim = d.name;
      int64_t value = *grown;
      const sema::ContractInfo* ct = &contract;
      out.push_back({text, [dim, value, spread, floats, ct](Plan& p) {
                       std::map<std::string, size_t> normal;
                       if (spread)
                         for (auto& t : p.tensors)
                           if (std::find(floats.begin(), floats.end(), t.name) != floats.end())
                             normal[t.name] = distribution(t, generator("normal", 0, 1));
                       std::vector<Case> changed = sources(p);
                       for (Case& c : changed) {
                         for (auto& [name, v] : c.dims)
                           if (name == dim) v = value;
                         for (const auto& [input, k] : normal) setValues(c, input, k);
                         plan::remeasure(*ct, p, c);
                       }
                       replaceCases(p, changed);
                     }});
    }
  }
  return out;
}

struct Suggester::State {
  std::vector<check::Job> jobs;  // the first job alone: suggestions are for its contract
  check::RunOptions run;
  std::string originalPath;
  Naming naming = Naming::Diagnosis;
  std::vector<PlanChange> changes;
  std::mutex lock;
  std::map<size_t, KernelRun> originals;  // change -> the unmutated kernel's run of it
  std::map<size_t, std::unique_ptr<std::once_flag>> once;

  // Change k, from the cases the run would select by dtype (--dtype), so that its cases are
  // all run rather than narrowed away afterwards.
  std::function<void(plan::Plan&)> rewrite(size_t k) {
    return [this, k](plan::Plan& p) {
      if (!run.dtype.empty())
        std::erase_if(p.cases, [&](const plan::Case& c) {
          return std::any_of(c.dtypes.begin(), c.dtypes.end(), [&](const auto& d) { return d.second != run.dtype; });
        });
      changes[k].apply(p);
    };
  }

  const KernelRun& original(size_t k) {
    std::once_flag* flag;
    {
      std::lock_guard<std::mutex> g(lock);
      auto& f = once[k];
      if (!f) f = std::make_unique<std::once_flag>();
      flag = f.get();
    }
    std::call_once(*flag, [&] {
      check::RunOptions r = run;
      r.rewritePlan = rewrite(k);
      KernelRun kr = runKernel(jobs, originalPath, r, "");
      kr.digests.clear();
      std::lock_guard<std::mutex> g(lock);
      originals[k] = std::move(kr);
    });
    std::lock_guard<std::mutex> g(lock);
    return originals[k];
  }
};

Suggester::Suggester(const std::vector<check::Job>& jobs, const check::RunOptions& run, const std::string& originalPath,
                     Naming naming)
    : s_(std::make_unique<State>()) {
  s_->naming = naming;
  if (jobs.empty()) return;
  s_->jobs = {jobs.front()};
  s_->run = run;
  s_->originalPath = originalPath;
  plan::Options po;
  po.seed = run.seed;
  po.problemDims = run.problemDims;
  plan::Plan reference = plan::makePlan(*jobs.front().contract, po);
  s_->changes = planChanges(*jobs.front().contract, reference);
}

Suggester::~Suggester() = default;

size_t Suggester::changes() const { return s_->changes.size(); }

Suggestion Suggester::suggest(const std::string& mutantPath, const std::string& family) {
  Suggestion out;
  for (size_t k = 0; k < s_->changes.size(); ++k) {
    ++out.tried;
    check::RunOptions r = s_->run;
    r.rewritePlan = s_->rewrite(k);
    KernelRun m = runKernel(s_->jobs, mutantPath, r, family, s_->naming);
    if (!m.built || !m.killed) continue;
    const KernelRun& o = s_->original(k);
    if (!o.built || o.killed || o.cases == 0) continue;  // the change breaks the correct kernel too
    out.change = s_->changes[k].text;
    out.killedBy = m.killedBy;
    out.named = m.named;
    out.originalCases = o.cases;
    return out;
  }
  return out;
}

}  // namespace kc::mutate

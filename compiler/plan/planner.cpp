#include "compiler/plan/planner.h"

#include <algorithm>
#include <string>

#include "compiler/plan/index_width.h"
#include "compiler/plan/planner_parts.h"
#include "stdlib/numerics/dtype.h"

namespace kc::plan {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

namespace {

using namespace detail;

// The order of the parts (planner_parts.h): each reads what the ones before it wrote.
class Planner : PlanState {
 public:
  using PlanState::PlanState;

  Plan run() {
    Plan& p = plan_;
    p.contract = c_.id;
    p.seed = o_.seed;
    p.maxCases = o_.maxCases;
    for (size_t i = 0; i < c_.post.size(); ++i)
      p.post.push_back(PostRef{i, c_.post[i].origin.id, c_.post[i].origin.fromClass, ir::print(*c_.post[i].expr)});
    if (!c_.kernel) return p;
    const sema::KernelInfo& k = *c_.kernel;
    p.kernel = k.name;
    DimsPlanner(*this).planDims(k);
    AlternativesPlanner alternatives(*this);
    alternatives.planDTypes(k);
    alternatives.planPerturb(k);
    for (const auto& t : k.tensors) p.tensors.push_back(alternatives.planTensor(t));
    alternatives.planEverywhere();
    std::vector<Case> cases = CoveragePlanner(*this).coverageCases();
    for (auto& gc : LargeIndexPlanner(*this).gridRowCases()) cases.push_back(std::move(gc));
    for (auto& lc : LargeIndexPlanner(*this).largeIndexCases()) cases.push_back(std::move(lc));
    leaveOutBreakingPre(cases);
    p.derived = cases.size();
    if (cases.size() > o_.maxCases) cases.resize(o_.maxCases);
    p.dropped = p.derived - cases.size();
    // Named cases are kept past the bound: the author asked for each one.
    std::vector<Case> named = LargeIndexPlanner(*this).explicitCases();
    if (!o_.problemDims.empty())
      for (auto& pc : LargeIndexPlanner(*this).casesAt(o_.problemDims, "problem")) named.push_back(std::move(pc));
    leaveOutBreakingPre(named);
    for (auto& nc : named) cases.push_back(std::move(nc));
    for (size_t n = 0; n < cases.size(); ++n) CaseFinisher(*this).finish(cases[n], n + 1);
    p.cases = std::move(cases);
    return p;
  }

  // The plan with its cases replaced by one friendly case (see friendlyPlan in planner.h).
  Plan friendly(size_t seeds) {
    run();
    Plan& p = plan_;  // measure() reads plan_'s tensors, so the contiguous layout goes there
    p.cases.clear();
    p.derived = p.dropped = 0;
    if (!c_.kernel) return p;
    Case c;
    c.why = "allclose";
    // A dim that is no shape entry of its own (a stride, padding or dilation) at its least
    // size, the default a hand-written test keeps; the others at a friendly size.
    for (const DimPlan& d : p.dims) c.dims.emplace_back(d.name, bareShapeEntry(d.name) ? friendlyValue(d) : leastSize(d));
    for (const DTypeVarPlan& v : p.dtypeVars) {
      auto wanted = std::find(v.allowed.begin(), v.allowed.end(), o_.friendlyDtype);
      c.dtypes.emplace_back(v.name, wanted != v.allowed.end() ? *wanted : v.allowed.empty() ? "f32" : v.allowed.front());
    }
    for (TensorPlan& t : p.tensors) {
      if (!t.scalar) c.layouts.emplace_back(t.name, indexOf(t.layouts, "contiguous", [](const Layout& l) { return l.text; },
                                                            Layout{"contiguous", "contiguous", 0, {}}));
      if (t.output) continue;
      std::string dt = dtypeOf(c, t);
      auto parsed = numerics::parseDType(dt);
      bool floating = !t.scalar && parsed && numerics::isFloat(*parsed);
      if (!floating) {  // index tensors and scalars keep the contract's first distribution
        c.values.emplace_back(t.name, 0);
        continue;
      }
      // The contract's own first plain distribution (what its author calls typical, and
      // what meets its precondition), else normal(0, 1).
      auto own = std::find_if(t.values.begin(), t.values.end(),
                              [&](const Distribution& d) { return !d.special && !d.constant && d.origin == c_.id; });
      if (own != t.values.end()) {
        c.values.emplace_back(t.name, static_cast<size_t>(own - t.values.begin()));
        continue;
      }
      Distribution normal;
      normal.text = "normal(0, 1)";
      normal.value.kind = VK::Call;
      normal.value.name = "normal";
      normal.origin = "allclose";
      c.values.emplace_back(t.name, indexOf(t.values, normal.text, [](const Distribution& d) { return d.text; }, normal));
    }
    measure(c);
    c.number = 1;
    c.id = c_.id + "#allclose";
    for (size_t j = 0; j < seeds; ++j) c.seeds.push_back(caseSeed(o_.seed, c.id, 1, j));
    c.repeats = 1;
    c.cells = Cells{};
    p.cases.push_back(std::move(c));
    p.derived = 1;
    return p;
  }

 private:
  // No input meets a precondition the case's dims already break: such a case is not made.
  void leaveOutBreakingPre(std::vector<Case>& cases) {
    size_t before = cases.size();
    cases.erase(std::remove_if(cases.begin(), cases.end(), [&](const Case& c) { return !dimsMayMeetPre(dimsEnv(c)); }),
                cases.end());
    plan_.breakingPre += before - cases.size();
  }

  // Where an alternative with this text sits in `list`; appended when missing.
  template <typename T, typename Text>
  static size_t indexOf(std::vector<T>& list, const std::string& text, Text textOf, T fallback) {
    for (size_t i = 0; i < list.size(); ++i)
      if (textOf(list[i]) == text) return i;
    list.push_back(std::move(fallback));
    return list.size() - 1;
  }
};

}  // namespace

// --- the model types ---------------------------------------------------------------------------

std::vector<std::string> alternativeOwners(const Plan& plan, const std::vector<std::string>& origins, bool isDefault) {
  if (isDefault) return {};
  for (const auto& o : origins)
    if (o == plan.contract || o == "default" ||
        std::find(plan.everywhere.begin(), plan.everywhere.end(), o) != plan.everywhere.end())
      return {};
  return origins;
}


std::string Cells::text() const {
  if (all) return "all";
  std::string s = sample > 0 ? "sample(" + std::to_string(sample) + ")" : "";
  if (boundary) s += (s.empty() ? "" : " + ") + std::string("boundary");
  return s;
}

const TensorPlan* Plan::tensor(const std::string& name) const {
  for (const auto& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

TensorPlan* Plan::tensor(const std::string& name) {
  return const_cast<TensorPlan*>(static_cast<const Plan&>(*this).tensor(name));
}

const DimPlan* Plan::dim(const std::string& name) const {
  for (const auto& d : dims)
    if (d.name == name) return &d;
  return nullptr;
}

// --- the pieces ------------------------------------------------------------------------------

uint64_t fnv1a64(const std::string& s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char b : s) {
    h ^= b;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t caseSeed(uint64_t base, const std::string& id, uint64_t number, uint64_t k) {
  return splitmix64(splitmix64(splitmix64(base ^ fnv1a64(id)) ^ number) ^ k);
}

std::string valueText(const ProtocolValue& v) { return v.str(); }

void remeasure(const sema::ContractInfo& contract, Plan& plan, Case& c) {
  Options options;
  PlanState(contract, options, plan).measure(c);
}

Plan makePlan(const sema::ContractInfo& contract, const Options& options) {
  Plan plan;
  return Planner(contract, options, plan).run();
}

std::vector<std::pair<std::string, int64_t>> largeIndexDims(const sema::ContractInfo& contract, const std::string& tensor,
                                                            int bits) {
  std::vector<std::pair<std::string, int64_t>> out;
  if (!contract.kernel) return out;
  const sema::TensorInfo* t = contract.kernel->tensor(tensor);
  if (!t) return out;
  Plan plan;
  Options options;
  PlanState s(contract, options, plan);
  DimsPlanner(s).planDims(*contract.kernel);
  std::optional<ir::IntEnv> env = LargeIndexPlanner(s).grow(*t, indexWidthLimit(bits));
  if (env)
    for (const auto& d : plan.dims) out.emplace_back(d.name, env->at(d.name));
  return out;
}

Plan friendlyPlan(const sema::ContractInfo& contract, const Options& options, size_t seeds) {
  Plan plan;
  return Planner(contract, options, plan).friendly(seeds);
}

std::vector<Plan> planProgram(const sema::Program& program, const std::vector<uint32_t>& files, const Options& options) {
  std::vector<Plan> out;
  for (const auto& c : program.contracts) {
    if (c->isClass) continue;
    if (std::find(files.begin(), files.end(), c->range.file) == files.end()) continue;
    out.push_back(makePlan(*c, options));
  }
  return out;
}

}  // namespace kc::plan

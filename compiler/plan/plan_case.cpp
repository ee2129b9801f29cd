// Per case: the questions every part asks (a dtype variable, a tensor's dtype and size, who
// owns an alternative, the memory a case needs) and the finish of a kept case (cells, seeds,
// repeats, postconditions, origins).
#include "compiler/plan/planner_parts.h"

#include <algorithm>
#include <set>

#include "compiler/plan/index_width.h"
#include "stdlib/numerics/dtype.h"

namespace kc::plan::detail {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

const DTypeVarPlan* PlanState::dtypeVar(const std::string& n) const {
  for (const auto& v : plan_.dtypeVars)
    if (v.name == n) return &v;
  return nullptr;
}

std::vector<std::string> PlanState::owners(const std::vector<std::string>& origins, bool isDefault) const {
  return alternativeOwners(plan_, origins, isDefault);
}

uint64_t PlanState::bytesOf(const std::string& dtype) {
  auto d = numerics::parseDType(dtype);
  return d ? static_cast<uint64_t>(numerics::sizeBytes(*d)) : 0;
}

std::string PlanState::dtypeOf(const Case& c, const TensorPlan& t) const {
  if (!t.dtypeIsVar) return t.dtype;
  for (const auto& [v, d] : c.dtypes)
    if (v == t.dtype) return d;
  return "";
}

uint64_t PlanState::elements(const sema::TensorInfo& t, const ir::IntEnv& env) const {
  uint64_t n = 1;
  for (const auto& e : t.shape) {
    std::optional<int64_t> v = ir::evalInt(*e, env);
    if (!v) return kU64Max;
    n = satMul(n, *v < 0 ? 0 : static_cast<uint64_t>(*v));
  }
  return n;
}

ir::IntEnv PlanState::dimsEnv(const Case& c) {
  ir::IntEnv env;
  for (const auto& [n, v] : c.dims) env[n] = v;
  return env;
}

bool PlanState::dimsMayMeetPre(const ir::IntEnv& env) const {
  for (const auto& pre : c_.pre)
    if (ir::evalCond(*pre.expr, env) == false) return false;
  return true;
}

void PlanState::measure(Case& c) const {
  ir::IntEnv env = dimsEnv(c);
  c.memoryBytes = 0;
  c.maxElements = 0;
  c.outputCells = 0;
  uint64_t span = 0;
  const sema::KernelInfo& k = *c_.kernel;
  for (size_t i = 0; i < k.tensors.size(); ++i) {
    const sema::TensorInfo& t = k.tensors[i];
    const TensorPlan& tp = plan_.tensors[i];
    uint64_t n = elements(t, env);
    uint64_t storage = n;
    if (!tp.scalar) {
      const Layout* l = nullptr;
      for (const auto& [name, a] : c.layouts)
        if (name == t.name) l = &tp.layouts[a];
      std::optional<int64_t> last = ir::evalInt(*t.shape.back(), env);
      uint64_t lastN = last && *last > 0 ? static_cast<uint64_t>(*last) : 0;
      uint64_t rows = lastN ? n / lastN : 0;
      uint64_t extra = l && l->n > 0 ? static_cast<uint64_t>(l->n) : 0;
      if (l && l->kind == "padded") storage = satMul(rows, satAdd(lastN, extra));
      if (l && l->kind == "offset") storage = satAdd(n, extra);
      if (l && l->kind == "step" && lastN) storage = satMul(rows, satAdd(satMul(lastN - 1, std::max<uint64_t>(extra, 1)), 1));
      if (n == kU64Max) storage = kU64Max;
    }
    c.memoryBytes = satAdd(c.memoryBytes, satMul(storage, bytesOf(dtypeOf(c, tp))));
    c.maxElements = std::max(c.maxElements, n);
    span = std::max(span, storage);
    if (t.output) c.outputCells = std::max(c.outputCells, n);
  }
  c.largeIndex = passesIndexWidth(span, 32) ? 32 : passesIndexWidth(span, 31) ? 31 : 0;
}

Cells CaseFinisher::cellsFor(const Case& c) const {
  Cells def;
  if (c.outputCells > kAllCellsMax) def = Cells{false, kDefaultSample, true};
  const auto& pc = c_.protocol.cells;
  if (pc.empty() || c.largeIndex) return def;  // large-index cases always sample
  Cells out{false, 0, false};
  for (const auto& v : pc) {
    if (v.name == "all") return Cells{};
    if (v.name == "boundary") out.boundary = true;
    if (v.name == "sample") {
      int64_t n = kDefaultSample;
      if (v.kind == VK::Call && !v.args.empty() && !v.args[0].second.empty() && v.args[0].second[0].kind == VK::Int)
        n = v.args[0].second[0].i;
      out.sample = std::max(out.sample, n);
      out.boundary = true;  // a sample always comes with the boundary cells
    }
  }
  if (out.sample == 0 && !out.boundary) return def;
  return out;
}

void CaseFinisher::finish(Case& c, size_t number) const {
  c.number = number;
  c.id = c_.id + "#" + std::to_string(number);
  const auto& s = c_.protocol.seeds;
  if (s.size() >= 2) {
    for (const auto& v : s) c.seeds.push_back(static_cast<uint64_t>(v.i));
  } else {
    int64_t n = s.size() == 1 ? std::max<int64_t>(1, s[0].i) : 1;
    for (int64_t j = 0; j < n; ++j) c.seeds.push_back(caseSeed(o_.seed, c_.id, number, static_cast<uint64_t>(j)));
  }
  c.repeats = 1;
  for (const auto& v : c_.protocol.repeats)
    if (v.kind == VK::Int) c.repeats = std::max(c.repeats, v.i);
  c.cells = cellsFor(c);
  choosePosts(c);
  c.origins = caseOrigins(c);
}

std::vector<std::string> CaseFinisher::caseOrigins(const Case& c) const {
  std::set<std::string> asked;
  auto take = [&](const std::vector<std::string>& os, bool isDefault) {
    if (!isDefault) asked.insert(os.begin(), os.end());
  };
  for (const auto& [name, a] : c.values) take(plan_.tensor(name)->values[a].origins, false);
  for (const auto& [name, a] : c.layouts) {
    const Layout& l = plan_.tensor(name)->layouts[a];
    take(l.origins, l.kind == "contiguous");
  }
  for (const auto& x : plan_.perturb)
    if (x.text == c.perturb) take(x.origins, x.text == backend::perturb::kNone);
  if (c.why == "large-index") asked.insert(kIndexWidthClass);
  std::vector<std::string> out;
  for (const auto& id : c_.applies)
    if (asked.count(id)) out.push_back(id);
  if (out.empty()) out.push_back(c_.id);
  return out;
}

void addOrigin(std::vector<std::string>& list, const std::string& id) {
  if (std::find(list.begin(), list.end(), id) == list.end()) list.push_back(id);
}

bool PlanState::bareShapeEntry(const std::string& dim) const { return isExtent(c_, dim); }

int64_t PlanState::leastSize(const DimPlan& d) const {
  if (d.lo == 0 && !bareShapeEntry(d.name)) return 0;
  for (int64_t x : d.candidates)
    if (x >= 1) return x;
  return std::min(std::max<int64_t>(d.lo, 1), d.hi);
}

}  // namespace kc::plan::detail

namespace kc::plan {

bool isExtent(const sema::ContractInfo& c, const std::string& dim) {
  for (const auto& t : c.kernel->tensors)
    for (const auto& e : t.shape)
      if (e->op == ir::Op::Dim && e->name == dim) return true;
  return false;
}

}  // namespace kc::plan

// What a case varies besides its dims: the dtype variables' dtypes (scope-narrowed), the
// perturbations, each tensor's distributions and layouts, and the classes that ask for every case.
#include "compiler/plan/planner_parts.h"

#include <algorithm>

#include "compiler/plan/batch.h"
#include "compiler/plan/index_width.h"
#include "stdlib/numerics/dtype.h"

namespace kc::plan::detail {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

void AlternativesPlanner::planDTypes(const sema::KernelInfo& k) {
  for (const auto& v : k.dtypeVars) {
    DTypeVarPlan dv{v.name, v.allowed};
    auto it = c_.scope.dtypes.find(v.name);
    if (it != c_.scope.dtypes.end() && !it->second.empty()) dv.allowed = it->second;
    plan_.dtypeVars.push_back(std::move(dv));
  }
}

void AlternativesPlanner::planPerturb(const sema::KernelInfo& k) {
  for (const auto& b : c_.protocol.perturb)
    for (const auto& v : b.values) {
      std::string t = valueText(v);
      if (t == backend::perturb::kSubBatch && !batchDim(k)) continue;  // no batch dimension to slice (plan/batch.h)
      auto it = std::find_if(plan_.perturb.begin(), plan_.perturb.end(), [&](const Perturbation& x) { return x.text == t; });
      if (it == plan_.perturb.end()) it = plan_.perturb.insert(plan_.perturb.end(), Perturbation{t, {}});
      addOrigin(it->origins, b.origin.id);
    }
  if (plan_.perturb.empty()) plan_.perturb.push_back(Perturbation{backend::perturb::kNone, {}});
}

void AlternativesPlanner::planEverywhere() {
  for (const std::string& id : c_.applies) {
    // Its cases are the large-index ones (CaseFinisher::caseOrigins): an unwritten cell of
    // an ordinary case is not an index overflow.
    if (id == kIndexWidthClass) continue;
    bool caseWide = std::any_of(c_.protocol.caseWide.begin(), c_.protocol.caseWide.end(),
                                [&](const sema::Origin& o) { return o.id == id; });
    auto mine = [&](const std::vector<sema::ProtocolBinding>& bs) {
      return std::any_of(bs.begin(), bs.end(), [&](const sema::ProtocolBinding& b) { return b.origin.id == id; });
    };
    if (caseWide || !(mine(c_.protocol.values) || mine(c_.protocol.layouts) || mine(c_.protocol.perturb)))
      plan_.everywhere.push_back(id);
  }
}

bool AlternativesPlanner::integerDType(const std::string& name) {
  auto d = numerics::parseDType(name);
  return d && (numerics::isInteger(*d) || *d == numerics::DType::Bool);
}

// A tensor's distributions (inputs; the plain ones, then the special ones) and layouts.
TensorPlan AlternativesPlanner::planTensor(const sema::TensorInfo& t) {
  TensorPlan tp;
  tp.name = t.name;
  tp.output = t.output;
  tp.scalar = t.shape.empty();
  tp.dtype = t.dtype;
  tp.dtypeIsVar = t.dtypeIsVar;
  auto applies = [&](const std::string& target) { return target == t.name || (target == "*" && !tp.scalar); };
  // `values * ~ ...` (a class's distributions, NaN among them) reaches the inputs that can
  // hold them: not a bool or integer tensor of a fixed dtype, such as a mask or an index
  // (docs/language.md, "values").
  bool fixedInteger = !t.dtypeIsVar && integerDType(t.dtype);
  auto valuesApply = [&](const std::string& target) { return target == t.name || (target == "*" && !tp.scalar && !fixedInteger); };
  if (!t.output) {
    std::vector<Distribution> specials;
    for (const auto& b : c_.protocol.values) {
      if (!valuesApply(b.target)) continue;
      for (const auto& v : b.values) {
        Distribution d;
        d.text = valueText(v);
        d.value = v;
        d.origin = b.origin.id;
        d.origins = {b.origin.id};
        d.special = isSpecial(v);
        d.constant = v.kind == VK::Int || v.kind == VK::Real;
        auto& list = d.special ? specials : tp.values;
        auto same = std::find_if(list.begin(), list.end(), [&](const Distribution& x) { return x.text == d.text; });
        if (same == list.end()) list.push_back(std::move(d));
        else addOrigin(same->origins, b.origin.id);
      }
    }
    if (tp.values.empty()) {
      // No distribution of its own: normal(0, 1), or small integers for an integer dtype.
      Distribution d;
      bool ints = !t.dtypeIsVar && integerDType(t.dtype);
      d.value.kind = ints ? VK::Name : VK::Call;
      d.value.name = ints ? "small_ints" : "normal";
      if (!ints)
        for (int64_t a : {0, 1}) {
          ProtocolValue num;
          num.kind = VK::Int;
          num.i = a;
          d.value.args.emplace_back("", std::vector<ProtocolValue>{num});
        }
      d.text = valueText(d.value);
      d.origin = "default";
      tp.values.push_back(std::move(d));
    }
    appendSpecials(tp, specials);
  }
  if (!tp.scalar) {
    for (const auto& b : c_.protocol.layouts) {
      if (!applies(b.target)) continue;
      for (const auto& v : b.values) {
        Layout l;
        l.text = valueText(v);
        l.kind = v.name;
        if (v.kind == VK::Call && !v.args.empty() && !v.args[0].second.empty() && v.args[0].second[0].kind == VK::Int)
          l.n = v.args[0].second[0].i;
        if (l.kind == "transposed" && t.rank() == 0) continue;  // nothing to transpose
        if (l.kind == "transposed" && t.rank() == 1) {
          // A vector has nothing to transpose, and padding after its one row leaves its
          // stride 1: its non-unit stride is step(2), every other element. (No reversed
          // view: strides are positive in the ABI, as in PyTorch.)
          l.text = "step(2)", l.kind = "step", l.n = 2;
        }
        l.origins = {b.origin.id};
        auto same = std::find_if(tp.layouts.begin(), tp.layouts.end(), [&](const Layout& x) { return x.text == l.text; });
        if (same == tp.layouts.end()) tp.layouts.push_back(std::move(l));
        else addOrigin(same->origins, b.origin.id);
      }
    }
    if (tp.layouts.empty()) tp.layouts.push_back(Layout{"contiguous", "contiguous", 0, {}});
  }
  return tp;
}

}  // namespace kc::plan::detail

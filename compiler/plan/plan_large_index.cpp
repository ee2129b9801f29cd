// Large-index cases: for a tensor that can pass 2^31 elements, the smallest shapes past 2^31
// and 2^32 (int32 and uint32 index overflow), at the narrowest dtype and contiguous layouts.
#include "compiler/plan/planner_parts.h"

#include <algorithm>

namespace kc::plan::detail {

// Dims at the smallest value whose tensor `t` has more than `target` elements, growing the
// dims of t with the largest range first; nullopt when t cannot get that large.
std::optional<ir::IntEnv> LargeIndexPlanner::grow(const sema::TensorInfo& t, uint64_t target) const {
  ir::IntEnv env;
  for (const auto& d : plan_.dims) {
    int64_t v = std::min(std::max<int64_t>(d.lo, 1), d.hi);
    for (int64_t x : d.candidates)
      if (x >= 1) {
        v = x;
        break;
      }
    env[d.name] = v;
  }
  std::vector<const DimPlan*> dims;  // of this tensor, in kernel order
  for (const auto& d : plan_.dims) {
    bool used = false;
    for (const auto& e : t.shape)
      ir::walk(*e, [&](const ir::Node& n) { used = used || (n.op == ir::Op::Dim && n.name == d.name); });
    if (used) dims.push_back(&d);
  }
  std::stable_sort(dims.begin(), dims.end(),
                   [](const DimPlan* a, const DimPlan* b) { return a->hi - a->lo > b->hi - b->lo; });
  for (const DimPlan* d : dims) {
    int64_t from = env[d->name];
    env[d->name] = d->hi;
    if (elements(t, env) <= target) continue;
    if (!d->allowed.empty()) {  // only declared sizes: the smallest one that is large enough
      for (int64_t v : d->allowed) {
        if (v < from) continue;
        env[d->name] = v;
        if (elements(t, env) > target) return env;
      }
      continue;
    }
    int64_t lo = from, hi = d->hi;  // count(lo) <= target < count(hi), unless lo already exceeds
    env[d->name] = lo;
    if (elements(t, env) > target) return env;
    while (hi - lo > 1) {
      int64_t mid = lo + (hi - lo) / 2;
      env[d->name] = mid;
      (elements(t, env) > target ? hi : lo) = mid;
    }
    env[d->name] = hi;
    return env;
  }
  return std::nullopt;
}

std::vector<Case> LargeIndexPlanner::largeIndexCases() {
  std::vector<Case> out;
  const sema::KernelInfo& k = *c_.kernel;
  ir::IntEnv maxEnv;
  for (const auto& d : plan_.dims) maxEnv[d.name] = d.hi;
  for (const auto& t : k.tensors) {
    if (t.shape.empty()) continue;
    uint64_t atMax = elements(t, maxEnv);
    if (atMax < kTwo31) continue;
    for (uint64_t target : {kTwo31, kTwo32}) {
      std::optional<ir::IntEnv> env = grow(t, target);
      if (!env && target == kTwo31) env = maxEnv;  // exactly 2^31 at the maxima
      if (!env) continue;
      Case c;
      for (const auto& d : plan_.dims) {
        int64_t v = env->at(d.name);
        c.dims.emplace_back(d.name, v);
        if (d.isTail(v)) c.tail = true;
      }
      for (const auto& v : plan_.dtypeVars) {
        std::string best = v.allowed.empty() ? "" : v.allowed[0];
        for (const auto& a : v.allowed)
          if (bytesOf(a) < bytesOf(best)) best = a;
        c.dtypes.emplace_back(v.name, best);
      }
      for (const auto& tp : plan_.tensors) {
        if (!tp.output) c.values.emplace_back(tp.name, 0);  // the first distribution: never a special one
        if (tp.scalar) continue;
        size_t l = 0;
        for (size_t i = 0; i < tp.layouts.size(); ++i)
          if (tp.layouts[i].kind == "contiguous") {
            l = i;
            break;
          }
        c.layouts.emplace_back(tp.name, l);
      }
      c.perturb = backend::perturb::kNone;  // a perturbation that is not a second run of this huge case
      for (const auto& x : plan_.perturb)
        if (x.text != backend::perturb::kSubBatch) {
          c.perturb = x.text;
          break;
        }
      c.why = "large-index";
      measure(c);
      auto same = [&](const Case& x) { return x.dims == c.dims; };
      if (std::none_of(out.begin(), out.end(), same)) out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace kc::plan::detail

// Large-index cases: for a tensor that can hold an index a 32-bit signed (unsigned) index
// cannot (more than 2^31, 2^32 elements: index_width.h), the smallest shape past it, at
// contiguous layouts, once per dtype the kernel takes. Large dims are varied one at a time:
// the grown tensor's other dims stay at their smallest candidates, so no case takes every
// dim at its range's end (a case that must stay within one device's memory).
#include "compiler/plan/planner_parts.h"

#include <algorithm>

#include "compiler/plan/batch.h"
#include "compiler/plan/index_width.h"

namespace kc::plan::detail {

namespace {

// The smallest value of `d` from `from` on at which `count` passes `target`, given that it
// does at d's largest value; the declared sizes only when the kernel declares a set.
template <typename Count>
std::optional<int64_t> smallestPast(const DimPlan& d, int64_t from, uint64_t target, Count count) {
  if (!d.allowed.empty()) {
    for (int64_t v : d.allowed)
      if (v >= from && count(v) > target) return v;
    return std::nullopt;
  }
  if (count(d.hi) <= target) return std::nullopt;
  if (count(from) > target) return from;
  int64_t lo = from, hi = d.hi;  // count(lo) <= target < count(hi)
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (count(mid) > target ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

// Dims at which tensor `t` just passes `target` elements; nullopt when it cannot. First one
// dim of t grown alone (the others at their smallest candidates), the one that needs the
// fewest elements in all; when no dim alone reaches it, dims are grown in turn up to the one
// that crosses, and then each earlier one is shrunk back to the smallest value that still
// passes (the order that needs the fewest elements in all).
std::optional<ir::IntEnv> LargeIndexPlanner::grow(const sema::TensorInfo& t, uint64_t target) const {
  ir::IntEnv base;
  for (const auto& d : plan_.dims) base[d.name] = leastSize(d);
  std::vector<const DimPlan*> dims;  // of this tensor, in kernel order
  for (const auto& d : plan_.dims) {
    bool used = false;
    for (const auto& e : t.shape)
      ir::walk(*e, [&](const ir::Node& n) { used = used || (n.op == ir::Op::Dim && n.name == d.name); });
    if (used) dims.push_back(&d);
  }
  // A tensor grows through its extents, not through a stride, padding, dilation or group
  // count (dims that are no shape entry of their own): a padding of 1024 makes a large output
  // of zeros, not a large problem. Those stay at their least size when any extent can grow.
  std::vector<const DimPlan*> extents;
  for (const DimPlan* d : dims)
    if (bareShapeEntry(d->name)) extents.push_back(d);
  if (!extents.empty()) dims = std::move(extents);
  std::stable_sort(dims.begin(), dims.end(),
                   [](const DimPlan* a, const DimPlan* b) { return a->hi - a->lo > b->hi - b->lo; });
  auto total = [&](const ir::IntEnv& env) {  // every tensor's elements: the case's size
    uint64_t n = 0;
    for (const auto& x : c_.kernel->tensors) n = satAdd(n, elements(x, env));
    return n;
  };
  std::optional<ir::IntEnv> best;
  for (const DimPlan* d : dims) {  // one dim alone
    ir::IntEnv env = base;
    auto count = [&](int64_t v) {
      env[d->name] = v;
      return elements(t, env);
    };
    std::optional<int64_t> v = smallestPast(*d, base[d->name], target, count);
    if (!v) continue;
    env[d->name] = *v;
    if (!best || total(env) < total(*best)) best = env;
  }
  if (best) return best;
  // Dims in turn, in every order, keeping the smallest case: the order decides which other
  // tensors grow with it (an embedding's table grows with D, not N). Past kEveryOrderDims dims
  // (a tensor of rank 7 or more: 7! orders and up) every order would be too many: each dim
  // first, the others in the order above.
  std::vector<std::vector<size_t>> orders;
  std::vector<size_t> order(dims.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (dims.size() <= kEveryOrderDims) {
    do orders.push_back(order);
    while (std::next_permutation(order.begin(), order.end()));
  } else {
    for (size_t first = 0; first < dims.size(); ++first) {
      std::vector<size_t> o{first};
      for (size_t i = 0; i < dims.size(); ++i)
        if (i != first) o.push_back(i);
      orders.push_back(std::move(o));
    }
  }
  for (const auto& order : orders) {
    ir::IntEnv env = base;
    std::vector<const DimPlan*> grown;
    for (size_t i : order) {
      const DimPlan* d = dims[i];
      auto count = [&](int64_t v) {
        env[d->name] = v;
        return elements(t, env);
      };
      std::optional<int64_t> v = smallestPast(*d, base[d->name], target, count);
      if (!v) {
        env[d->name] = d->allowed.empty() ? d->hi : d->allowed.back();
        grown.push_back(d);
        continue;
      }
      env[d->name] = *v;
      for (const DimPlan* g : grown) {  // back down, each to the smallest value that still passes
        auto again = [&](int64_t x) {
          env[g->name] = x;
          return elements(t, env);
        };
        env[g->name] = *smallestPast(*g, base[g->name], target, again);
      }
      if (!best || total(env) < total(*best)) best = env;
      break;
    }
  }
  return best;
}

// The dtypes of a large-index or grid-row case: each dtype variable's alternatives in turn,
// the other variables at their narrowest (an index that wraps at 2^31 elements wraps at every
// element size, but an f32 kernel is not the bf16 kernel).
std::vector<std::vector<std::pair<std::string, std::string>>> LargeIndexPlanner::dtypeChoices() const {
  std::vector<std::vector<std::pair<std::string, std::string>>> dtypeChoices;
  std::vector<std::pair<std::string, std::string>> narrowest;
  for (const auto& v : plan_.dtypeVars) {
    std::string best = v.allowed.empty() ? "" : v.allowed[0];
    for (const auto& a : v.allowed)
      if (bytesOf(a) < bytesOf(best)) best = a;
    narrowest.emplace_back(v.name, best);
  }
  dtypeChoices.push_back(narrowest);
  for (size_t i = 0; i < plan_.dtypeVars.size(); ++i)
    for (const auto& a : plan_.dtypeVars[i].allowed) {
      auto choice = narrowest;
      choice[i].second = a;
      if (std::find(dtypeChoices.begin(), dtypeChoices.end(), choice) == dtypeChoices.end())
        dtypeChoices.push_back(choice);
    }
  return dtypeChoices;
}

// Every input at its first distribution (never a special one) and every tensor at its
// contiguous layout (the first layout when it has none).
void LargeIndexPlanner::plainInputs(Case& c) const {
  for (const auto& tp : plan_.tensors) {
    if (!tp.output) c.values.emplace_back(tp.name, 0);
    if (tp.scalar) continue;
    size_t l = 0;
    for (size_t i = 0; i < tp.layouts.size(); ++i)
      if (tp.layouts[i].kind == "contiguous") {
        l = i;
        break;
      }
    c.layouts.emplace_back(tp.name, l);
  }
}

std::vector<Case> LargeIndexPlanner::largeIndexCases() {
  std::vector<Case> out;
  const sema::KernelInfo& k = *c_.kernel;
  const auto choices = dtypeChoices();
  for (const auto& t : k.tensors) {
    if (t.shape.empty()) continue;
    for (int bits : {31, 32}) {
      std::optional<ir::IntEnv> env = grow(t, indexWidthLimit(bits));
      if (!env) continue;
      for (const auto& dtypes : choices) {
        Case c;
        for (const auto& d : plan_.dims) {
          int64_t v = env->at(d.name);
          c.dims.emplace_back(d.name, v);
          if (d.isTail(v)) c.tail = true;
        }
        c.dtypes = dtypes;
        plainInputs(c);
        c.perturb = backend::perturb::kNone;  // a perturbation that is not a second run of this huge case
        for (const auto& x : plan_.perturb)
          if (x.text != backend::perturb::kSubBatch) {
            c.perturb = x.text;
            break;
          }
        c.why = "large-index";
        measure(c);
        auto same = [&](const Case& x) { return x.dims == c.dims && x.dtypes == c.dtypes; };
        if (std::none_of(out.begin(), out.end(), same)) out.push_back(std::move(c));
      }
    }
  }
  return out;
}

// The grid-row case: CUDA's grid y and z stop at 65,535 blocks, so a kernel that launches one
// block per row in y fails to launch past it (an error it may ignore: the rows stay
// unwritten). One case per dtype puts the kernel's row dim (the first dim of its first output,
// plan/batch.h) at 65,537 = 2^16 + 1, past the limit and not a multiple of any power of two
// tile, with the other dims small, so the case costs megabytes: the first of them at a friendly
// size of at most kGridRowLength = 32, every later one at its smallest size (a bmm's rows are
// 32 x 1 x 1, not 32 x 32 x 32: 65,537 of those would be hundreds of MiB and, on the host, a
// minute of oracle). Planned here rather than in a protocol's dims, whose values would be
// paired with every value of the other dims.
std::vector<Case> LargeIndexPlanner::gridRowCases() {
  const sema::KernelInfo& k = *c_.kernel;
  std::optional<std::string> rows = batchDim(k);
  if (!rows) return {};
  const DimPlan* rd = plan_.dim(*rows);
  if (!rd) return {};
  int64_t v = kGridRows;
  if (!rd->allowed.empty()) {
    auto it = std::lower_bound(rd->allowed.begin(), rd->allowed.end(), int64_t{65536});
    if (it == rd->allowed.end()) return {};
    v = *it;
  }
  if (v < rd->lo || v > rd->hi) return {};
  Case c;
  bool firstOther = true;
  for (const auto& d : plan_.dims) {
    int64_t x = v;
    if (d.name != *rows) {
      // Never below the least size (leastSize): a dim the contract's values depend on
      // (embedding's V, whose indices go up to 99) keeps the sizes those values fit, and a
      // padding stays 0.
      const int64_t least = leastSize(d);
      x = firstOther ? std::max<int64_t>(std::min<int64_t>(friendlyValue(d), kGridRowLength), least) : least;
      firstOther = false;
      x = std::clamp(x, std::min(least, std::max<int64_t>(d.lo, 1)), d.hi);
      if (!d.allowed.empty()) x = d.allowed.front();
    }
    c.dims.emplace_back(d.name, x);
    if (d.isTail(x)) c.tail = true;
  }
  plainInputs(c);
  c.perturb = backend::perturb::kNone;
  c.why = "grid-rows";
  std::vector<Case> out;
  for (const auto& dtypes : dtypeChoices()) {  // at every dtype: cheap, and each dtype is its own kernel
    Case x = c;
    x.dtypes = dtypes;
    measure(x);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace kc::plan::detail

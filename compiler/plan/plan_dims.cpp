// The planner's dims: each dim's candidate values, from its (scope-narrowed) range and the
// protocol's `dims` bindings (boundary(...) around the declared tiles), and a friendly size.
#include "compiler/plan/planner_parts.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>

namespace kc::plan::detail {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

namespace {

// Primes added by boundary(...) when inside the range and below twice the largest tile:
// shapes of several full tiles and a ragged one that no power-of-two tiling divides.
constexpr int64_t kBoundaryPrimes[] = {97, 1009, 10007};
constexpr int64_t kDefaultDimValues[] = {7, 64, 1000};  // with the range's low end

}  // namespace

void DimsPlanner::planDims(const sema::KernelInfo& k) {
  for (const auto& d : k.dims) {
    sema::DimInfo range = d;
    bool narrowed = false;
    for (const auto& sd : c_.scope.dims) {
      if (sd.name != d.name) continue;
      range.lo = sd.lo;
      range.hi = sd.hi;
      range.declared = true;
      narrowed = true;
    }
    std::vector<const sema::ProtocolBinding*> bindings;
    for (const auto& b : c_.protocol.dims)
      if (b.target == d.name) bindings.push_back(&b);
    plan_.dims.push_back(dimCandidates(range, narrowed, bindings));
  }
}

// A size a hand-written test would pick: a multiple of every declared tile (so no tile is
// partial), else 64; inside the dim's range, and one of its values when it declares a set.
int64_t friendlyValue(const DimPlan& d) {
  int64_t v = 64;
  if (!d.tiles.empty()) {
    v = 1;
    for (int64_t t : d.tiles) {
      v = std::lcm(v, t);
      if (v > 4096) break;
    }
    if (v > 4096) v = d.tiles.back();
  }
  v = std::clamp(v, d.lo, d.hi);
  if (!d.allowed.empty()) {
    int64_t best = d.allowed.front();
    for (int64_t a : d.allowed)
      if (std::llabs(a - v) < std::llabs(best - v)) best = a;
    v = best;
  }
  return v;
}

}  // namespace kc::plan::detail

namespace kc::plan {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;
using namespace detail;

// --- public (planner.h, plan.h) ---

bool DimPlan::isTail(int64_t v) const {
  if (tiles.empty()) return false;
  for (int64_t t : tiles)
    if (t > 0 && v % t == 0) return false;
  return true;
}


DimPlan dimCandidates(const sema::DimInfo& range, bool narrowed,
                      const std::vector<const sema::ProtocolBinding*>& bindings) {
  DimPlan p;
  p.name = range.name;
  p.lo = range.lo;
  p.hi = range.hi;
  p.declared = range.declared || narrowed;
  p.narrowed = narrowed;
  p.allowed = range.allowed;
  std::map<int64_t, bool> values;  // value -> produced by boundary(...)
  auto add = [&](int64_t v, bool boundary) {
    if (v < p.lo || v > p.hi) return;  // outside the range: dropped
    // A kernel that declares a set of sizes is held only to those sizes.
    if (!p.allowed.empty() && !std::binary_search(p.allowed.begin(), p.allowed.end(), v)) return;
    auto [it, inserted] = values.emplace(v, boundary);
    if (!inserted && boundary) it->second = true;
  };
  for (const auto* b : bindings) {
    for (const auto& v : b->values) {
      switch (v.kind) {
        case VK::Int: add(v.i, false); break;
        case VK::Range:
          if (v.hi >= v.i && static_cast<uint64_t>(v.hi) - static_cast<uint64_t>(v.i) < 16) {
            for (int64_t x = v.i; x <= v.hi; ++x) add(x, false);
          } else {
            add(v.i, false);
            add(v.hi, false);
            add(v.i + (v.hi - v.i) / 2, false);
          }
          break;
        case VK::Call: {
          if (v.name != "boundary") break;
          std::vector<int64_t> tiles, steps;
          for (const auto& [name, vals] : v.args)
            for (const auto& x : vals) {
              if (x.kind != VK::Int || x.i <= 0) continue;
              if (name.empty() || name == "tiles") tiles.push_back(x.i);
              if (name == "step") steps.push_back(x.i);
            }
          if (steps.empty()) steps.push_back(1);
          for (int64_t t : tiles) {
            add(t, true);
            for (int64_t s : steps) {
              add(t - s, true);
              add(t + s, true);
            }
            p.tiles.push_back(t);
          }
          add(1, true);
          int64_t maxTile = tiles.empty() ? 0 : *std::max_element(tiles.begin(), tiles.end());
          for (int64_t prime : kBoundaryPrimes)
            if (prime < 2 * maxTile) add(prime, true);
          add(p.lo, true);
          if (p.declared) add(p.hi, true);
          break;
        }
        default: break;
      }
    }
  }
  p.fromProtocol = !values.empty();
  if (values.empty()) {
    add(p.lo, false);
    for (int64_t v : kDefaultDimValues) add(v, false);
    for (int64_t v : p.allowed) add(v, false);  // every declared size, when a set was declared
  }
  std::sort(p.tiles.begin(), p.tiles.end());
  p.tiles.erase(std::unique(p.tiles.begin(), p.tiles.end()), p.tiles.end());
  for (const auto& [v, b] : values) {
    p.candidates.push_back(v);
    p.boundary.push_back(b);
  }
  return p;
}

}  // namespace kc::plan

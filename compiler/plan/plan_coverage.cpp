// The coverage cases: the pairwise tuples of the dims' values, the tail tuples first, each
// with alternatives of the other factors (plan_pairing.cpp), extra cases until every
// alternative met a tail tuple, and the sub_batch cases batch invariance needs.
#include "compiler/plan/planner_parts.h"

#include <algorithm>

#include "compiler/plan/batch.h"

namespace kc::plan::detail {

std::vector<Case> CoveragePlanner::coverageCases() {
  std::vector<size_t> sizes;
  for (const auto& d : plan_.dims) sizes.push_back(d.candidates.size());
  // Dims that break a precondition over dims only are never paired.
  TupleFilter mayHold = [&](const std::vector<size_t>& t) {
    ir::IntEnv env;
    for (size_t d = 0; d < t.size(); ++d)
      if (t[d] != kUnassigned) env[plan_.dims[d].name] = plan_.dims[d].candidates[t[d]];
    return dimsMayMeetPre(env);
  };
  std::vector<std::vector<size_t>> tuples = pairwiseTuples(sizes, c_.pre.empty() ? TupleFilter{} : mayHold);
  bool tiled = std::any_of(plan_.dims.begin(), plan_.dims.end(), [](const DimPlan& d) { return !d.tiles.empty(); });

  std::vector<Case> cases;
  std::vector<size_t> pool;  // the tuples every alternative must meet: the tail tuples
  for (const auto& t : tuples) {
    Case c;
    for (size_t d = 0; d < plan_.dims.size(); ++d) {
      int64_t v = plan_.dims[d].candidates[t[d]];
      c.dims.emplace_back(plan_.dims[d].name, v);
      if (plan_.dims[d].isTail(v)) c.tail = true;
    }
    bool boundary = false;
    for (size_t d = 0; d < plan_.dims.size(); ++d) boundary = boundary || plan_.dims[d].boundary[t[d]];
    c.why = boundary || c.tail ? "boundary" : "base";
    if (c.tail || !tiled) pool.push_back(cases.size());
    cases.push_back(std::move(c));
  }
  if (pool.empty())  // tiles declared but no tail shape in range: nothing more to ask
    for (size_t i = 0; i < cases.size(); ++i) pool.push_back(i);

  // The tail tuples first (in order), then the others; then, while some alternative has
  // not met a tail tuple, extra cases that repeat the tail tuples in order.
  std::vector<Factor> fs = factors();
  Greedy greedy(fs, plan_.dims.size());
  if (auto b = batchDim(*c_.kernel))
    for (size_t d = 0; d < plan_.dims.size(); ++d)
      if (plan_.dims[d].name == *b) greedy.batch = d;
  std::vector<bool> inPool(cases.size(), false);
  for (size_t i : pool) inPool[i] = true;
  for (size_t i : pool) assign(cases[i], fs, greedy.choose(cases[i], true).first);
  for (size_t i = 0; i < cases.size(); ++i)
    if (!inPool[i]) assign(cases[i], fs, greedy.choose(cases[i], false).first);
  std::vector<Case> extra;
  // A case that brings no alternative onto a tail case (sub_batch on a batch of one row)
  // is not kept; a whole round of the pool without one ends the search.
  for (size_t q = 0, idle = 0; !pool.empty() && !greedy.complete() && idle < pool.size(); ++q) {
    Case c;
    c.dims = cases[pool[q % pool.size()]].dims;
    c.tail = cases[pool[q % pool.size()]].tail;
    size_t before = greedy.seenOnTail();
    auto [alt, firstNew] = greedy.choose(c, true);
    if (greedy.seenOnTail() == before) {
      ++idle;
      continue;
    }
    idle = 0;
    assign(c, fs, alt);
    c.why = firstNew < fs.size() ? fs[firstNew].kind : "base";
    extra.push_back(std::move(c));
  }
  for (auto& c : extra) cases.push_back(std::move(c));
  addSubBatchCases(cases, fs);
  addFiniteCases(cases, fs);
  addJointSpecialCase(cases, fs);
  for (auto& c : cases) {
    measure(c);
    if (hasSpecial(c)) c.why = "special-values";
  }
  if (!cases.empty() && cases[0].why == "boundary" && !hasSpecial(cases[0])) cases[0].why = "base";
  return cases;
}

// Batch invariance needs batches of several sizes: every value of the batch dimension
// above 1 that no sub_batch case has gets one, at the largest case shape with that value,
// with neutral alternatives (the first of each factor that no class owns).
void CoveragePlanner::addSubBatchCases(std::vector<Case>& cases, const std::vector<Factor>& fs) const {
  size_t sub = plan_.perturb.size();
  for (size_t i = 0; i < plan_.perturb.size(); ++i)
    if (plan_.perturb[i].text == backend::perturb::kSubBatch) sub = i;
  std::optional<std::string> b = batchDim(*c_.kernel);
  if (sub == plan_.perturb.size() || !b) return;
  size_t bd = plan_.dims.size();
  for (size_t d = 0; d < plan_.dims.size(); ++d)
    if (plan_.dims[d].name == *b) bd = d;
  if (bd == plan_.dims.size()) return;
  for (int64_t v : plan_.dims[bd].candidates) {
    if (v < 2) continue;
    auto has = [&](const Case& c) { return c.dims[bd].second == v && c.perturb == backend::perturb::kSubBatch; };
    if (std::any_of(cases.begin(), cases.end(), has)) continue;
    // The largest shape with that batch: long reductions are where split-K pays off.
    auto size = [](const Case& c) {
      uint64_t n = 1;
      for (const auto& [name, x] : c.dims) n = satMul(n, static_cast<uint64_t>(std::max<int64_t>(x, 1)));
      return n;
    };
    auto first = cases.end();
    for (auto it = cases.begin(); it != cases.end(); ++it)
      if (it->dims[bd].second == v && (first == cases.end() || size(*it) > size(*first))) first = it;
    if (first == cases.end()) continue;
    Case c;
    c.dims = first->dims;
    c.tail = first->tail;
    std::vector<size_t> alt(fs.size(), 0);
    for (size_t f = 0; f < fs.size(); ++f) {
      if (fs[f].kind == "perturb") {
        alt[f] = sub;
        continue;
      }
      for (size_t a = 0; a < fs[f].size; ++a)
        if (fs[f].owners[a].empty()) {
          alt[f] = a;
          break;
        }
    }
    assign(c, fs, alt);
    c.why = "perturb";
    cases.push_back(std::move(c));
  }
}

// The first alternative of a factor that no class owns and that is ordinary (not special
// values, not a perturbation that needs a batch), else the first ordinary one; f.size when
// every alternative is special.
size_t CoveragePlanner::neutralAlternative(const Factor& f) const {
  auto ordinary = [&](size_t a) {
    if (f.kind == "distribution") return !plan_.tensor(f.target)->values[a].special;
    if (f.kind == "perturb") return !(a < f.needsBatch.size() && f.needsBatch[a]);
    return true;
  };
  for (size_t a = 0; a < f.size; ++a)
    if (f.owners[a].empty() && ordinary(a)) return a;
  for (size_t a = 0; a < f.size; ++a)
    if (ordinary(a)) return a;
  return f.size;
}

// Special values make most of an output NaN, which hides what a kernel does with ordinary
// values at that shape (a flash attention's rescale between key blocks shows only past the
// first block): every value of a dim that only special-values cases have gets one case of
// its own, at the largest shape with that value, on neutral alternatives without specials
// (the first of each factor that no class owns, as the sub_batch cases).
void CoveragePlanner::addFiniteCases(std::vector<Case>& cases, const std::vector<Factor>& fs) const {
  auto size = [](const Case& c) {
    uint64_t n = 1;
    for (const auto& [name, x] : c.dims) n = satMul(n, static_cast<uint64_t>(std::max<int64_t>(x, 1)));
    return n;
  };
  std::vector<size_t> alt(fs.size(), 0);
  for (size_t f = 0; f < fs.size(); ++f) {
    size_t pick = neutralAlternative(fs[f]);
    if (pick == fs[f].size) return;  // a factor with nothing but specials: no such case exists
    alt[f] = pick;
  }
  const size_t planned = cases.size();
  for (size_t d = 0; d < plan_.dims.size(); ++d)
    for (int64_t v : plan_.dims[d].candidates) {
      auto has = [&](const Case& c) { return c.dims[d].second == v; };
      if (std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return has(c) && !hasSpecial(c); })) continue;
      auto first = cases.begin() + static_cast<std::ptrdiff_t>(planned);
      for (auto it = cases.begin(); it != cases.begin() + static_cast<std::ptrdiff_t>(planned); ++it)
        if (has(*it) && (first == cases.begin() + static_cast<std::ptrdiff_t>(planned) || size(*it) > size(*first))) first = it;
      if (first == cases.begin() + static_cast<std::ptrdiff_t>(planned)) continue;
      Case c;
      c.dims = first->dims;
      c.tail = first->tail;
      assign(c, fs, alt);
      c.why = first->why == "boundary" || c.tail ? "boundary" : "base";
      cases.push_back(std::move(c));
    }
}

// Special values meet through products: a zero in one input beside a NaN in another
// (0 * NaN) shows only where both carry their specials, in a row that holds no NaN of its
// own (a matmul that skips a[i, k] == 0 swallows b's NaN). A row of one is the whole input,
// and it gets the NaN every special input is given: when no case has every special-capable
// input at a special distribution and every dim above 1, one is added, at the smallest such
// shape the plan has, with the other factors neutral.
void CoveragePlanner::addJointSpecialCase(std::vector<Case>& cases, const std::vector<Factor>& fs) const {
  std::vector<size_t> special(fs.size(), fs.size());  // per distribution factor: its first special alternative
  size_t carriers = 0;
  for (size_t f = 0; f < fs.size(); ++f) {
    if (fs[f].kind != "distribution") continue;
    const TensorPlan* t = plan_.tensor(fs[f].target);
    for (size_t a = 0; a < fs[f].size && special[f] == fs.size(); ++a)
      if (t->values[a].special) special[f] = a;
    carriers += special[f] != fs.size();
  }
  if (carriers < 2) return;
  auto allAbove1 = [](const Case& c) {
    return std::all_of(c.dims.begin(), c.dims.end(), [](const auto& d) { return d.second > 1; });
  };
  auto joint = [&](const Case& c) {
    for (size_t f = 0; f < fs.size(); ++f) {
      if (special[f] == fs.size()) continue;
      auto it = std::find_if(c.values.begin(), c.values.end(), [&](const auto& v) { return v.first == fs[f].target; });
      if (it == c.values.end() || !plan_.tensor(fs[f].target)->values[it->second].special) return false;
    }
    return true;
  };
  if (std::any_of(cases.begin(), cases.end(), [&](const Case& c) { return allAbove1(c) && joint(c); })) return;
  auto size = [](const Case& c) {
    uint64_t n = 1;
    for (const auto& [name, x] : c.dims) n = satMul(n, static_cast<uint64_t>(std::max<int64_t>(x, 1)));
    return n;
  };
  const Case* smallest = nullptr;
  for (const Case& c : cases)
    if (allAbove1(c) && c.largeIndex == 0 && (!smallest || size(c) < size(*smallest))) smallest = &c;
  if (!smallest) return;
  std::vector<size_t> alt(fs.size(), 0);
  for (size_t f = 0; f < fs.size(); ++f) {
    if (special[f] != fs.size()) {
      alt[f] = special[f];
      continue;
    }
    size_t pick = neutralAlternative(fs[f]);
    alt[f] = pick == fs[f].size ? 0 : pick;
  }
  Case c;
  c.dims = smallest->dims;
  c.tail = smallest->tail;
  assign(c, fs, alt);
  c.why = "special-values";
  cases.push_back(std::move(c));
}

}  // namespace kc::plan::detail

// Pairwise covering: the tuples of the dims' values that meet every pair of values of every
// two dims, and the greedy choice of every other factor's alternatives case by case.
#include "compiler/plan/planner_parts.h"

#include <algorithm>
#include <functional>

namespace kc::plan::detail {

std::vector<Factor> PairingPlanner::factors() const {
  std::vector<Factor> fs;
  for (const auto& v : plan_.dtypeVars) {
    size_t n = std::max<size_t>(1, v.allowed.size());
    fs.push_back({"dtype", v.name, n, std::vector<std::vector<std::string>>(n), {}});
  }
  for (const auto& t : plan_.tensors)
    if (!t.output) {
      Factor f{"distribution", t.name, t.values.size(), {}, {}};
      for (const auto& d : t.values) f.owners.push_back(owners(d.origins, false));
      fs.push_back(std::move(f));
    }
  for (const auto& t : plan_.tensors)
    if (!t.scalar) {
      Factor f{"layout", t.name, t.layouts.size(), {}, {}};
      for (const auto& l : t.layouts) f.owners.push_back(owners(l.origins, l.kind == "contiguous"));
      fs.push_back(std::move(f));
    }
  Factor pf{"perturb", "", plan_.perturb.size(), {}, {}};
  for (const auto& x : plan_.perturb) {
    pf.owners.push_back(owners(x.origins, x.text == backend::perturb::kNone));
    pf.needsBatch.push_back(x.text == backend::perturb::kSubBatch);
  }
  fs.push_back(std::move(pf));
  return fs;
}

void PairingPlanner::assign(Case& c, const std::vector<Factor>& fs, const std::vector<size_t>& alt) const {
  for (size_t f = 0; f < fs.size(); ++f) {
    size_t a = alt[f];
    const Factor& F = fs[f];
    if (F.kind == "dtype") {
      const auto* v = dtypeVar(F.target);
      c.dtypes.emplace_back(F.target, v->allowed.empty() ? "" : v->allowed[a]);
    } else if (F.kind == "distribution") {
      c.values.emplace_back(F.target, a);
    } else if (F.kind == "layout") {
      c.layouts.emplace_back(F.target, a);
    } else {
      c.perturb = plan_.perturb[a].text;
    }
  }
}

Greedy::Greedy(const std::vector<Factor>& f, size_t d) : fs(f), dims(d) {
  for (const auto& x : fs) {
    used.emplace_back(x.size, 0);
    onTail.emplace_back(x.size, false);
  }
}

size_t Greedy::seenOnTail() const {
  size_t n = 0;
  for (const auto& v : onTail) n += static_cast<size_t>(std::count(v.begin(), v.end(), true));
  return n;
}

bool Greedy::complete() const {
  for (const auto& v : onTail)
    if (std::find(v.begin(), v.end(), false) != v.end()) return false;
  return true;
}

size_t Greedy::count(size_t f, size_t a, size_t g, int64_t b) const {
  auto it = met.find(std::make_tuple(f, a, g, b));
  return it == met.end() ? 0 : it->second;
}

bool Greedy::fits(size_t f, size_t a, const std::vector<std::string>& owner, const Case& c) const {
  if (a < fs[f].needsBatch.size() && fs[f].needsBatch[a] && (batch >= c.dims.size() || c.dims[batch].second < 2))
    return false;
  const auto& mine = fs[f].owners[a];
  if (mine.empty() || owner.empty()) return true;
  return std::any_of(mine.begin(), mine.end(),
                     [&](const std::string& o) { return std::find(owner.begin(), owner.end(), o) != owner.end(); });
}

std::vector<size_t> Greedy::pick(const Case& c, bool tail, std::optional<std::pair<size_t, size_t>> pin) const {
  const size_t F = fs.size();
  std::vector<size_t> alt(F, 0);
  std::vector<std::string> owner;
  auto narrow = [&](size_t f, size_t a) {
    const auto& mine = fs[f].owners[a];
    if (mine.empty()) return;
    if (owner.empty()) {
      owner = mine;
      return;
    }
    std::vector<std::string> both;
    for (const auto& o : owner)
      if (std::find(mine.begin(), mine.end(), o) != mine.end()) both.push_back(o);
    owner = both;
  };
  if (pin) narrow(pin->first, pin->second);
  for (size_t f = 0; f < F; ++f) {
    if (pin && pin->first == f) {
      alt[f] = pin->second;
      continue;
    }
    bool anyFits = false;
    for (size_t a = 0; a < fs[f].size; ++a) anyFits = anyFits || fits(f, a, owner, c);
    size_t best = 0;
    bool have = false;
    std::tuple<int, size_t, size_t, size_t> bestScore{};
    for (size_t a = 0; a < fs[f].size; ++a) {
      if (anyFits && !fits(f, a, owner, c)) continue;
      int fresh = tail && !onTail[f][a] ? 0 : 1;
      size_t fresh2 = 0, seen = 0;
      auto add = [&](size_t g, int64_t b) {
        size_t n = count(f, a, g, b);
        fresh2 += n == 0;
        seen += n;
      };
      for (size_t g = 0; g < f; ++g) add(g, static_cast<int64_t>(alt[g]));
      for (size_t d = 0; d < dims; ++d) add(F + d, c.dims[d].second);
      // Smaller is better.
      std::tuple<int, size_t, size_t, size_t> score{fresh, SIZE_MAX - fresh2, seen, used[f][a]};
      if (!have || score < bestScore) best = a, bestScore = score, have = true;
    }
    alt[f] = best;
    narrow(f, best);
  }
  return alt;
}

std::pair<std::vector<size_t>, size_t> Greedy::choose(const Case& c, bool tail) {
  const size_t F = fs.size();
  std::vector<size_t> alt = pick(c, tail, std::nullopt);
  if (tail) {
    // The classes' alternatives exclude each other; when that left every new alternative
    // out, the first one not yet on a tail case goes first, so every case makes progress.
    bool progress = false;
    std::optional<std::pair<size_t, size_t>> unseen;
    for (size_t f = 0; f < F; ++f) {
      progress = progress || !onTail[f][alt[f]];
      for (size_t a = 0; a < fs[f].size && !unseen; ++a)
        if (!onTail[f][a] && fits(f, a, {}, c)) unseen = std::make_pair(f, a);
    }
    if (!progress && unseen) alt = pick(c, tail, unseen);
  }
  size_t firstNew = F;
  for (size_t f = 0; f < F; ++f) {
    for (size_t g = 0; g < f; ++g) ++met[std::make_tuple(f, alt[f], g, static_cast<int64_t>(alt[g]))];
    for (size_t d = 0; d < dims; ++d) ++met[std::make_tuple(f, alt[f], F + d, c.dims[d].second)];
    ++used[f][alt[f]];
    if (tail && !onTail[f][alt[f]]) {
      onTail[f][alt[f]] = true;
      if (firstNew == F && fs[f].size > 1) firstNew = f;
    }
  }
  return {alt, firstNew};
}

}  // namespace kc::plan::detail

namespace kc::plan {

std::vector<std::vector<size_t>> pairwiseTuples(const std::vector<size_t>& sizes, const TupleFilter& mayHold) {
  const size_t k = sizes.size();
  std::vector<std::vector<size_t>> out;
  if (k == 0) return {{}};
  for (size_t s : sizes)
    if (s == 0) return out;
  if (k == 1) {
    for (size_t v = 0; v < sizes[0]; ++v)
      if (!mayHold || mayHold({v})) out.push_back({v});
    return out;
  }
  // uncovered[a][b][va * sizes[b] + vb] for a < b
  std::vector<std::vector<std::vector<char>>> uncovered(k, std::vector<std::vector<char>>(k));
  size_t left = 0;
  for (size_t a = 0; a < k; ++a)
    for (size_t b = a + 1; b < k; ++b) {
      uncovered[a][b].assign(sizes[a] * sizes[b], 1);
      left += sizes[a] * sizes[b];
    }
  auto open = [&](size_t a, size_t va, size_t b, size_t vb) -> bool {
    if (a > b) std::swap(a, b), std::swap(va, vb);
    return uncovered[a][b][va * sizes[b] + vb];
  };
  while (left > 0) {
    // The first uncovered pair, in order of (dim a, dim b, value of a, value of b).
    size_t A = 0, B = 0, VA = 0, VB = 0;
    bool found = false;
    for (size_t a = 0; a < k && !found; ++a)
      for (size_t b = a + 1; b < k && !found; ++b)
        for (size_t i = 0; i < uncovered[a][b].size() && !found; ++i)
          if (uncovered[a][b][i]) A = a, B = b, VA = i / sizes[b], VB = i % sizes[b], found = true;
    std::vector<size_t> t(k, kUnassigned);
    t[A] = VA;
    t[B] = VB;
    // Every other dim, in order: the value that covers the most open pairs with the dims
    // fixed so far (the smallest such value on a tie), backtracking where `mayHold` refutes
    // the partial tuple. A pair no tuple completes within the search budget is given up.
    size_t budget = 100000;
    std::function<bool(size_t)> fill = [&](size_t d) -> bool {
      while (d < k && (d == A || d == B)) ++d;
      if (d == k) return true;
      std::vector<std::pair<size_t, size_t>> order;  // (gain, value)
      for (size_t v = 0; v < sizes[d]; ++v) {
        size_t gain = 0;
        for (size_t e = 0; e < k; ++e)
          if (e != d && t[e] != kUnassigned && open(d, v, e, t[e])) ++gain;
        order.emplace_back(gain, v);
      }
      std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
      for (const auto& [gain, v] : order) {
        if (budget == 0) break;
        --budget;
        t[d] = v;
        if ((!mayHold || mayHold(t)) && fill(d + 1)) return true;
      }
      t[d] = kUnassigned;
      return false;
    };
    if ((mayHold && !mayHold(t)) || !fill(0)) {
      uncovered[A][B][VA * sizes[B] + VB] = 0;
      --left;
      continue;
    }
    for (size_t a = 0; a < k; ++a)
      for (size_t b = a + 1; b < k; ++b) {
        char& cell = uncovered[a][b][t[a] * sizes[b] + t[b]];
        if (cell) cell = 0, --left;
      }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace kc::plan

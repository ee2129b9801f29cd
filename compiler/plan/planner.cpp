#include "compiler/plan/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include "compiler/ir/eval.h"
#include "compiler/plan/batch.h"
#include "stdlib/numerics/dtype.h"

namespace kc::plan {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kTwo31 = uint64_t{1} << 31;
constexpr uint64_t kTwo32 = uint64_t{1} << 32;
constexpr uint64_t kAllCellsMax = uint64_t{1} << 24;  // above this, check sample(4096) + boundary
constexpr int64_t kDefaultSample = 4096;
// Primes added by boundary(...) when inside the range and below twice the largest tile:
// shapes of several full tiles and a ragged one that no power-of-two tiling divides.
constexpr int64_t kBoundaryPrimes[] = {97, 1009, 10007};
constexpr int64_t kDefaultDimValues[] = {7, 64, 1000};  // with the range's low end

uint64_t satMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kU64Max : r;
}
uint64_t satAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? kU64Max : r;
}


// --- one contract --------------------------------------------------------------------------

struct Factor {
  std::string kind;    // dtype | distribution | layout | perturb
  std::string target;  // the dtype variable or tensor
  size_t size = 1;
  // Per alternative: the classes that own it (empty: neutral, any case may carry it). One
  // case carries the alternatives of one class at most, so that a failure on it is that
  // class's (Case::origins).
  std::vector<std::vector<std::string>> owners;
  std::vector<bool> needsBatch;  // per alternative: sub_batch, pointless on a batch of one row
};

void addOrigin(std::vector<std::string>& list, const std::string& id) {
  if (std::find(list.begin(), list.end(), id) == list.end()) list.push_back(id);
}

class Planner {
 public:
  Planner(const sema::ContractInfo& c, const Options& o) : c_(c), o_(o) {}

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
    planDims(k);
    planDTypes(k);
    planPerturb(k);
    for (const auto& t : k.tensors) p.tensors.push_back(planTensor(t));
    planEverywhere();
    std::vector<Case> cases = coverageCases();
    for (auto& lc : largeIndexCases()) cases.push_back(std::move(lc));
    p.derived = cases.size();
    if (cases.size() > o_.maxCases) cases.resize(o_.maxCases);
    p.dropped = p.derived - cases.size();
    for (size_t n = 0; n < cases.size(); ++n) finish(cases[n], n + 1);
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
    for (const DimPlan& d : p.dims) c.dims.emplace_back(d.name, friendlyValue(d));
    for (const DTypeVarPlan& v : p.dtypeVars) {
      auto f32 = std::find(v.allowed.begin(), v.allowed.end(), "f32");
      c.dtypes.emplace_back(v.name, f32 != v.allowed.end() ? *f32 : v.allowed.empty() ? "f32" : v.allowed.front());
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
  // Where an alternative with this text sits in `list`; appended when missing.
  template <typename T, typename Text>
  static size_t indexOf(std::vector<T>& list, const std::string& text, Text textOf, T fallback) {
    for (size_t i = 0; i < list.size(); ++i)
      if (textOf(list[i]) == text) return i;
    list.push_back(std::move(fallback));
    return list.size() - 1;
  }

  // A size a hand-written test would pick: a multiple of every declared tile (so no tile is
  // partial), else 64; inside the dim's range, and one of its values when it declares a set.
  static int64_t friendlyValue(const DimPlan& d) {
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

  // --- what varies -------------------------------------------------------------------------
  void planDims(const sema::KernelInfo& k) {
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

  void planDTypes(const sema::KernelInfo& k) {
    for (const auto& v : k.dtypeVars) {
      DTypeVarPlan dv{v.name, v.allowed};
      auto it = c_.scope.dtypes.find(v.name);
      if (it != c_.scope.dtypes.end() && !it->second.empty()) dv.allowed = it->second;
      plan_.dtypeVars.push_back(std::move(dv));
    }
  }

  void planPerturb(const sema::KernelInfo& k) {
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

  // The applied classes that ask for every case: they set seeds, repeats or cells, or ask
  // for no distribution, layout or perturbation of their own.
  void planEverywhere() {
    for (const std::string& id : c_.applies) {
      bool caseWide = std::any_of(c_.protocol.caseWide.begin(), c_.protocol.caseWide.end(),
                                  [&](const sema::Origin& o) { return o.id == id; });
      auto mine = [&](const std::vector<sema::ProtocolBinding>& bs) {
        return std::any_of(bs.begin(), bs.end(), [&](const sema::ProtocolBinding& b) { return b.origin.id == id; });
      };
      if (caseWide || !(mine(c_.protocol.values) || mine(c_.protocol.layouts) || mine(c_.protocol.perturb)))
        plan_.everywhere.push_back(id);
    }
  }

  // The classes an alternative asked for by `origins` belongs to; empty when it is neutral:
  // a default (contiguous, none), the contract's own, or asked for by a class that asks for
  // every case anyway.
  std::vector<std::string> owners(const std::vector<std::string>& origins, bool isDefault) const {
    return alternativeOwners(plan_, origins, isDefault);
  }

  static bool integerDType(const std::string& name) {
    auto d = numerics::parseDType(name);
    return d && (numerics::isInteger(*d) || *d == numerics::DType::Bool);
  }

  TensorPlan planTensor(const sema::TensorInfo& t) {
    TensorPlan tp;
    tp.name = t.name;
    tp.output = t.output;
    tp.scalar = t.shape.empty();
    tp.dtype = t.dtype;
    tp.dtypeIsVar = t.dtypeIsVar;
    auto applies = [&](const std::string& target) { return target == t.name || (target == "*" && !tp.scalar); };
    if (!t.output) {
      std::vector<Distribution> specials;
      for (const auto& b : c_.protocol.values) {
        if (!applies(b.target)) continue;
        for (const auto& v : b.values) {
          Distribution d;
          d.text = valueText(v);
          d.value = v;
          d.origin = b.origin.id;
          d.origins = {b.origin.id};
          d.special = v.kind == VK::Call && v.name == "special";
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
      for (auto& s : specials) {
        s.base = tp.values.front().value;
        s.baseText = tp.values.front().text;
        tp.values.push_back(std::move(s));
      }
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
          if (l.kind == "transposed" && t.rank() < 2) continue;  // nothing to transpose
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

  std::vector<Factor> factors() const {
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

  // Sets the factors of `c` to the chosen alternatives.
  void assign(Case& c, const std::vector<Factor>& fs, const std::vector<size_t>& alt) const {
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

  // Chooses the factors' alternatives case by case, greedily: for each factor in order, an
  // alternative not yet seen on a tail case (when the case is one), then the one that covers
  // the most new pairs with the factors already chosen for this case and with the case's
  // dimension values, then the one that met those least often so far (so that factors do not
  // move in lockstep), then the least used one, then the first.
  struct Greedy {
    const std::vector<Factor>& fs;
    size_t dims;
    size_t batch = SIZE_MAX;  // the batch dimension's index in the case's dims (plan/batch.h)
    // (f, a, g, b) -> how often alternative a of factor f met alternative b of factor g < f,
    // or the value b of dimension g - fs.size()
    std::map<std::tuple<size_t, size_t, size_t, int64_t>, size_t> met;
    std::vector<std::vector<size_t>> used;
    std::vector<std::vector<bool>> onTail;

    Greedy(const std::vector<Factor>& f, size_t d) : fs(f), dims(d) {
      for (const auto& x : fs) {
        used.emplace_back(x.size, 0);
        onTail.emplace_back(x.size, false);
      }
    }

    size_t seenOnTail() const {
      size_t n = 0;
      for (const auto& v : onTail) n += static_cast<size_t>(std::count(v.begin(), v.end(), true));
      return n;
    }

    bool complete() const {
      for (const auto& v : onTail)
        if (std::find(v.begin(), v.end(), false) != v.end()) return false;
      return true;
    }

    size_t count(size_t f, size_t a, size_t g, int64_t b) const {
      auto it = met.find(std::make_tuple(f, a, g, b));
      return it == met.end() ? 0 : it->second;
    }

    // Whether alternative a of factor f may join a case whose classes so far are `owner`
    // (empty: none yet): a neutral alternative always; else one of the same class.
    bool fits(size_t f, size_t a, const std::vector<std::string>& owner, const Case& c) const {
      if (a < fs[f].needsBatch.size() && fs[f].needsBatch[a] && (batch >= c.dims.size() || c.dims[batch].second < 2))
        return false;
      const auto& mine = fs[f].owners[a];
      if (mine.empty() || owner.empty()) return true;
      return std::any_of(mine.begin(), mine.end(),
                         [&](const std::string& o) { return std::find(owner.begin(), owner.end(), o) != owner.end(); });
    }

    // The alternatives for one case, factor by factor; `pin` (factor, alternative) is chosen
    // first when given.
    std::vector<size_t> pick(const Case& c, bool tail, std::optional<std::pair<size_t, size_t>> pin) const {
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

    // Returns the alternatives and the first factor whose alternative was new on a tail case.
    std::pair<std::vector<size_t>, size_t> choose(const Case& c, bool tail) {
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
  };

  const DTypeVarPlan* dtypeVar(const std::string& n) const {
    for (const auto& v : plan_.dtypeVars)
      if (v.name == n) return &v;
    return nullptr;
  }

  bool hasSpecial(const Case& c) const {
    for (const auto& [name, a] : c.values)
      if (plan_.tensor(name)->values[a].special) return true;
    return false;
  }

  // --- the pairwise dimension tuples, with every alternative of every factor ------------------
  std::vector<Case> coverageCases() {
    std::vector<size_t> sizes;
    for (const auto& d : plan_.dims) sizes.push_back(d.candidates.size());
    std::vector<std::vector<size_t>> tuples = pairwiseTuples(sizes);
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
  void addSubBatchCases(std::vector<Case>& cases, const std::vector<Factor>& fs) const {
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

  // --- large-index shapes --------------------------------------------------------------------
  uint64_t elements(const sema::TensorInfo& t, const ir::IntEnv& env) const {
    uint64_t n = 1;
    for (const auto& e : t.shape) {
      std::optional<int64_t> v = ir::evalInt(*e, env);
      if (!v) return kU64Max;
      n = satMul(n, *v < 0 ? 0 : static_cast<uint64_t>(*v));
    }
    return n;
  }

  // Dims at the smallest value whose tensor `t` has more than `target` elements, growing the
  // dims of t with the largest range first; nullopt when t cannot get that large.
  std::optional<ir::IntEnv> grow(const sema::TensorInfo& t, uint64_t target) const {
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

  std::vector<Case> largeIndexCases() {
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

  // --- per case ------------------------------------------------------------------------------
  static uint64_t bytesOf(const std::string& dtype) {
    auto d = numerics::parseDType(dtype);
    return d ? static_cast<uint64_t>(numerics::sizeBytes(*d)) : 0;
  }

  std::string dtypeOf(const Case& c, const TensorPlan& t) const {
    if (!t.dtypeIsVar) return t.dtype;
    for (const auto& [v, d] : c.dtypes)
      if (v == t.dtype) return d;
    return "";
  }

  // Element counts, storage and memory of every tensor under the case's dims and layouts.
  void measure(Case& c) const {
    ir::IntEnv env;
    for (const auto& [n, v] : c.dims) env[n] = v;
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
    c.largeIndex = span >= kTwo32 ? 32 : span >= kTwo31 ? 31 : 0;
  }

  Cells cellsFor(const Case& c) const {
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

  void finish(Case& c, size_t number) const {
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
    // Special values (NaN, Inf) make most postconditions false by arithmetic alone: such a
    // case tests the postconditions of the contract or class that asked for the specials.
    std::set<std::string> specialOrigins;
    for (const auto& [name, a] : c.values)
      if (plan_.tensor(name)->values[a].special) specialOrigins.insert(plan_.tensor(name)->values[a].origin);
    for (size_t i = 0; i < plan_.post.size(); ++i)
      if (specialOrigins.empty() || specialOrigins.count(plan_.post[i].origin)) c.post.push_back(i);
    c.origins = caseOrigins(c);
  }

  // The classes whose alternatives the case carries, in the applies order; else the contract.
  std::vector<std::string> caseOrigins(const Case& c) const {
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
    std::vector<std::string> out;
    for (const auto& id : c_.applies)
      if (asked.count(id)) out.push_back(id);
    if (out.empty()) out.push_back(c_.id);
    return out;
  }

  const sema::ContractInfo& c_;
  const Options& o_;
  Plan plan_;
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

bool DimPlan::isTail(int64_t v) const {
  if (tiles.empty()) return false;
  for (int64_t t : tiles)
    if (t > 0 && v % t == 0) return false;
  return true;
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

std::vector<std::vector<size_t>> pairwiseTuples(const std::vector<size_t>& sizes) {
  const size_t k = sizes.size();
  std::vector<std::vector<size_t>> out;
  if (k == 0) return {{}};
  for (size_t s : sizes)
    if (s == 0) return out;
  if (k == 1) {
    for (size_t v = 0; v < sizes[0]; ++v) out.push_back({v});
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
    const size_t none = static_cast<size_t>(-1);
    std::vector<size_t> t(k, none);
    t[A] = VA;
    t[B] = VB;
    // Every other dim, in order: the value that covers the most open pairs with the dims
    // fixed so far (the smallest such value on a tie).
    for (size_t d = 0; d < k; ++d) {
      if (t[d] != none) continue;
      size_t best = 0, bestGain = 0;
      for (size_t v = 0; v < sizes[d]; ++v) {
        size_t gain = 0;
        for (size_t e = 0; e < k; ++e)
          if (e != d && t[e] != none && open(d, v, e, t[e])) ++gain;
        if (gain > bestGain) best = v, bestGain = gain;
      }
      t[d] = best;
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

Plan makePlan(const sema::ContractInfo& contract, const Options& options) {
  return Planner(contract, options).run();
}

Plan friendlyPlan(const sema::ContractInfo& contract, const Options& options, size_t seeds) {
  return Planner(contract, options).friendly(seeds);
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

// The re-runs that test how a kernel walks a reduction (probes.h): whether it reads past the
// limit of a ranged one (a causal mask), and whether what it summed before its running
// maximum rose is rescaled (an online softmax). Both find the axes to vary in the oracle's
// IR, not in the op's name.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <set>

#include "checker/diagnose/probes.h"
#include "checker/oracle/evaluator.h"

namespace kc::diagnose {

namespace {

using Axis = std::pair<std::string, size_t>;  // a tensor (input or definition) and one of its axes

std::string fmtNum(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

bool isVar(const ir::Node& n, const std::string& var) { return n.op == ir::Op::IndexVar && n.name == var; }

// Every (tensor, axis) read with the index variable `var` at that axis, inside `n`.
void readsWith(const ir::Node& n, const std::string& var, std::set<Axis>& out) {
  ir::walk(n, [&](const ir::Node& x) {
    if (x.op != ir::Op::TensorRead || (x.role != ir::Role::Input && x.role != ir::Role::Local)) return;
    for (size_t a = 0; a < x.kids.size(); ++a)
      if (x.kids[a] && isVar(*x.kids[a], var)) out.insert({x.name, a});
  });
}

bool readsIndexVar(const ir::Node* n) {
  bool found = false;
  if (n) ir::walk(*n, [&](const ir::Node& x) { found |= x.op == ir::Op::IndexVar; });
  return found;
}

// The axes a reduction of the oracle (of kind `kind`: sum, max, ...; empty: any) runs over
// directly: read with its variable there. `ranged`: only reductions whose bounds depend on
// the cell (sum(j in 0..i, ...), a causal limit), not those over a whole extent.
std::set<Axis> reductionSeeds(const sema::ContractInfo& ct, const std::string& kind, bool ranged = false) {
  std::set<Axis> out;
  for (const auto& d : ct.oracle) {
    if (!d.value) continue;
    ir::walk(*d.value, [&](const ir::Node& n) {
      if (n.op != ir::Op::Reduce || n.vars.empty() || n.kids.size() < 3 || !n.kids[2]) return;
      if (!kind.empty() && n.name != kind) return;
      if (ranged && !readsIndexVar(n.kids[0].get()) && !readsIndexVar(n.kids[1].get())) return;
      readsWith(*n.kids[2], n.vars[0], out);
    });
  }
  return out;
}

// `marked` closed over the definitions: an axis of a definition that is marked marks every
// axis read with that definition's index variable in its body (sc[i, j] reduced over j marks
// k's axis 0, read as k[j, d] in sc's definition).
std::set<Axis> throughDefinitions(const sema::ContractInfo& ct, std::set<Axis> marked) {
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& d : ct.oracle)
      for (size_t p = 0; p < d.indices.size(); ++p) {
        if (!marked.count({d.name, p}) || !d.value) continue;
        std::set<Axis> found;
        readsWith(*d.value, d.indices[p], found);
        for (const Axis& x : found) grew |= marked.insert(x).second;
      }
  }
  return marked;
}

// The kernel's dim at an input's axis (empty when the extent is not a bare dim).
std::string dimAt(const sema::ContractInfo& ct, const Axis& axis) {
  const sema::TensorInfo* t = ct.kernel ? ct.kernel->tensor(axis.first) : nullptr;
  if (!t || t->output || axis.second >= t->shape.size() || !t->shape[axis.second]) return "";
  const ir::Node& e = *t->shape[axis.second];
  return e.op == ir::Op::Dim ? e.name : "";
}

std::set<Axis> inputAxes(const sema::ContractInfo& ct, const std::set<Axis>& axes) {
  std::set<Axis> out;
  for (const Axis& a : axes)
    if (!dimAt(ct, a).empty()) out.insert(a);
  return out;
}

const run::ArgSpec* argNamed(const run::CaseSetup& s, const std::string& name) {
  for (const auto& a : s.args)
    if (a.name == name) return &a;
  return nullptr;
}

// Calls f(flat, index along `axis`) for every row-major cell of `shape`.
template <typename F>
void alongAxis(const std::vector<int64_t>& shape, size_t axis, F f) {
  int64_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  for (int64_t flat = 0; flat < n; ++flat) f(flat, (flat / inner) % shape[axis], inner);
}

struct Exact {
  bool ok = false;
  std::string why;
  oracle::OracleResult r;
  oracle::Bindings b;
};

Exact exactOf(ProbeContext& ctx, const VariantInputs& in) {
  Exact e;
  try {
    e.b = run::inputBindings(in.setup, in.storage, ctx.threads);
    oracle::EvalOptions o;
    o.threads = ctx.threads;
    e.r = oracle::evalOracle(*ctx.contract, e.b, o);
    e.ok = true;
  } catch (const std::exception& x) {
    e.why = x.what();
  }
  return e;
}

std::vector<std::string> outputNames(const run::CaseSetup& s) {
  std::vector<std::string> out;
  for (const auto& a : s.args)
    if (a.output) out.push_back(a.name);
  return out;
}

std::string cellText(const std::string& name, const std::vector<int64_t>& shape, size_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = static_cast<int64_t>(flat) % shape[d];
    flat /= static_cast<size_t>(shape[d]);
  }
  std::string s = name + "[";
  for (size_t d = 0; d < idx.size(); ++d) s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

}  // namespace

std::optional<std::string> readsPastReductionLimit(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                   std::vector<std::string>& log) {
  const sema::ContractInfo& ct = *ctx.contract;
  std::set<Axis> axes = inputAxes(ct, throughDefinitions(ct, reductionSeeds(ct, "", true)));
  if (axes.empty()) return std::nullopt;
  VariantInputs base = variantInputs(ctx, c, seed, marks);
  Exact exact0 = exactOf(ctx, base);
  if (!exact0.ok) return std::nullopt;
  std::optional<VariantRun> run0;  // the unedited run, made once some edit needs it
  std::string at = "#" + std::to_string(c.number) + " with only ";
  int launches = 0;
  for (const Axis& axis : axes) {
    const run::ArgSpec* arg = argNamed(base.setup, axis.first);
    if (!arg || !numerics::isFloat(arg->dtype) || axis.second >= arg->shape.size() || arg->shape[axis.second] < 2) continue;
    const int64_t extent = arg->shape[axis.second];
    const std::string dim = dimAt(ct, axis);
    // One slice along the axis set past the view's range, above it, then below it: the
    // second (a causal row 0 must not see it, a mask inside the first block does), then the
    // last (past every earlier bound).
    std::vector<std::pair<int64_t, int>> trials;
    for (int64_t slice : {int64_t{1}, extent - 1})
      if (trials.empty() || slice != trials.front().first)
        for (int side : {1, -1}) trials.emplace_back(slice, side);
    for (const auto& [slice, side] : trials) {
      if (launches >= 6) break;
      InputEdit edit;
      edit.rewrite = [&](const run::ArgSpec& a, std::vector<double>& v) {
        if (a.name != axis.first) return;
        double lo = INFINITY, hi = -INFINITY;
        for (double x : v)
          if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
        if (!std::isfinite(lo)) return;
        const double span = hi - lo + std::max(1.0, std::fabs(side > 0 ? hi : lo));
        const double value = side > 0 ? hi + span : lo - span;
        alongAxis(a.shape, axis.second, [&](int64_t flat, int64_t k, int64_t) {
          if (k == slice) v[static_cast<size_t>(flat)] = value;
        });
      };
      VariantInputs edited = variantInputs(ctx, c, seed, marks, edit);
      Exact exact1 = exactOf(ctx, edited);
      if (!exact1.ok) break;
      // The output cells whose exact value does not depend on the slice.
      std::vector<std::pair<std::string, std::vector<size_t>>> independent;
      size_t count = 0;
      for (const std::string& o : outputNames(base.setup)) {
        auto e0 = exact0.r.oracle.find(o), e1 = exact1.r.oracle.find(o);
        if (e0 == exact0.r.oracle.end() || e1 == exact1.r.oracle.end() || e0->second.data.size() != e1->second.data.size()) continue;
        std::vector<size_t> cells;
        for (size_t k = 0; k < e0->second.data.size(); ++k) {
          double x = e0->second.data[k], y = e1->second.data[k];
          if (std::isfinite(x) && std::isfinite(y) && x == y) cells.push_back(k);
        }
        count += cells.size();
        independent.emplace_back(o, std::move(cells));
      }
      if (count == 0) continue;  // every output depends on the slice
      if (!run0) {
        run0 = runVariant(ctx, c, seed, marks);
        ++launches;
      }
      if (!run0->ran) {
        log.push_back(at + "inputs a reduction does not reach changed: the unedited re-run did not run (" + run0->why + ")");
        return std::nullopt;
      }
      VariantRun run1 = runVariant(ctx, c, seed, marks, edit);
      ++launches;
      if (!run1.ran) {
        log.push_back(at + axis.first + "'s slice " + std::to_string(slice) + " along " + dim + " changed: did not run (" + run1.why + ")");
        return std::nullopt;
      }
      // A cell the exact result does not tie to the slice moving by more than a thousandth
      // of its size (or of the output's typical size): far beyond any rounding.
      size_t moved = 0;
      std::string example;
      double worst = 0;
      for (const auto& [o, cells] : independent) {
        size_t oi = 0;
        const std::vector<std::string> names = outputNames(base.setup);
        while (oi < names.size() && names[oi] != o) ++oi;
        std::vector<double> y0 = outputCells(*run0, oi), y1 = outputCells(run1, oi);
        const oracle::Tensor& ex = exact0.r.oracle.at(o);
        double rms = 0;
        size_t n = 0;
        for (double x : ex.data)
          if (std::isfinite(x)) rms += x * x, ++n;
        rms = n ? std::sqrt(rms / static_cast<double>(n)) : 0;
        for (size_t k : cells) {
          if (k >= y0.size() || k >= y1.size() || !std::isfinite(y0[k]) || !std::isfinite(y1[k])) continue;
          double d = std::fabs(y1[k] - y0[k]);
          if (d > 1e-3 * std::max(std::fabs(ex.data[k]), rms) && d > 0) {
            ++moved;
            if (d > worst) worst = d, example = cellText(o, ex.shape, k);
          }
        }
      }
      std::string what = axis.first + "'s slice " + std::to_string(slice) + " along " + dim + " set " + (side > 0 ? "above" : "below") + " its range";
      if (moved > 0) {
        log.push_back(at + what + ": " + std::to_string(moved) + " of the " + std::to_string(count) +
                      " output cells whose exact values do not depend on it changed (by up to " + fmtNum(worst) + ", at " + example + ")");
        return "output cells change with inputs their exact values do not depend on (only " + axis.first + "'s slice " +
               std::to_string(slice) + " along " + dim + " changed; " + std::to_string(moved) + " such cells moved, by up to " +
               fmtNum(worst) + " at " + example + "): it reads past the limit of a reduction (a mask or bound not applied)";
      }
      log.push_back(at + what + ": none of the " + std::to_string(count) + " output cells whose exact values do not depend on it changed");
    }
  }
  return std::nullopt;
}

std::optional<std::string> missesRunningMaxRescale(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                   std::vector<std::string>& log) {
  const sema::ContractInfo& ct = *ctx.contract;
  // The oracle's `max(j, x[.., j, ..])` of a tensor read alone: x's axis j is the key axis,
  // its other axes the rows.
  // A softmax's: a definition m = max(j, x[.., j, ..]) that some definition subtracts inside
  // an exp (an amax, whose max feeds no exp, has no running maximum to rescale by).
  auto expOf = [&](const std::string& m) {
    return std::any_of(ct.oracle.begin(), ct.oracle.end(), [&](const sema::Definition& d) {
      bool found = false;
      if (d.value)
        ir::walk(*d.value, [&](const ir::Node& n) {
          if (n.op == ir::Op::Call && (n.name == "exp" || n.name == "exp2"))
            ir::walk(n, [&](const ir::Node& r) { found |= r.op == ir::Op::TensorRead && r.role == ir::Role::Local && r.name == m; });
        });
      return found;
    });
  };
  const ir::Node* reduce = nullptr;
  for (const auto& d : ct.oracle) {
    const ir::Node* n = d.value.get();
    if (!reduce && n && n->op == ir::Op::Reduce && n->name == "max" && !n->vars.empty() && n->kids.size() >= 3 && n->kids[2] &&
        n->kids[2]->op == ir::Op::TensorRead && (n->kids[2]->role == ir::Role::Input || n->kids[2]->role == ir::Role::Local) &&
        expOf(d.name))
      reduce = n;
  }
  if (!reduce) return std::nullopt;
  const ir::Node& x = *reduce->kids[2];
  size_t keyAt = x.kids.size();
  std::set<Axis> rowSeeds;
  for (size_t a = 0; a < x.kids.size(); ++a) {
    if (x.kids[a] && isVar(*x.kids[a], reduce->vars[0])) keyAt = a;
    else if (x.kids[a] && x.kids[a]->op == ir::Op::IndexVar) rowSeeds.insert({x.name, a});
    else return std::nullopt;  // an index expression: no plain row to replicate
  }
  if (keyAt == x.kids.size()) return std::nullopt;
  // The key dim: the one the max's axis reaches in the inputs; the keys to reorder: every
  // input axis of that dim some reduction runs over (k and v together, not q).
  std::set<std::string> keyDims;
  for (const Axis& a : inputAxes(ct, throughDefinitions(ct, {{x.name, keyAt}}))) keyDims.insert(dimAt(ct, a));
  if (keyDims.size() != 1) return std::nullopt;
  const std::string keyDim = *keyDims.begin();
  std::set<Axis> keys;
  for (const Axis& a : inputAxes(ct, throughDefinitions(ct, reductionSeeds(ct, ""))))
    if (dimAt(ct, a) == keyDim) keys.insert(a);
  std::set<Axis> rows = inputAxes(ct, throughDefinitions(ct, rowSeeds));
  for (const Axis& r : rows)
    if (keys.count(r)) return std::nullopt;
  if (keys.empty()) return std::nullopt;

  // Every row alike (each input's rows copied from its last), so one order of the keys is
  // the same order of scores for every row.
  auto replicate = [rows](const run::ArgSpec& a, std::vector<double>& v) {
    for (const Axis& r : rows) {
      if (r.first != a.name || r.second >= a.shape.size()) continue;
      const int64_t last = a.shape[r.second] - 1;
      alongAxis(a.shape, r.second, [&](int64_t flat, int64_t k, int64_t inner) {
        v[static_cast<size_t>(flat)] = v[static_cast<size_t>(flat + (last - k) * inner)];
      });
    }
  };
  InputEdit alike;
  alike.rewrite = replicate;
  VariantInputs same = variantInputs(ctx, c, seed, marks, alike);
  Exact exact = exactOf(ctx, same);
  if (!exact.ok) return std::nullopt;
  const oracle::Tensor* scores = nullptr;
  if (x.role == ir::Role::Local) {
    auto it = exact.r.oracle.find(x.name);
    if (it != exact.r.oracle.end()) scores = &it->second;
  } else {
    auto it = exact.b.inputs.find(x.name);
    if (it != exact.b.inputs.end()) scores = &it->second;
  }
  if (!scores || keyAt >= scores->shape.size() || scores->shape[keyAt] < 2) return std::nullopt;
  // The scores of row 0 (every row's, now) along the key axis.
  const int64_t n = scores->shape[keyAt];
  std::vector<double> s(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) s[static_cast<size_t>(j)] = scores->data[static_cast<size_t>(j * scores->strides[keyAt])];
  if (!std::all_of(s.begin(), s.end(), [](double v) { return std::isfinite(v); })) return std::nullopt;
  std::vector<int64_t> descending(static_cast<size_t>(n));
  std::iota(descending.begin(), descending.end(), 0);
  std::stable_sort(descending.begin(), descending.end(), [&](int64_t a, int64_t b) { return s[size_t(a)] > s[size_t(b)]; });
  std::vector<int64_t> ascending(descending.rbegin(), descending.rend());
  auto inOrder = [&](const std::vector<int64_t>& order) {
    InputEdit e;
    e.rewrite = [replicate, keys, order](const run::ArgSpec& a, std::vector<double>& v) {
      replicate(a, v);
      for (const Axis& k : keys) {
        if (k.first != a.name || k.second >= a.shape.size() || a.shape[k.second] != static_cast<int64_t>(order.size())) continue;
        std::vector<double> old = v;
        alongAxis(a.shape, k.second, [&](int64_t flat, int64_t j, int64_t inner) {
          v[static_cast<size_t>(flat)] = old[static_cast<size_t>(flat + (order[size_t(j)] - j) * inner)];
        });
      }
    };
    return e;
  };
  std::string keyNames;
  for (const Axis& k : keys) keyNames += (keyNames.empty() ? "" : ", ") + k.first;
  std::string rowNames;
  for (const Axis& r : rows) rowNames += (rowNames.empty() ? "" : ", ") + r.first;
  std::string at = "#" + std::to_string(c.number) + " with every row of " + (rowNames.empty() ? x.name : rowNames) +
                   " alike and the keys (" + keyNames + " along " + keyDim + ") sorted by " + x.name + ": ";
  VariantRun up = runVariant(ctx, c, seed, marks, inOrder(ascending));
  if (!failed(up)) {
    log.push_back(at + "in ascending order " + (up.ran ? "it passes (nothing shown)" : "did not run (" + up.why + ")"));
    return std::nullopt;
  }
  VariantRun down = runVariant(ctx, c, seed, marks, inOrder(descending));
  if (!passed(down)) {
    log.push_back(at + "it fails in ascending order, and " + (down.ran ? "in descending order too (not a matter of order)" : "in descending order did not run (" + down.why + ")"));
    return std::nullopt;
  }
  // A kernel that subtracts some score of the row rather than its maximum (the first one,
  // say) passes in descending order too, and fails in ascending order only because exp
  // overflows past the shift: with the scores pressed into a spread of kSpread, where no
  // shift within the row overflows, it passes; a missing rescale still fails there (the
  // terms summed before the maximum rose are off by up to e^kSpread).
  constexpr double kSpread = 8.0;
  const double spread = *std::max_element(s.begin(), s.end()) - *std::min_element(s.begin(), s.end());
  if (spread > kSpread) {
    const double alpha = kSpread / spread;
    InputEdit narrow = inOrder(ascending);
    narrow.rewrite = [up = narrow.rewrite, keys, alpha](const run::ArgSpec& a, std::vector<double>& v) {
      up(a, v);
      bool key = false;
      for (const Axis& k : keys) key = key || k.first == a.name;
      if (key)
        for (double& x : v) x *= alpha;
    };
    // Only where the scores are linear in the keys (x itself, q k) is the spread now kSpread.
    Exact pressed = exactOf(ctx, variantInputs(ctx, c, seed, marks, narrow));
    const oracle::Tensor* ps = nullptr;
    if (pressed.ok) {
      auto& from = x.role == ir::Role::Local ? pressed.r.oracle : pressed.b.inputs;
      auto it = from.find(x.name);
      if (it != from.end()) ps = &it->second;
    }
    double pressedSpread = INFINITY;
    if (ps && keyAt < ps->shape.size() && ps->shape[keyAt] == n) {
      double lo = INFINITY, hi = -INFINITY;
      for (int64_t j = 0; j < n; ++j) {
        const double v = ps->data[static_cast<size_t>(j * ps->strides[keyAt])];
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
      pressedSpread = hi - lo;
    }
    if (pressedSpread <= kSpread * 1.01) {
      VariantRun small = runVariant(ctx, c, seed, marks, narrow);
      if (passed(small)) {
        log.push_back(at + "it fails in ascending order and passes in descending order, and in ascending order with the scores " +
                      "pressed into a spread of 8 it passes: the order matters only where exp overflows past its shift (a shift " +
                      "that is not the row's maximum), not a missing rescale");
        return std::nullopt;
      }
    }
  }
  log.push_back(at + "it fails in ascending order and passes in descending order");
  return "with every row alike, it passes when the keys come in descending order of " + x.name + " and fails in ascending order (" +
         keyNames + " reordered along " + keyDim + "): what it summed before its running maximum rose is not rescaled";
}

}  // namespace kc::diagnose

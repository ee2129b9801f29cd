#include "checker/run/sub_problem.h"

#include <algorithm>
#include <set>

#include "stdlib/values/philox.h"
#include "stdlib/values/sampling.h"

namespace kc::run {

namespace {

using ir::Node;
using ir::Op;

bool isDim(const Node& n, const std::string& d) { return n.op == Op::Dim && n.name == d; }

bool mentions(const Node& n, const std::string& d) {
  bool found = false;
  ir::walk(n, [&](const Node& k) { found = found || isDim(k, d); });
  return found;
}

// Checks that one dim is free (see sub_problem.h) in every expression of a contract.
class FreeDimCheck {
 public:
  FreeDimCheck(const sema::ContractInfo& ct, std::string dim) : ct_(ct), d_(std::move(dim)) {}

  bool run() {
    // Tensor axes: exactly the dim, or not mentioning it.
    for (const auto& t : ct_.kernel->tensors) {
      std::vector<bool> axes;
      for (const auto& e : t.shape) {
        if (mentions(*e, d_) && !isDim(*e, d_)) return false;
        axes.push_back(isDim(*e, d_));
      }
      axes_[t.name] = axes;
    }
    std::vector<const sema::Definition*> defs;
    for (const auto& def : ct_.oracle) defs.push_back(&def);
    for (const auto& def : ct_.tolerance) defs.push_back(&def);
    for (const auto* def : defs) {
      std::vector<bool> axes;
      for (const auto& e : def->extents) {
        if (mentions(*e, d_) && !isDim(*e, d_)) return false;
        axes.push_back(isDim(*e, d_));
      }
      if (!axes_.count(def->name)) axes_[def->name] = axes;
    }
    for (const auto* def : defs) {
      std::set<std::string> scope;
      for (size_t k = 0; k < def->indices.size(); ++k)
        if (k < def->extents.size() && isDim(*def->extents[k], d_)) scope.insert(def->indices[k]);
      if (!ok(*def->value, scope)) return false;
    }
    for (const auto& c : ct_.pre)
      if (!ok(*c.expr, {})) return false;
    for (const auto& c : ct_.post)
      if (!ok(*c.expr, {})) return false;
    return true;
  }

 private:
  // `dimVars`: the index variables in scope that range over the whole dim.
  bool ok(const Node& n, std::set<std::string> dimVars) {
    switch (n.op) {
      case Op::Dim:
        return n.name != d_;  // the dim's value used in arithmetic or as a bound
      case Op::IndexVar:
        return !dimVars.count(n.name);  // a dim variable anywhere but a plain index
      case Op::TensorWhole:
        return !hasDimAxis(n.name);  // a statistic over every cell of the dim
      case Op::TensorRead: {
        auto it = axes_.find(n.name);
        for (size_t k = 0; k < n.kids.size(); ++k) {
          bool dimAxis = it != axes_.end() && k < it->second.size() && it->second[k];
          const Node& idx = *n.kids[k];
          if (dimAxis) {
            if (idx.op != Op::IndexVar || !dimVars.count(idx.name)) return false;
          } else if (!ok(idx, dimVars)) {
            return false;
          }
        }
        return true;
      }
      case Op::Reduce: {
        if (!n.vars.empty()) dimVars.erase(n.vars[0]);
        for (const auto& k : n.kids)
          if (!ok(*k, dimVars)) return false;
        return true;
      }
      case Op::Quantifier: {
        // kids: lo0, hi0, lo1, hi1, ..., body. A variable over 0..dim-1 is a dim variable.
        size_t nv = n.vars.size();
        for (size_t v = 0; v < nv; ++v) {
          const Node& lo = *n.kids[2 * v];
          const Node& hi = *n.kids[2 * v + 1];
          // Bounds are inclusive: hi is `dim - 1`.
          bool whole = lo.op == Op::ConstInt && lo.i == 0 && hi.op == Op::Sub && hi.kids.size() == 2 &&
                       isDim(*hi.kids[0], d_) && hi.kids[1]->op == Op::ConstInt && hi.kids[1]->i == 1;
          if (whole) {
            dimVars.insert(n.vars[v]);
          } else {
            dimVars.erase(n.vars[v]);
            if (!ok(lo, dimVars) || !ok(hi, dimVars)) return false;
          }
        }
        return n.kids.size() > 2 * nv ? ok(*n.kids[2 * nv], dimVars) : true;
      }
      default:
        for (const auto& k : n.kids)
          if (!ok(*k, dimVars)) return false;
        return true;
    }
  }

  bool hasDimAxis(const std::string& tensor) const {
    auto it = axes_.find(tensor);
    return it != axes_.end() && std::find(it->second.begin(), it->second.end(), true) != it->second.end();
  }

  const sema::ContractInfo& ct_;
  std::string d_;
  std::map<std::string, std::vector<bool>> axes_;  // tensor or definition -> which axes are the dim
};

}  // namespace

std::vector<std::string> freeDims(const sema::ContractInfo& ct) {
  std::vector<std::string> out;
  if (!ct.kernel) return out;
  for (const auto& d : ct.kernel->dims)
    if (FreeDimCheck(ct, d.name).run()) out.push_back(d.name);
  return out;
}

std::vector<int64_t> sampleCoordinates(int64_t n, int64_t budget, uint64_t seed, const std::string& dim) {
  std::set<int64_t> picked;
  for (int64_t c : {int64_t{0}, int64_t{1}, n / 2, n - 2, n - 1, (int64_t{1} << 31) - 1, int64_t{1} << 31,
                    (int64_t{1} << 32) - 1, int64_t{1} << 32})
    if (c >= 0 && c < n) picked.insert(c);
  // The dim's name keys the stream, so two free dims of one case draw unrelated coordinates.
  uint64_t h = 1469598103934665603ull;
  for (char ch : dim) h = (h ^ static_cast<uint8_t>(ch)) * 1099511628211ull;
  values::PhiloxKey key = values::streamKey(seed, h);
  for (uint64_t i = 0; static_cast<int64_t>(picked.size()) < std::min(n, budget) && i < 64 * static_cast<uint64_t>(budget) + 64; ++i) {
    values::PhiloxCounter w = values::philox4x32_10({static_cast<uint32_t>(i), static_cast<uint32_t>(i >> 32), 3, 0}, key);
    picked.insert(static_cast<int64_t>(values::scaleToRange(values::joinWords(w[0], w[1]), static_cast<uint64_t>(n))));
  }
  return {picked.begin(), picked.end()};
}

std::vector<int64_t> SubProblem::fullIndex(size_t arg, const std::vector<int64_t>& sub) const {
  std::vector<int64_t> full = sub;
  for (size_t k = 0; k < full.size() && k < axisDim[arg].size(); ++k)
    if (!axisDim[arg][k].empty()) full[k] = coords.at(axisDim[arg][k])[static_cast<size_t>(sub[k])];
  return full;
}

SubProblem restrict(const sema::ContractInfo& ct, const CaseSetup& full,
                    const std::map<std::string, std::vector<int64_t>>& coords) {
  SubProblem p;
  p.setup = full;
  p.coords = coords;
  for (const auto& [d, list] : coords) p.setup.dims[d] = static_cast<int64_t>(list.size());
  for (size_t a = 0; a < full.args.size(); ++a) {
    ArgSpec& s = p.setup.args[a];
    const sema::TensorInfo& t = ct.kernel->tensors.at(a);
    std::vector<std::string> axes(s.shape.size());
    for (size_t k = 0; k < s.shape.size() && k < t.shape.size(); ++k)
      if (t.shape[k]->op == Op::Dim && coords.count(t.shape[k]->name)) {
        axes[k] = t.shape[k]->name;
        s.shape[k] = static_cast<int64_t>(coords.at(axes[k]).size());
      }
    p.axisDim.push_back(axes);
    // Contiguous: the gathered cells are packed row-major.
    int64_t stride = 1;
    s.strides.assign(s.shape.size(), 1);
    for (size_t k = s.shape.size(); k-- > 0;) {
      s.strides[k] = stride;
      stride *= s.shape[k];
    }
    s.offset = 0;
    s.storage = s.shape.empty() ? 1 : stride;
    s.layout = "contiguous";
  }
  return p;
}

}  // namespace kc::run

#pragma once
// Chosen cells of definitions, one at a time, for the domains that do not compute whole
// tensors (MPFR, intervals): each definition is prepared when first read, a read of a
// definition evaluates that definition's cell in the same domain (memoised), and a
// reduction is cached by its key slots' values (a map here, not the env: values need not
// fit in 64 bits). The base of those domains (D derives from CellOracle<D, V>); D provides
// fromDouble(double), the exact value of an input or output element.
#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "checker/oracle/walker.h"
#include "compiler/ir/eval.h"

namespace kc::oracle::detail {

template <class D, class V>
class CellOracle {
 public:
  // `f64` supplies the dims and the f64 values that prepare needs (whole-tensor statistics).
  CellOracle(const sema::ContractInfo& ct, const Bindings& b, const OracleResult& f64) : f64_(f64) {
    ctx_.ct = &ct;
    ctx_.dims = &f64.dims;
    ctx_.bindings = &b;
    ctx_.computed = &f64;
    ctx_.defs = allDefinitions(ct);
    ctx_.requireTensors = false;
    states_.resize(ctx_.defs.size());
  }

  // The number of definition `name`, an oracle one before a tolerance one.
  int defNumber(const std::string& name) const {
    for (bool tol : {false, true})
      for (size_t k = 0; k < ctx_.defs.size(); ++k)
        if (ctx_.defs[k].tolerance == tol && ctx_.defs[k].def->name == name) return static_cast<int>(k);
    throw EvalError("no definition '" + name + "'");
  }

  // The value of one cell of definition `def`.
  V cell(int def, const Cell& idx) {
    auto key = std::make_pair(def, idx);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const State& s = state(def);
    const std::string& name = ctx_.defs[static_cast<size_t>(def)].def->name;
    if (idx.size() != s.shape.size()) throw EvalError("wrong number of indices for '" + name + "'");
    for (size_t k = 0; k < idx.size(); ++k)
      if (idx[k] < 0 || idx[k] >= s.shape[k])
        throw EvalError("'" + name + "' read at index " + std::to_string(idx[k]) + " outside 0.." +
                        std::to_string(s.shape[k] - 1));
    std::vector<int64_t> env(static_cast<size_t>(s.p.slots) + 1, 0);
    std::copy(idx.begin(), idx.end(), env.begin());
    V v = Walker<D>(self()).real(s.p.root, env.data());
    memo_.emplace(std::move(key), v);
    return v;
  }

  // A tensor read: a definition's cell in this domain, or an input's (output's) element.
  V read(const PNode& n, int64_t* env) {
    Cell idx;
    idx.reserve(n.kids.size());
    for (const auto& k : n.kids) idx.push_back(evalInt(k, env));
    if (n.def >= 0) return cell(n.def, idx);
    try {
      return self().fromDouble(n.tensor->at(idx));
    } catch (const std::out_of_range& e) {
      throw EvalError("'" + *n.name + "': " + e.what());
    }
  }

  template <class F>
  V memoReduce(const PNode& n, int64_t* env, F compute) {
    std::pair<const PNode*, std::vector<int64_t>> key{&n, {}};
    for (int s : n.keys) key.second.push_back(env[s]);
    if (auto it = reduceCache_.find(key); it != reduceCache_.end()) return it->second;
    V v = compute();
    reduceCache_.emplace(std::move(key), v);
    return v;
  }

 protected:
  // The extents of a definition (its cells are read through cell()).
  const std::vector<int64_t>& shape(int def) { return state(def).shape; }

 private:
  struct State {
    bool ready = false;
    Prepared p;
    std::vector<int64_t> shape;
  };

  D& self() { return static_cast<D&>(*this); }

  const State& state(int def) {
    State& s = states_[static_cast<size_t>(def)];
    if (s.ready) return s;
    const sema::Definition& d = *ctx_.defs[static_cast<size_t>(def)].def;
    PrepareContext ctx = ctx_;
    ctx.visible = static_cast<size_t>(def);
    s.p = prepare(*d.value, ctx, d.indices);
    ir::IntEnv intEnv(f64_.dims.begin(), f64_.dims.end());
    for (const auto& e : d.extents) {
      auto v = ir::evalInt(*e, intEnv);
      if (!v || *v < 0) throw EvalError("the extent of definition '" + d.name + "' cannot be evaluated");
      s.shape.push_back(*v);
    }
    s.ready = true;
    return s;
  }

  const OracleResult& f64_;
  PrepareContext ctx_;
  std::vector<State> states_;  // never resized: the domains key caches by nodes inside it
  std::map<std::pair<int, Cell>, V> memo_;
  std::map<std::pair<const PNode*, std::vector<int64_t>>, V> reduceCache_;
};

}  // namespace kc::oracle::detail

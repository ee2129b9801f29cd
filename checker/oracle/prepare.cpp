// prepare: the IR with names resolved once (index variables to env slots, dims to values,
// tensors to pointers, statistics and constant dtype queries to numbers), shared by every
// domain of the walker (walker.h).
#include <cmath>
#include <map>

#include "checker/oracle/evaluator.h"
#include "stdlib/numerics/error_bounds.h"

namespace kc::oracle::detail {

using ir::Op;
using ir::Type;

std::vector<DefRef> allDefinitions(const sema::ContractInfo& ct) {
  std::vector<DefRef> out;
  for (const auto& d : ct.oracle) out.push_back({&d, false});
  for (const auto& d : ct.tolerance) out.push_back({&d, true});
  return out;
}

namespace {

Fn callFn(const std::string& s) {
  static const std::map<std::string, Fn> table = {
      {"exp", Fn::Exp},     {"exp2", Fn::Exp2},       {"log", Fn::Log},       {"log2", Fn::Log2},
      {"log10", Fn::Log10}, {"sqrt", Fn::Sqrt},       {"rsqrt", Fn::Rsqrt},   {"tanh", Fn::Tanh},
      {"erf", Fn::Erf},     {"sin", Fn::Sin},         {"cos", Fn::Cos},       {"sigmoid", Fn::Sigmoid},
      {"floor", Fn::Floor}, {"ceil", Fn::Ceil},       {"fmax", Fn::Fmax},     {"fmin", Fn::Fmin},
      {"isnan", Fn::IsNan}, {"isinf", Fn::IsInf},     {"isfinite", Fn::IsFinite},
      {"eps", Fn::Eps},     {"unit_roundoff", Fn::UnitRoundoff}, {"min_normal", Fn::MinNormal},
      {"max_finite", Fn::MaxFinite}, {"ulp", Fn::Ulp}, {"gamma", Fn::Gamma},
      {"sum", Fn::Sum},     {"prod", Fn::Prod},       {"max", Fn::Max},       {"min", Fn::Min},
  };
  auto it = table.find(s);
  if (it == table.end()) throw EvalError("unknown function or reducer '" + s + "'");
  return it->second;
}

const Tensor* findTensor(const std::map<std::string, Tensor>& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? nullptr : &it->second;
}

struct Preparer {
  const PrepareContext& ctx;
  std::vector<std::pair<std::string, int>> scope;
  int slots = 0;

  int bind(const std::string& name) {
    scope.emplace_back(name, slots);
    return slots++;
  }

  // The definition a Local or Oracle read names, by number; -1 if none is visible.
  int findDef(const std::string& name, ir::Role role) const {
    auto search = [&](bool tolerance) {
      for (size_t k = 0; k < ctx.defs.size() && k < ctx.visible; ++k)
        if (ctx.defs[k].tolerance == tolerance && ctx.defs[k].def->name == name) return static_cast<int>(k);
      return -1;
    };
    if (role == ir::Role::Oracle) return search(false);
    int k = search(true);
    return k >= 0 ? k : search(false);
  }

  const Tensor* tensorOf(const ir::Node& n, int& def) {
    def = -1;
    const Bindings& b = *ctx.bindings;
    if (n.role == ir::Role::Input || n.role == ir::Role::Output) {
      const Tensor* t = findTensor(n.role == ir::Role::Input ? b.inputs : b.outputs, n.name);
      if (!t) throw EvalError(std::string("no ") + ir::roleName(n.role) + " tensor '" + n.name + "' is bound");
      return t;
    }
    def = findDef(n.name, n.role);
    if (def < 0) throw EvalError("'" + n.name + "' reads a definition that is not defined before it");
    const Tensor* t = nullptr;
    if (ctx.computed) t = findTensor(ctx.defs[def].tolerance ? ctx.computed->tolerance : ctx.computed->oracle, n.name);
    if (!t && ctx.requireTensors) throw EvalError("definition '" + n.name + "' is read before it is computed");
    return t;
  }

  numerics::DType dtypeOf(const ir::Node& n) {
    if (n.op == Op::DTypeConst) {
      auto t = numerics::parseDType(n.name);
      if (!t) throw EvalError("unknown dtype '" + n.name + "'");
      return *t;
    }
    if (n.op == Op::DTypeVar) {
      auto it = ctx.bindings->dtypes.find(n.name);
      if (it == ctx.bindings->dtypes.end()) throw EvalError("dtype variable '" + n.name + "' is not bound");
      return it->second;
    }
    throw EvalError("expected a dtype");
  }

  // The slots a node depends on (bit mask; `unknown` past slot 63); gives each reduction
  // a cache in the env from `next` on.
  std::pair<uint64_t, bool> analyse(PNode& p, int& next) {
    uint64_t m = 0;
    bool unknown = false;
    for (auto& k : p.kids) {
      auto [km, ku] = analyse(k, next);
      m |= km;
      unknown = unknown || ku;
    }
    auto clear = [&](int first, size_t count) {
      for (size_t k = 0; k < count; ++k)
        if (first + static_cast<int>(k) < 64) m &= ~(uint64_t{1} << (first + static_cast<int>(k)));
    };
    if (p.op == Op::IndexVar) {
      if (p.slot < 64) m |= uint64_t{1} << p.slot;
      else unknown = true;
    } else if (p.op == Op::Reduce) {
      clear(p.slot, 1);
      if (!unknown) {
        p.cache = next;
        for (int b = 0; b < 64; ++b)
          if (m & (uint64_t{1} << b)) p.keys.push_back(b);
        next += 2 + static_cast<int>(p.keys.size());
      }
    } else if (p.op == Op::Quantifier) {
      clear(p.slot, (p.kids.size() - 1) / 2);
    }
    return {m, unknown};
  }

  PNode go(const ir::Node& n) {
    PNode p;
    p.op = n.op;
    p.type = n.type;
    p.b = n.b;
    switch (n.op) {
      case Op::ConstInt: p.i = n.i; return p;
      case Op::ConstReal: p.d = n.d; p.text = &n.text; return p;
      case Op::ConstBool: return p;
      case Op::DTypeConst: case Op::DTypeVar: p.dtype = dtypeOf(n); return p;
      case Op::Dim: {
        auto it = ctx.dims->find(n.name);
        if (it == ctx.dims->end()) throw EvalError("dim '" + n.name + "' is not bound");
        p.i = it->second;
        return p;
      }
      case Op::IndexVar: {
        for (size_t k = scope.size(); k-- > 0;)
          if (scope[k].first == n.name) {
            p.slot = scope[k].second;
            return p;
          }
        throw EvalError("index variable '" + n.name + "' is not bound");
      }
      case Op::TensorRead: {
        p.tensor = tensorOf(n, p.def);
        p.name = &n.name;
        if (p.tensor && p.tensor->rank() != n.kids.size())
          throw EvalError("'" + n.name + "' has rank " + std::to_string(p.tensor->rank()) + " but is read with " +
                          std::to_string(n.kids.size()) + " indices");
        break;
      }
      case Op::TensorWhole: throw EvalError("a whole tensor outside a statistic");
      case Op::TensorStat: {
        const ir::Node& w = *n.kids.at(0);
        int def = -1;
        const Tensor* t = tensorOf(w, def);
        if (!t) throw EvalError("a statistic of '" + w.name + "' needs its f64 values");
        p.fn = callFn(n.name);
        // The tensor stays named (an input or output; or the definition's number) for the
        // interval domain, which computes the statistic over enclosures.
        p.tensor = t;
        p.def = def;
        p.name = &w.name;
        p.d = statistic(n.name, *t);
        return p;
      }
      case Op::Call: p.fn = callFn(n.name); break;
      case Op::DTypeQuery: {
        p.fn = callFn(n.name);
        for (auto& k : n.kids) p.kids.push_back(go(*k));
        p.dtype = p.fn == Fn::Gamma ? p.kids.at(1).dtype : p.kids.at(0).dtype;
        if (!numerics::isFloat(p.dtype)) throw EvalError(n.name + " of a dtype that is not a float format");
        switch (p.fn) {
          case Fn::Eps: p.d = numerics::eps(p.dtype); break;
          case Fn::UnitRoundoff: p.d = numerics::unitRoundoff(p.dtype); break;
          case Fn::MinNormal: p.d = numerics::minNormal(p.dtype); break;
          case Fn::MaxFinite: p.d = numerics::maxFinite(p.dtype); break;
          default: break;
        }
        return p;
      }
      case Op::RoundTo:
        for (auto& k : n.kids) p.kids.push_back(go(*k));
        p.dtype = p.kids.at(0).dtype;
        return p;
      case Op::Reduce: {
        p.fn = callFn(n.name);
        p.kids.push_back(go(*n.kids.at(0)));
        p.kids.push_back(go(*n.kids.at(1)));
        p.slot = bind(n.vars.at(0));
        p.kids.push_back(go(*n.kids.at(2)));
        scope.pop_back();
        return p;
      }
      case Op::Quantifier: {
        // The variables take consecutive slots; bounds may name earlier variables of the
        // same quantifier, so each is bound after its own bounds are prepared.
        p.slot = slots;
        slots += static_cast<int>(n.vars.size());
        for (size_t k = 0; k < n.vars.size(); ++k) {
          p.kids.push_back(go(*n.kids.at(2 * k)));
          p.kids.push_back(go(*n.kids.at(2 * k + 1)));
          scope.emplace_back(n.vars[k], p.slot + static_cast<int>(k));
        }
        p.kids.push_back(go(*n.kids.at(2 * n.vars.size())));
        for (size_t k = 0; k < n.vars.size(); ++k) scope.pop_back();
        return p;
      }
      default: break;
    }
    for (auto& k : n.kids) p.kids.push_back(go(*k));
    if (ir::isComparison(n.op)) {
      Type a = n.kids.at(0)->type, b = n.kids.at(1)->type;
      p.cmp = (a == Type::Int && b == Type::Int) ? CmpMode::Int
              : a == Type::DType                 ? CmpMode::DType
              : a == Type::Bool                  ? CmpMode::Bool
                                                 : CmpMode::Real;
    }
    return p;
  }
};

}  // namespace

Prepared prepare(const ir::Node& n, const PrepareContext& ctx, const std::vector<std::string>& bound) {
  Preparer pr{ctx, {}, 0};
  for (const auto& v : bound) pr.bind(v);
  Prepared out;
  out.root = pr.go(n);
  // Variable slots are never reused; the reductions' caches follow them.
  out.slots = pr.slots;
  pr.analyse(out.root, out.slots);
  return out;
}

}  // namespace kc::oracle::detail

namespace kc::oracle {

double statistic(const std::string& fn, const Tensor& t) {
  if (fn != "sum" && fn != "max" && fn != "min") throw EvalError("unknown statistic '" + fn + "'");
  const bool sum = fn == "sum", max = fn == "max";
  double acc = sum ? 0.0 : max ? -INFINITY : INFINITY;
  for (double v : t.data) {
    if (std::isnan(v) || std::isnan(acc)) {
      acc = NAN;
      if (!sum) break;
      continue;
    }
    if (sum) acc += v;
    else if (max) acc = v > acc ? v : acc;
    else acc = v < acc ? v : acc;
  }
  return acc;
}

}  // namespace kc::oracle

// The f64 oracle evaluator: prepare (resolve names once), then interpret per cell.
#include "checker/oracle/evaluator.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>

#include "checker/oracle/contraction.h"
#include "compiler/ir/eval.h"
#include "stdlib/numerics/error_bounds.h"
#include "stdlib/numerics/rounding.h"

namespace kc::oracle {

using ir::Op;
using ir::Type;

namespace detail {

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
        double acc = p.fn == Fn::Sum ? 0.0 : p.fn == Fn::Max ? -INFINITY : INFINITY;
        for (double v : t->data) {
          if (std::isnan(v) || std::isnan(acc)) { acc = NAN; if (p.fn != Fn::Sum) break; continue; }
          if (p.fn == Fn::Sum) acc += v;
          else if (p.fn == Fn::Max) acc = v > acc ? v : acc;
          else if (p.fn == Fn::Min) acc = v < acc ? v : acc;
          else throw EvalError("unknown statistic '" + n.name + "'");
        }
        p.d = acc;
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

[[noreturn]] void overflow() { throw EvalError("integer overflow"); }

int64_t readOffset(const PNode& n, int64_t* env) {
  if (!n.tensor) throw EvalError("'" + *n.name + "' has no f64 values");
  const Tensor& t = *n.tensor;
  int64_t off = 0;
  for (size_t k = 0; k < n.kids.size(); ++k) {
    const PNode& kid = n.kids[k];
    int64_t i = kid.op == Op::IndexVar ? env[kid.slot] : evalInt(kid, env);  // most subscripts: no call
    if (i < 0 || i >= t.shape[k])
      throw EvalError("'" + *n.name + "' read at index " + std::to_string(i) + " outside 0.." +
                      std::to_string(t.shape[k] - 1));
    off += i * t.strides[k];
  }
  return off;
}

inline double nanMax(double a, double b) { return (std::isnan(a) || std::isnan(b)) ? NAN : (a > b ? a : b); }
inline double nanMin(double a, double b) { return (std::isnan(a) || std::isnan(b)) ? NAN : (a < b ? a : b); }

bool quantify(const PNode& n, int64_t* env, size_t level) {
  size_t nv = (n.kids.size() - 1) / 2;
  if (level == nv) return evalBool(n.kids.back(), env);
  int64_t lo = evalInt(n.kids[2 * level], env), hi = evalInt(n.kids[2 * level + 1], env);
  int slot = n.slot + static_cast<int>(level);
  for (int64_t i = lo; i <= hi; ++i) {
    env[slot] = i;
    bool v = quantify(n, env, level + 1);
    if (n.b && !v) return false;
    if (!n.b && v) return true;
  }
  return n.b;
}

// The cached value's cell when the key slots hold the values it was computed for.
int64_t* cacheHit(const PNode& n, int64_t* env) {
  int64_t* c = env + n.cache;
  if (c[0] == 0) return nullptr;
  for (size_t k = 0; k < n.keys.size(); ++k)
    if (c[1 + k] != env[n.keys[k]]) return nullptr;
  return c + 1 + n.keys.size();
}

// Records the key slots' values; returns the cell the value goes to.
int64_t* cacheStore(const PNode& n, int64_t* env) {
  int64_t* c = env + n.cache;
  c[0] = 1;
  for (size_t k = 0; k < n.keys.size(); ++k) c[1 + k] = env[n.keys[k]];
  return c + 1 + n.keys.size();
}

int64_t reduceInt(const PNode& n, int64_t* env);
double reduceReal(const PNode& n, int64_t* env);

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

int64_t evalInt(const PNode& n, int64_t* env) {
  switch (n.op) {
    case Op::ConstInt: case Op::Dim: return n.i;
    case Op::IndexVar: return env[n.slot];
    case Op::Neg: {
      int64_t a = evalInt(n.kids[0], env);
      if (a == INT64_MIN) overflow();
      return -a;
    }
    case Op::Abs: {
      int64_t a = evalInt(n.kids[0], env);
      if (a == INT64_MIN) overflow();
      return a < 0 ? -a : a;
    }
    case Op::Add: case Op::Sub: case Op::Mul: case Op::Mod: case Op::Pow: {
      int64_t a = evalInt(n.kids[0], env), b = evalInt(n.kids[1], env), r = 0;
      switch (n.op) {
        case Op::Add: if (__builtin_add_overflow(a, b, &r)) overflow(); return r;
        case Op::Sub: if (__builtin_sub_overflow(a, b, &r)) overflow(); return r;
        case Op::Mul: if (__builtin_mul_overflow(a, b, &r)) overflow(); return r;
        case Op::Mod: if (b == 0) throw EvalError("integer modulo by zero"); return a % b;
        default: {
          if (b < 0) throw EvalError("negative integer exponent");
          auto v = ir::intPow(a, b);
          if (!v) overflow();
          return *v;
        }
      }
    }
    case Op::Select: return evalBool(n.kids[0], env) ? evalInt(n.kids[1], env) : evalInt(n.kids[2], env);
    case Op::Reduce: {
      int64_t* c = n.cache >= 0 ? cacheHit(n, env) : nullptr;
      if (c) return *c;
      int64_t v = reduceInt(n, env);
      if (n.cache >= 0) *cacheStore(n, env) = v;
      return v;
    }
    default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as an integer");
  }
}

namespace {

int64_t reduceInt(const PNode& n, int64_t* env) {
  int64_t lo = evalInt(n.kids[0], env), hi = evalInt(n.kids[1], env);
  int64_t acc = n.fn == Fn::Sum ? 0 : n.fn == Fn::Prod ? 1 : n.fn == Fn::Max ? INT64_MIN : INT64_MAX;
  for (int64_t i = lo; i <= hi; ++i) {
    env[n.slot] = i;
    int64_t v = evalInt(n.kids[2], env);
    switch (n.fn) {
      case Fn::Sum: if (__builtin_add_overflow(acc, v, &acc)) overflow(); break;
      case Fn::Prod: if (__builtin_mul_overflow(acc, v, &acc)) overflow(); break;
      case Fn::Max: acc = v > acc ? v : acc; break;
      default: acc = v < acc ? v : acc; break;
    }
  }
  return acc;
}

}  // namespace

double evalReal(const PNode& n, int64_t* env) {
  if (n.type == Type::Int) return static_cast<double>(evalInt(n, env));
  if (n.type == Type::Bool) return evalBool(n, env) ? 1.0 : 0.0;
  switch (n.op) {
    case Op::ConstReal: case Op::TensorStat: return n.d;
    case Op::ConstInt: return static_cast<double>(n.i);
    case Op::TensorRead: return n.tensor->data[static_cast<size_t>(readOffset(n, env))];
    case Op::Neg: return -evalReal(n.kids[0], env);
    case Op::Abs: return std::fabs(evalReal(n.kids[0], env));
    case Op::Add: return evalReal(n.kids[0], env) + evalReal(n.kids[1], env);
    case Op::Sub: return evalReal(n.kids[0], env) - evalReal(n.kids[1], env);
    case Op::Mul: return evalReal(n.kids[0], env) * evalReal(n.kids[1], env);
    case Op::Div: return evalReal(n.kids[0], env) / evalReal(n.kids[1], env);
    case Op::Pow: return std::pow(evalReal(n.kids[0], env), evalReal(n.kids[1], env));
    case Op::Select: return evalBool(n.kids[0], env) ? evalReal(n.kids[1], env) : evalReal(n.kids[2], env);
    case Op::Call: {
      double x = evalReal(n.kids[0], env);
      switch (n.fn) {
        case Fn::Exp: return std::exp(x);
        case Fn::Exp2: return std::exp2(x);
        case Fn::Log: return std::log(x);
        case Fn::Log2: return std::log2(x);
        case Fn::Log10: return std::log10(x);
        case Fn::Sqrt: return std::sqrt(x);
        case Fn::Rsqrt: return 1.0 / std::sqrt(x);
        case Fn::Tanh: return std::tanh(x);
        case Fn::Erf: return std::erf(x);
        case Fn::Sin: return std::sin(x);
        case Fn::Cos: return std::cos(x);
        case Fn::Sigmoid: return 1.0 / (1.0 + std::exp(-x));
        case Fn::Floor: return std::floor(x);
        case Fn::Ceil: return std::ceil(x);
        case Fn::Fmax: return nanMax(x, evalReal(n.kids[1], env));
        case Fn::Fmin: return nanMin(x, evalReal(n.kids[1], env));
        default: throw EvalError("function does not give a real");
      }
    }
    case Op::DTypeQuery:
      switch (n.fn) {
        case Fn::Ulp: return numerics::ulp(n.dtype, evalReal(n.kids[1], env));
        case Fn::Gamma: {
          int64_t k = evalInt(n.kids[0], env);
          if (k < 0) throw EvalError("gamma of a negative count");
          return numerics::gamma(static_cast<uint64_t>(k), n.dtype);
        }
        default: return n.d;
      }
    case Op::RoundTo: return numerics::roundTo(n.dtype, evalReal(n.kids[1], env));
    case Op::Reduce: {
      if (n.cache >= 0) {
        double v;
        if (int64_t* c = cacheHit(n, env)) {
          std::memcpy(&v, c, sizeof v);
          return v;
        }
        v = reduceReal(n, env);
        std::memcpy(cacheStore(n, env), &v, sizeof v);
        return v;
      }
      return reduceReal(n, env);
    }
    default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a real");
  }
}

namespace {

double reduceReal(const PNode& n, int64_t* env) {
  int64_t lo = evalInt(n.kids[0], env), hi = evalInt(n.kids[1], env);
  const PNode& body = n.kids[2];
  double acc = n.fn == Fn::Sum ? 0.0 : n.fn == Fn::Prod ? 1.0 : n.fn == Fn::Max ? -INFINITY : INFINITY;
  switch (n.fn) {
    case Fn::Sum: for (int64_t i = lo; i <= hi; ++i) { env[n.slot] = i; acc += evalReal(body, env); } break;
    case Fn::Prod: for (int64_t i = lo; i <= hi; ++i) { env[n.slot] = i; acc *= evalReal(body, env); } break;
    case Fn::Max: for (int64_t i = lo; i <= hi; ++i) { env[n.slot] = i; acc = nanMax(acc, evalReal(body, env)); } break;
    case Fn::Min: for (int64_t i = lo; i <= hi; ++i) { env[n.slot] = i; acc = nanMin(acc, evalReal(body, env)); } break;
    default: throw EvalError("unknown reducer");
  }
  return acc;
}

}  // namespace

bool evalBool(const PNode& n, int64_t* env) {
  switch (n.op) {
    case Op::ConstBool: return n.b;
    case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
      const PNode& a = n.kids[0];
      const PNode& b = n.kids[1];
      int c = 0;  // -1, 0, 1; 2 unordered
      switch (n.cmp) {
        case CmpMode::Int: {
          int64_t x = evalInt(a, env), y = evalInt(b, env);
          c = x < y ? -1 : x > y ? 1 : 0;
          break;
        }
        case CmpMode::DType: c = a.dtype == b.dtype ? 0 : 2; break;
        case CmpMode::Bool: c = evalBool(a, env) == evalBool(b, env) ? 0 : 2; break;
        case CmpMode::Real: {
          double x = evalReal(a, env), y = evalReal(b, env);
          c = x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
          break;
        }
      }
      switch (n.op) {
        case Op::Lt: return c == -1;
        case Op::Le: return c == -1 || c == 0;
        case Op::Gt: return c == 1;
        case Op::Ge: return c == 1 || c == 0;
        case Op::Eq: return c == 0;
        default: return c != 0;
      }
    }
    case Op::Not: return !evalBool(n.kids[0], env);
    case Op::And: return evalBool(n.kids[0], env) && evalBool(n.kids[1], env);
    case Op::Or: return evalBool(n.kids[0], env) || evalBool(n.kids[1], env);
    case Op::Implies: return !evalBool(n.kids[0], env) || evalBool(n.kids[1], env);
    case Op::Select: return evalBool(n.kids[0], env) ? evalBool(n.kids[1], env) : evalBool(n.kids[2], env);
    case Op::Call: {
      double x = evalReal(n.kids[0], env);
      switch (n.fn) {
        case Fn::IsNan: return std::isnan(x);
        case Fn::IsInf: return std::isinf(x);
        case Fn::IsFinite: return std::isfinite(x);
        default: throw EvalError("function does not give a Bool");
      }
    }
    case Op::Quantifier: return quantify(n, env, 0);
    default: throw EvalError(std::string("cannot evaluate '") + ir::opName(n.op) + "' as a Bool");
  }
}

}  // namespace detail

std::map<std::string, int64_t> resolveDims(const sema::ContractInfo& ct, const Bindings& b) {
  std::map<std::string, int64_t> dims = b.dims;
  if (!ct.kernel) return dims;
  auto infer = [&](const std::map<std::string, Tensor>& tensors) {
    for (const auto& t : ct.kernel->tensors) {
      auto it = tensors.find(t.name);
      if (it == tensors.end() || it->second.rank() != t.rank()) continue;
      for (size_t k = 0; k < t.shape.size(); ++k) {
        const ir::Node& e = *t.shape[k];
        if (e.op != Op::Dim) continue;
        auto [pos, inserted] = dims.emplace(e.name, it->second.shape[k]);
        if (!inserted && pos->second != it->second.shape[k])
          throw EvalError("dim '" + e.name + "' is " + std::to_string(pos->second) + " but '" + t.name +
                          "' has extent " + std::to_string(it->second.shape[k]));
      }
    }
  };
  infer(b.inputs);
  infer(b.outputs);
  return dims;
}

namespace {

using detail::PNode;

// Computes one definition into a tensor, the outer index split over threads; counts the
// contractions done by BLAS.
Tensor computeDefinition(const sema::Definition& def, const detail::PrepareContext& ctx, const EvalOptions& opts,
                         unsigned& contractions) {
  const unsigned threads = opts.threads;
  std::vector<int64_t> shape;
  ir::IntEnv intEnv(ctx.dims->begin(), ctx.dims->end());
  for (const auto& e : def.extents) {
    auto v = ir::evalInt(*e, intEnv);
    if (!v || *v < 0) throw EvalError("the extent of definition '" + def.name + "' cannot be evaluated");
    shape.push_back(*v);
  }
  detail::Prepared p = detail::prepare(*def.value, ctx, def.indices);
  std::deque<Tensor> products;  // contraction results the prepared tree reads
  if (opts.blas) contractions = detail::applyContractions(p.root, shape, products, threads);
  if (const Tensor* whole = products.empty() ? nullptr : detail::wholeTensorRead(p.root, shape)) {
    for (auto& t : products)
      if (&t == whole) return std::move(t);
    return *whole;
  }
  Tensor out(shape);
  const size_t rank = shape.size();
  if (rank == 0) {
    std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
    out.data[0] = detail::evalReal(p.root, env.data());
    return out;
  }
  if (out.numel() == 0) return out;
  const int64_t n0 = shape[0];
  const int64_t inner = out.numel() / n0;
  auto work = [&](int64_t begin, int64_t end) {
    std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
    for (int64_t i0 = begin; i0 < end; ++i0) {
      for (size_t k = 1; k < rank; ++k) env[k] = 0;
      env[0] = i0;
      double* dst = out.data.data() + i0 * inner;
      for (int64_t c = 0; c < inner; ++c) {
        dst[c] = detail::evalReal(p.root, env.data());
        for (size_t k = rank; k-- > 1;) {  // row-major odometer over the inner indices
          if (++env[k] < shape[k]) break;
          env[k] = 0;
        }
      }
    }
  };
  unsigned t = threads == 0 ? 1 : threads;
  if (static_cast<int64_t>(t) > n0) t = static_cast<unsigned>(n0);
  if (t <= 1) {
    work(0, n0);
    return out;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(t);
  for (unsigned w = 0; w < t; ++w) {
    int64_t begin = n0 * w / t, end = n0 * (w + 1) / t;
    pool.emplace_back([&, w, begin, end] {
      try {
        work(begin, end);
      } catch (...) {
        errors[w] = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

}  // namespace

OracleResult evalOracle(const sema::ContractInfo& ct, const Bindings& b, const EvalOptions& opts) {
  OracleResult r;
  r.dims = resolveDims(ct, b);
  detail::PrepareContext ctx;
  ctx.ct = &ct;
  ctx.dims = &r.dims;
  ctx.bindings = &b;
  ctx.computed = &r;
  ctx.defs = detail::allDefinitions(ct);
  for (size_t k = 0; k < ctx.defs.size(); ++k) {
    ctx.visible = k;
    const auto& d = ctx.defs[k];
    unsigned contractions = 0;
    Tensor t = computeDefinition(*d.def, ctx, opts, contractions);
    (d.tolerance ? r.tolerance : r.oracle)[d.def->name] = std::move(t);
    if (contractions) r.contractions[d.def->name] += contractions;
  }
  return r;
}

bool evalCondition(const ir::Node& cond, const sema::ContractInfo& ct, const Bindings& b, const OracleResult& r,
                   std::vector<Cell>* failing, size_t maxFailing, unsigned threads) {
  detail::PrepareContext ctx;
  ctx.ct = &ct;
  ctx.dims = &r.dims;
  ctx.bindings = &b;
  ctx.computed = &r;
  ctx.defs = detail::allDefinitions(ct);
  detail::Prepared p = detail::prepare(cond, ctx, {});
  std::vector<int64_t> env(static_cast<size_t>(p.slots) + 1, 0);
  const PNode& root = p.root;
  if (root.op != Op::Quantifier || !root.b || (!failing && threads <= 1)) return detail::evalBool(root, env.data());
  // A forall: enumerate its variables (the outermost split over threads, in contiguous
  // chunks, so the failing tuples merge back in row-major order) and record where the body
  // fails; without a list, stop at the first failure.
  const size_t nv = (root.kids.size() - 1) / 2;
  const int64_t lo = detail::evalInt(root.kids[0], env.data()), hi = detail::evalInt(root.kids[1], env.data());
  if (hi < lo) return true;
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  const unsigned n = static_cast<unsigned>(std::min<uint64_t>(std::max(1u, threads), span));
  std::vector<std::vector<Cell>> parts(n);
  std::vector<char> holds(n, 1);
  std::vector<std::exception_ptr> errors(n);
  std::atomic<bool> stop{false};
  auto work = [&](unsigned t) {
    try {
      std::vector<int64_t> e = env;
      const int64_t first = lo + static_cast<int64_t>(span * t / n), last = lo + static_cast<int64_t>(span * (t + 1) / n) - 1;
      auto rec = [&](auto&& self, size_t level) -> void {
        if (level == nv) {
          if (!detail::evalBool(root.kids.back(), e.data())) {
            holds[t] = 0;
            if (!failing) stop = true;
            else if (parts[t].size() < maxFailing)
              parts[t].emplace_back(e.begin() + root.slot, e.begin() + root.slot + static_cast<long>(nv));
          }
          return;
        }
        int64_t a = level == 0 ? first : detail::evalInt(root.kids[2 * level], e.data());
        int64_t z = level == 0 ? last : detail::evalInt(root.kids[2 * level + 1], e.data());
        for (int64_t i = a; i <= z && !stop; ++i) {
          e[static_cast<size_t>(root.slot) + level] = i;
          self(self, level + 1);
        }
      };
      rec(rec, 0);
    } catch (...) {
      errors[t] = std::current_exception();
      stop = true;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const auto& err : errors)
    if (err) std::rethrow_exception(err);
  for (const auto& part : parts)
    for (const Cell& c : part)
      if (failing && failing->size() < maxFailing) failing->push_back(c);
  return std::all_of(holds.begin(), holds.end(), [](char h) { return h != 0; });
}

}  // namespace kc::oracle

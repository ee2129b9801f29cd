#include "compiler/obligations/unroll.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "stdlib/numerics/dtype.h"

namespace kc::obl {

using smt::Sort;
using smt::TermPtr;

std::string cellName(const std::string& base, const std::vector<int64_t>& idx) {
  std::string s = base;
  for (int64_t i : idx) s += "_" + (i < 0 ? "m" + std::to_string(-i) : std::to_string(i));
  return s;
}

std::string ReducedShape::describe() const {
  std::string s;
  for (const auto& d : order) {
    if (auto it = fixed.find(d); it != fixed.end())
      s += (s.empty() ? "" : ", ") + d + " = " + std::to_string(it->second);
    else if (auto jt = free.find(d); jt != free.end())
      s += (s.empty() ? "" : ", ") + d + " in " + std::to_string(jt->second.first) + ".." +
           std::to_string(jt->second.second);
  }
  std::string t;
  for (const auto& [v, dt] : dtypes) t += (t.empty() ? "" : ", ") + v + " = " + dt;
  if (!t.empty()) s += (s.empty() ? "" : "; ") + t;
  return s.empty() ? "no dimensions" : s;
}

Unroller::Unroller(const sema::ContractInfo& c, const ReducedShape& shape, smt::Script& script, smt::NameTable& names)
    : c_(c), shape_(shape), script_(script), names_(names) {
  for (const auto& [d, v] : shape.fixed) base_[d] = v;
  script_.sectionOrder = {kDimSection, "the precondition"};
}

std::vector<TermPtr> Unroller::takeFailures() {
  auto out = std::move(failures_);
  failures_.clear();
  watched_ = nullptr;
  return out;
}

const sema::Definition* Unroller::oracleDef(const std::string& name) const {
  for (const auto& d : c_.oracle)
    if (d.name == name) return &d;
  return nullptr;
}

const sema::Definition* Unroller::toleranceDef(const std::string& name) const {
  for (const auto& d : c_.tolerance)
    if (d.name == name) return &d;
  return nullptr;
}

std::string Unroller::dtypeOf(const ir::Node& n) const {
  if (n.op == ir::Op::DTypeConst) return n.name;
  if (n.op == ir::Op::DTypeVar) {
    auto it = shape_.dtypes.find(n.name);
    if (it != shape_.dtypes.end()) return it->second;
    throw Unsupported("the dtype variable " + n.name + " has no binding");
  }
  throw Unsupported("a dtype argument that is not a dtype: " + ir::print(n));
}

ir::IntEnv Unroller::bind(const std::vector<std::string>& vars, const std::vector<int64_t>& idx) const {
  ir::IntEnv env = base_;
  for (size_t k = 0; k < vars.size() && k < idx.size(); ++k) env[vars[k]] = idx[k];
  return env;
}

int64_t Unroller::evalIndex(const ir::Node& n, const ir::IntEnv& env) const {
  ir::IntEnv full = base_;
  for (const auto& [k, v] : env) full[k] = v;
  if (auto v = ir::evalInt(n, full)) return *v;
  throw Unsupported("'" + ir::print(n) + "' has no concrete value at the reduced shape");
}

std::vector<int64_t> Unroller::extents(const sema::Definition& d) {
  std::vector<int64_t> out;
  for (const auto& e : d.extents) out.push_back(evalIndex(*e, {}));
  return out;
}

std::vector<int64_t> Unroller::extents(const sema::TensorInfo& t) {
  std::vector<int64_t> out;
  for (const auto& e : t.shape) out.push_back(evalIndex(*e, {}));
  return out;
}

std::vector<std::vector<int64_t>> Unroller::cells(const std::vector<int64_t>& extents) {
  int64_t total = 1;
  for (int64_t e : extents) {
    if (e <= 0) return {};
    if (__builtin_mul_overflow(total, e, &total) || total > kMaxUnrolled)
      throw Unsupported("more than " + std::to_string(kMaxUnrolled) + " cells at the reduced shape");
  }
  std::vector<std::vector<int64_t>> out;
  std::vector<int64_t> idx(extents.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    out.push_back(idx);
    for (size_t k = extents.size(); k-- > 0;) {
      if (++idx[k] < extents[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

// --- cells -------------------------------------------------------------------------------------

TermPtr Unroller::defCell(const sema::Definition& d, bool oracle, const std::vector<int64_t>& idx) {
  std::string key = std::string(oracle ? "oracle:" : "tolerance:") + cellName(d.name, idx);
  if (auto it = cells_.find(key); it != cells_.end()) return it->second;
  if (!inProgress_.insert(key).second) throw Unsupported("the definition of " + d.name + " refers to itself");
  auto ext = extents(d);
  for (size_t k = 0; k < idx.size() && k < ext.size(); ++k)
    if (idx[k] < 0 || idx[k] >= ext[k])
      throw Unsupported("a read of " + d.name + " outside its extents at the reduced shape");
  // The value first, so that the definitions it needs come before it in the script.
  auto savedGuards = std::move(guards_);
  guards_.clear();
  const ir::Node* savedWatch = watched_;
  watched_ = nullptr;
  TermPtr value = term(*d.value, bind(d.indices, idx));
  watched_ = savedWatch;
  guards_ = std::move(savedGuards);
  std::string printed = names_.symbol(key, cellName(oracle ? d.name + "*" : d.name, idx));
  auto sym = smt::symbol(printed, Sort::Real);
  script_.declareConst(printed, Sort::Real);
  std::string comment;
  if (commented_.insert(std::string(oracle ? "oracle:" : "tolerance:") + d.name).second) {
    comment = d.name;
    if (!d.indices.empty()) {
      comment += "[";
      for (size_t k = 0; k < d.indices.size(); ++k) comment += (k ? ", " : "") + d.indices[k];
      comment += "]";
    }
    comment += " = " + ir::print(*d.value);
  }
  script_.assertTerm(oracle ? kOracleSection : kToleranceSection, comment, smt::mkCmp("=", sym, toReal(value)));
  definitions_[printed] = toReal(value);
  cells_[key] = sym;
  inProgress_.erase(key);
  return sym;
}

TermPtr Unroller::oracleCell(const std::string& name, const std::vector<int64_t>& idx) {
  if (const sema::Definition* d = oracleDef(name)) return defCell(*d, true, idx);
  // An output without an oracle definition: its oracle value is unconstrained.
  std::string key = "oracle:" + cellName(name, idx);
  if (auto it = cells_.find(key); it != cells_.end()) return it->second;
  std::string printed = names_.symbol(key, cellName(name + "*", idx));
  script_.declareConst(printed, Sort::Real);
  return cells_[key] = smt::symbol(printed, Sort::Real);
}

TermPtr Unroller::toleranceCell(const std::string& name, const std::vector<int64_t>& idx) {
  if (const sema::Definition* d = toleranceDef(name)) return defCell(*d, false, idx);
  if (const sema::Definition* d = oracleDef(name)) return defCell(*d, true, idx);
  throw Unsupported("no definition named " + name);
}

TermPtr Unroller::inputCell(const std::string& name, const std::vector<int64_t>& idx) {
  std::string key = "input:" + cellName(name, idx);
  if (auto it = cells_.find(key); it != cells_.end()) return it->second;
  std::string printed = names_.symbol(key, cellName(name, idx));
  script_.declareConst(printed, Sort::Real);
  inputSymbols_.push_back(printed);
  return cells_[key] = smt::symbol(printed, Sort::Real);
}

TermPtr Unroller::outputCell(const std::string& name, const std::vector<int64_t>& idx) {
  std::string key = "output:" + cellName(name, idx);
  if (auto it = cells_.find(key); it != cells_.end()) return it->second;
  std::string printed = names_.symbol(key, cellName(name, idx));
  TermPtr t;
  if (outputModel) {
    t = outputModel(name, idx, printed);
  } else {
    script_.declareConst(printed, Sort::Real);
    t = smt::symbol(printed, Sort::Real);
  }
  return cells_[key] = t;
}

TermPtr Unroller::dim(const std::string& name) {
  if (auto it = shape_.fixed.find(name); it != shape_.fixed.end()) return smt::intConst(it->second);
  auto it = shape_.free.find(name);
  if (it == shape_.free.end()) throw Unsupported("the dimension " + name + " has no range");
  std::string key = "dim:" + name;
  bool isNew = !names_.has(key);
  std::string printed = names_.symbol(key, name);
  auto sym = smt::symbol(printed, Sort::Int);
  if (isNew) {
    script_.declareConst(printed, Sort::Int);
    script_.assertTerm(kDimSection, "",
                       smt::app("<=", Sort::Bool,
                                {smt::intConst(it->second.first), sym, smt::intConst(it->second.second)}));
  }
  return sym;
}

// --- functions ---------------------------------------------------------------------------------

TermPtr Unroller::uf(const std::string& fn, std::vector<TermPtr> args, size_t arity) {
  if (declaredFns_.insert(fn).second) {
    std::string sig;
    for (size_t i = 0; i < arity; ++i) sig += (i ? " " : "") + std::string("Real");
    script_.declareFuns.push_back("(declare-fun " + fn + " (" + sig + ") Real)");
  }
  for (auto& a : args) a = toReal(a);
  auto t = smt::app(fn, Sort::Real, args);
  std::string key = smt::print(*t);
  if (applicationKeys_.insert(key).second) applications_.push_back({fn, args, t});
  return t;
}

TermPtr Unroller::helper(const std::string& fn, std::vector<TermPtr> args) {
  if (helpers_.insert(fn).second) {
    if (fn == "abs_real")
      script_.defineFuns.push_back("(define-fun abs_real ((v Real)) Real (ite (>= v 0.0) v (- v)))");
    else if (fn == "max_real")
      script_.defineFuns.push_back("(define-fun max_real ((a Real) (b Real)) Real (ite (>= a b) a b))");
    else if (fn == "min_real")
      script_.defineFuns.push_back("(define-fun min_real ((a Real) (b Real)) Real (ite (<= a b) a b))");
  }
  for (auto& a : args) a = toReal(a);
  return smt::app(fn, Sort::Real, std::move(args));
}

void Unroller::addFacts() {
  using smt::mkAnd;
  using smt::mkCmp;
  using smt::mkImplies;
  auto r = [](double v) { return smt::realConst(v); };
  for (size_t i = 0; i < applications_.size(); ++i) {
    const Application& a = applications_[i];
    const TermPtr& f = a.term;
    const TermPtr& x = a.args[0];
    TermPtr fact;
    if (a.fn == "exp_real" || a.fn == "exp2_real") {
      fact = mkCmp(">", f, r(0));
    } else if (a.fn == "log_real" || a.fn == "log2_real" || a.fn == "log10_real") {
      fact = mkAnd({mkImplies(mkCmp(">", x, r(1)), mkCmp(">", f, r(0))),
                    mkImplies(mkCmp("=", x, r(1)), mkCmp("=", f, r(0))),
                    mkImplies(mkAnd({mkCmp(">", x, r(0)), mkCmp("<", x, r(1))}), mkCmp("<", f, r(0)))});
    } else if (a.fn == "sqrt_real") {
      fact = mkImplies(mkCmp(">=", x, r(0)),
                       mkAnd({mkCmp(">=", f, r(0)), mkCmp("=", smt::mkArith("*", {f, f}), x)}));
    } else if (a.fn == "rsqrt_real") {
      fact = mkImplies(mkCmp(">", x, r(0)),
                       mkAnd({mkCmp(">", f, r(0)), mkCmp("=", smt::mkArith("*", {f, f, x}), r(1))}));
    } else if (a.fn == "tanh_real" || a.fn == "erf_real") {
      fact = mkAnd({mkCmp("<", r(-1), f), mkCmp("<", f, r(1))});
    } else if (a.fn == "sigmoid_real") {
      fact = mkAnd({mkCmp("<", r(0), f), mkCmp("<", f, r(1))});
    } else if (a.fn == "sin_real" || a.fn == "cos_real") {
      fact = mkAnd({mkCmp("<=", r(-1), f), mkCmp("<=", f, r(1))});
    } else if (a.fn.rfind("ulp_", 0) == 0 || a.fn.rfind("round_", 0) == 0) {
      bool isUlp = a.fn.rfind("ulp_", 0) == 0;
      auto t = numerics::parseDType(a.fn.substr(isUlp ? 4 : 6));
      if (!t || (isUlp && !numerics::isFloat(*t))) continue;
      if (numerics::isInteger(*t)) {
        // round(i8, x): the nearest integer (ties to even), saturated to the type's range.
        TermPtr lo = r(static_cast<double>(numerics::intMin(*t))), hi = r(static_cast<double>(numerics::intMax(*t)));
        TermPtr err = helper("abs_real", {smt::mkArith("-", {f, x})});
        fact = mkAnd({mkCmp("<=", lo, f), mkCmp("<=", f, hi),
                      mkImplies(mkAnd({mkCmp("<=", lo, x), mkCmp("<=", x, hi)}), mkCmp("<=", err, r(0.5)))});
        script_.assertTerm(kFactSection, "", fact);
        continue;
      }
      TermPtr ax = helper("abs_real", {x});
      TermPtr normal = mkCmp(">=", ax, r(numerics::minNormal(*t)));
      if (isUlp) {
        // The spacing at a normal v lies in (eps/2 |v|, eps |v|]; below min_normal it is the
        // subnormal spacing.
        fact = mkAnd({mkImplies(normal, mkAnd({mkCmp("<=", smt::mkArith("*", {r(numerics::unitRoundoff(*t)), ax}), f),
                                               mkCmp("<=", f, smt::mkArith("*", {r(numerics::eps(*t)), ax}))})),
                      mkImplies(smt::mkNot(normal), mkCmp("=", f, r(numerics::minSubnormal(*t))))});
      } else {
        TermPtr err = helper("abs_real", {smt::mkArith("-", {f, x})});
        fact = mkAnd({mkImplies(normal, mkCmp("<=", err, smt::mkArith("*", {r(numerics::unitRoundoff(*t)), ax}))),
                      mkImplies(smt::mkNot(normal), mkCmp("<=", err, r(numerics::minSubnormal(*t) / 2)))});
      }
    } else {
      continue;  // pow_real: nothing assumed
    }
    script_.assertTerm(kFactSection, "", fact);
  }
  addMeanFacts();
  addSignFacts();
}

// --- signs -------------------------------------------------------------------------------------
// A small abstract interpretation over the script's terms. Every rule follows from an
// assertion the script makes anyway: a constant's defining equation, the facts above
// (exp > 0, ulp > 0, sqrt(x) >= 0 for x >= 0, ...), the definitions of abs_real, max_real and
// min_real. So a fact derived from a sign holds in every model of the script.

namespace {

using Sign = Unroller::Sign;

bool atLeastNonNegative(Sign s) { return s != Sign::Unknown; }

// The sign of a value that is one of a or b (an ite): what both share.
Sign join(Sign a, Sign b) {
  if (a == b) return a;
  if (atLeastNonNegative(a) && atLeastNonNegative(b)) return Sign::NonNegative;
  return Sign::Unknown;
}

// A term without symbols or function applications: a number the solver computes.
bool isNumber(const TermPtr& t) {
  if (t->isConst()) return true;
  static const std::set<std::string> arith = {"+", "-", "*", "/", "to_real"};
  return t->kind == smt::Term::Kind::App && arith.count(t->head) &&
         std::all_of(t->args.begin(), t->args.end(), isNumber);
}

bool notNumber(const TermPtr& t) { return !isNumber(t); }

}  // namespace

Unroller::Sign Unroller::signOf(const TermPtr& t) {
  if (auto it = signs_.find(t.get()); it != signs_.end()) return it->second.second;
  Sign s = Sign::Unknown;
  if (t->kind == smt::Term::Kind::Const) {
    std::optional<double> v = t->real;
    if (t->integer) v = static_cast<double>(*t->integer);
    if (v) s = *v > 0 ? Sign::Positive : *v == 0 ? Sign::Zero : Sign::Unknown;
    else if (t->head.rfind("(/ ", 0) == 0) s = Sign::Positive;  // realRatio: both integers > 0
  } else if (t->kind == smt::Term::Kind::Symbol) {
    if (auto it = definitions_.find(t->head); it != definitions_.end()) s = signOf(it->second);
  } else {
    const std::string& f = t->head;
    std::vector<Sign> args;
    for (const auto& a : t->args)  // an ite's condition (its first argument) has no sign
      args.push_back(f == "ite" && args.empty() ? Sign::Unknown : signOf(a));
    auto all = [&](Sign want) { return std::all_of(args.begin(), args.end(), [&](Sign a) { return a == want; }); };
    auto allAtLeastNonNegative = [&] { return std::all_of(args.begin(), args.end(), atLeastNonNegative); };
    auto any = [&](Sign want) { return std::any_of(args.begin(), args.end(), [&](Sign a) { return a == want; }); };
    if (f == "+") {
      s = all(Sign::Zero) ? Sign::Zero
          : allAtLeastNonNegative() ? (any(Sign::Positive) ? Sign::Positive : Sign::NonNegative)
                                    : Sign::Unknown;
    } else if (f == "*") {
      s = any(Sign::Zero) ? Sign::Zero
          : all(Sign::Positive) ? Sign::Positive
          : allAtLeastNonNegative() ? Sign::NonNegative
                                    : Sign::Unknown;
    } else if (f == "/" && args.size() == 2 && args[1] == Sign::Positive) {
      s = args[0];  // a positive divisor keeps the dividend's sign
    } else if (f == "to_real" && args.size() == 1) {
      s = args[0];
    } else if (f == "ite" && args.size() == 3) {
      s = join(args[1], args[2]);
    } else if (f == "abs_real") {
      s = args[0] == Sign::Positive ? Sign::Positive : args[0] == Sign::Zero ? Sign::Zero : Sign::NonNegative;
    } else if (f == "max_real") {
      s = any(Sign::Positive) ? Sign::Positive
          : all(Sign::Zero) ? Sign::Zero
          : std::any_of(args.begin(), args.end(), atLeastNonNegative) ? Sign::NonNegative
                                                                      : Sign::Unknown;
    } else if (f == "min_real") {
      s = join(args[0], args[1]);
      if (args[0] == Sign::Positive && args[1] == Sign::Positive) s = Sign::Positive;
    } else if (f == "exp_real" || f == "exp2_real" || f == "sigmoid_real" ||
               (f.rfind("ulp_", 0) == 0 && numerics::parseDType(f.substr(4)))) {
      s = Sign::Positive;  // the facts: exp > 0, 0 < sigmoid < 1, ulp >= the least subnormal
    } else if (f == "sqrt_real" || f == "rsqrt_real") {
      // sqrt: x >= 0 -> f >= 0 and f f = x; rsqrt: x > 0 -> f > 0.
      if (args[0] == Sign::Positive) s = Sign::Positive;
      else if (f == "sqrt_real" && atLeastNonNegative(args[0])) s = Sign::NonNegative;
    }
  }
  signs_[t.get()] = {t, s};
  return s;
}

// A normalised weighted sum: (/ (+ w_1 X_1 ... w_k X_k) z) with z defined as (+ w_1 ... w_n),
// every w_j >= 0 and z > 0 (attention's output and tolerance: sum_j p_j v_j / sum_j p_j).
// It is a convex combination of the X_j when the weights left out of the dividend are 0, so it
// lies between the least and the greatest X_j; when they are only >= 0, the X_j's weights sum
// to at most 1, and 0 joins the bounds. cvc5 without CAD finds neither bound by itself.
void Unroller::addMeanFacts() {
  for (const TermPtr& q : divisions_) {
    TermPtr z = q->args[1];
    if (signOf(z) != Sign::Positive) continue;
    TermPtr zValue = z;
    if (z->kind == smt::Term::Kind::Symbol)
      if (auto it = definitions_.find(z->head); it != definitions_.end()) zValue = it->second;
    std::vector<TermPtr> weights = zValue->kind == smt::Term::Kind::App && zValue->head == "+" ? zValue->args
                                                                                              : std::vector<TermPtr>{zValue};
    std::vector<std::string> weightKeys;
    for (const auto& w : weights) weightKeys.push_back(smt::print(*w));
    const TermPtr& num = q->args[0];
    std::vector<TermPtr> terms = num->kind == smt::Term::Kind::App && num->head == "+" ? num->args
                                                                                      : std::vector<TermPtr>{num};
    std::vector<bool> used(weights.size(), false);
    std::vector<TermPtr> xs;
    auto take = [&](const TermPtr& w) -> bool {
      std::string key = smt::print(*w);
      for (size_t j = 0; j < weights.size(); ++j)
        if (!used[j] && weightKeys[j] == key && atLeastNonNegative(signOf(weights[j]))) return used[j] = true;
      return false;
    };
    bool ok = true;
    for (const TermPtr& t : terms) {
      if (take(t)) {
        xs.push_back(smt::realConst(1));
        continue;
      }
      bool found = false;
      if (t->kind == smt::Term::Kind::App && t->head == "*") {
        for (size_t i = 0; i < t->args.size() && !found; ++i) {
          if (!take(t->args[i])) continue;
          std::vector<TermPtr> rest = t->args;
          rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
          xs.push_back(smt::mkArith("*", rest));
          found = true;
        }
      }
      if (!found) ok = false;
      if (!ok) break;
    }
    if (!ok || xs.empty()) continue;
    bool convex = true;
    for (size_t j = 0; j < weights.size() && ok; ++j) {
      if (used[j]) continue;
      Sign s = signOf(weights[j]);
      if (s != Sign::Zero) convex = false;
      if (!atLeastNonNegative(s)) ok = false;
    }
    if (!ok) continue;
    if (!convex) xs.push_back(smt::realConst(0));
    // min and max of the terms, constants folded (softmax's p_j / z: between 0 and 1).
    std::optional<double> cLo, cHi;
    std::vector<TermPtr> rest;
    for (const TermPtr& x : xs) {
      if (x->isConst() && x->real) {
        cLo = cLo ? std::min(*cLo, *x->real) : *x->real;
        cHi = cHi ? std::max(*cHi, *x->real) : *x->real;
      } else if (std::none_of(rest.begin(), rest.end(), [&](const TermPtr& r) { return smt::print(*r) == smt::print(*x); })) {
        rest.push_back(x);
      }
    }
    auto fold = [&](const char* fn, std::optional<double> c) {
      std::vector<TermPtr> ts = rest;
      if (c) ts.push_back(smt::realConst(*c));
      TermPtr acc = ts.back();
      for (size_t k = ts.size() - 1; k-- > 0;) acc = helper(fn, {ts[k], acc});
      return acc;
    };
    TermPtr lo = fold("min_real", cLo), hi = fold("max_real", cHi);
    std::string what = convex ? "a weighted mean lies between its least and greatest term"
                              : "weights summing to at most 1: between min(0, least term) and max(0, greatest term)";
    script_.assertTerm(kMeanSection, what,
                       smt::mkAnd({smt::mkCmp("<=", lo, q), smt::mkCmp("<=", q, hi)}));
  }
}

// Every product of two or more factors that are not constants, each of them >= 0, is >= 0
// (> 0 when each is > 0): the sign lemma cvc5's nonlinear extension finds late or never.
void Unroller::addSignFacts() {
  std::set<std::string> seen;
  std::vector<TermPtr> products;
  std::function<void(const TermPtr&)> visit = [&](const TermPtr& t) {
    if (t->kind != smt::Term::Kind::App) return;
    for (const auto& a : t->args) visit(a);
    if (t->head != "*" || std::count_if(t->args.begin(), t->args.end(), notNumber) < 2) return;
    if (seen.insert(smt::print(*t)).second) products.push_back(t);
  };
  for (const auto& a : script_.assertions) visit(a.term);
  for (const TermPtr& p : products) {
    Sign s = signOf(p);
    if (s == Sign::NonNegative) script_.assertTerm(kSignSection, "", smt::mkCmp(">=", p, smt::realConst(0)));
    if (s == Sign::Positive) script_.assertTerm(kSignSection, "", smt::mkCmp(">", p, smt::realConst(0)));
  }
}

// --- translation -------------------------------------------------------------------------------

TermPtr Unroller::guarded(const TermPtr& bad) const {
  std::vector<TermPtr> xs = guards_;
  xs.push_back(bad);
  return smt::mkAnd(std::move(xs));
}

void Unroller::site(const ir::Node& n, TermPtr bad) {
  if (watched_ == &n) failures_.push_back(guarded(bad));
}

TermPtr Unroller::term(const ir::Node& n, const ir::IntEnv& env) {
  switch (n.type) {
    case ir::Type::Bool: return boolTerm(n, env);
    case ir::Type::Int: return intTerm(n, env);
    case ir::Type::Real: return realTerm(n, env);
    default: throw Unsupported("a " + std::string(ir::typeName(n.type)) + " where a value is needed: " + ir::print(n));
  }
}

TermPtr Unroller::intTerm(const ir::Node& n, const ir::IntEnv& env) {
  ir::IntEnv full = base_;
  for (const auto& [k, v] : env) full[k] = v;
  if (auto v = ir::evalInt(n, full)) return smt::intConst(*v);
  switch (n.op) {
    case ir::Op::ConstInt: return smt::intConst(n.i);
    case ir::Op::Dim: return dim(n.name);
    case ir::Op::IndexVar: throw Unsupported("the index " + n.name + " is not bound");
    case ir::Op::Neg: return smt::mkNeg(intTerm(*n.kids[0], env));
    case ir::Op::Abs: return smt::app("abs", Sort::Int, {intTerm(*n.kids[0], env)});
    case ir::Op::Add: return smt::mkArith("+", {intTerm(*n.kids[0], env), intTerm(*n.kids[1], env)});
    case ir::Op::Sub: return smt::mkArith("-", {intTerm(*n.kids[0], env), intTerm(*n.kids[1], env)});
    case ir::Op::Mul: return smt::mkArith("*", {intTerm(*n.kids[0], env), intTerm(*n.kids[1], env)});
    case ir::Op::Div:
    case ir::Op::Mod: {
      TermPtr a = intTerm(*n.kids[0], env), b = intTerm(*n.kids[1], env);
      site(n, smt::mkCmp("=", b, smt::intConst(0)));
      // a % b is floored (b's sign): SMT-LIB's mod is Euclidean (never negative), the same for
      // b > 0; for b < 0, a % b = -((-a) mod (-b)).
      if (n.op == ir::Op::Mod)
        return smt::mkIte(smt::mkCmp(">", b, smt::intConst(0)), smt::app("mod", Sort::Int, {a, b}),
                          smt::mkNeg(smt::app("mod", Sort::Int, {smt::mkNeg(a), smt::mkNeg(b)})));
      // floor(a / b): SMT-LIB's div is Euclidean, the floor for b > 0; for b < 0,
      // floor(a / b) = floor(-a / -b).
      return smt::mkIte(smt::mkCmp(">", b, smt::intConst(0)), smt::app("div", Sort::Int, {a, b}),
                        smt::app("div", Sort::Int, {smt::mkNeg(a), smt::mkNeg(b)}));
    }
    case ir::Op::Pow: {
      int64_t e = evalIndex(*n.kids[1], env);
      TermPtr b = intTerm(*n.kids[0], env);
      if (b->integer && e >= 0 && e <= 4096) return smt::intPower(*b->integer, e);
      if (e < 0 || e > 16) throw Unsupported("an integer power with exponent " + std::to_string(e));
      std::vector<TermPtr> fs(static_cast<size_t>(e), b);
      return e == 0 ? smt::intConst(1) : smt::mkArith("*", fs);
    }
    case ir::Op::Select: return select(n, env, &Unroller::intTerm, false);
    case ir::Op::Reduce: return reduce(n, env);
    default: throw Unsupported("an integer expression the unroller does not know: " + ir::print(n));
  }
}

// if c then a else b: each branch is unrolled under the guard that selects it.
TermPtr Unroller::select(const ir::Node& n, const ir::IntEnv& env,
                         TermPtr (Unroller::*branch)(const ir::Node&, const ir::IntEnv&), bool asReal) {
  TermPtr c = boolTerm(*n.kids[0], env);
  guards_.push_back(c);
  TermPtr a = (this->*branch)(*n.kids[1], env);
  guards_.back() = smt::mkNot(c);
  TermPtr b = (this->*branch)(*n.kids[2], env);
  guards_.pop_back();
  return asReal ? smt::mkIte(c, toReal(a), toReal(b)) : smt::mkIte(c, a, b);
}

TermPtr Unroller::boolTerm(const ir::Node& n, const ir::IntEnv& env) {
  switch (n.op) {
    case ir::Op::ConstBool: return smt::boolConst(n.b);
    case ir::Op::Lt: case ir::Op::Le: case ir::Op::Gt: case ir::Op::Ge: case ir::Op::Eq: case ir::Op::Ne: {
      const ir::Node& a = *n.kids[0];
      const ir::Node& b = *n.kids[1];
      if (a.type == ir::Type::DType || b.type == ir::Type::DType) {
        bool same = dtypeOf(a) == dtypeOf(b);
        return smt::boolConst(n.op == ir::Op::Eq ? same : !same);
      }
      static const std::map<ir::Op, std::string> ops = {{ir::Op::Lt, "<"}, {ir::Op::Le, "<="}, {ir::Op::Gt, ">"},
                                                        {ir::Op::Ge, ">="}, {ir::Op::Eq, "="}, {ir::Op::Ne, "distinct"}};
      return smt::mkCmp(ops.at(n.op), term(a, env), term(b, env));
    }
    case ir::Op::Not: return smt::mkNot(boolTerm(*n.kids[0], env));
    case ir::Op::And: case ir::Op::Or: case ir::Op::Implies: {
      TermPtr a = boolTerm(*n.kids[0], env);
      guards_.push_back(n.op == ir::Op::Or ? smt::mkNot(a) : a);
      TermPtr b = boolTerm(*n.kids[1], env);
      guards_.pop_back();
      if (n.op == ir::Op::And) return smt::mkAnd({a, b});
      if (n.op == ir::Op::Or) return smt::mkOr({a, b});
      return smt::mkImplies(a, b);
    }
    case ir::Op::Select: return select(n, env, &Unroller::boolTerm, false);
    case ir::Op::Call:
      // Inputs are finite reals, and so is every value computed from them.
      if (n.name == "isnan" || n.name == "isinf") return smt::boolConst(false);
      if (n.name == "isfinite") return smt::boolConst(true);
      throw Unsupported("the predicate " + n.name);
    case ir::Op::Quantifier: return quantifier(n, env);
    default: throw Unsupported("a condition the unroller does not know: " + ir::print(n));
  }
}

TermPtr Unroller::realTerm(const ir::Node& n, const ir::IntEnv& env) {
  switch (n.op) {
    case ir::Op::ConstReal:
      if (!std::isfinite(n.d)) throw Unsupported("the constant " + ir::print(n) + " (values are finite reals)");
      return smt::realConst(n.d);
    case ir::Op::ConstInt: return smt::intConst(n.i);
    case ir::Op::Dim: return dim(n.name);
    case ir::Op::TensorRead: return read(n, env);
    case ir::Op::Neg: return smt::mkNeg(toReal(term(*n.kids[0], env)));
    case ir::Op::Abs: return helper("abs_real", {term(*n.kids[0], env)});
    case ir::Op::Add: return smt::mkArith("+", {toReal(term(*n.kids[0], env)), term(*n.kids[1], env)});
    case ir::Op::Sub: return smt::mkArith("-", {toReal(term(*n.kids[0], env)), term(*n.kids[1], env)});
    case ir::Op::Mul: return smt::mkArith("*", {toReal(term(*n.kids[0], env)), term(*n.kids[1], env)});
    case ir::Op::Div: {
      TermPtr a = toReal(term(*n.kids[0], env)), b = toReal(term(*n.kids[1], env));
      site(n, smt::mkCmp("=", b, smt::realConst(0)));
      TermPtr q = smt::mkArith("/", {a, b});
      if (q->kind == smt::Term::Kind::App && q->head == "/" && divisionKeys_.insert(smt::print(*q)).second)
        divisions_.push_back(q);
      return q;
    }
    case ir::Op::Pow: {
      const ir::Node& ex = *n.kids[1];
      if (ex.type == ir::Type::Int || (ex.op == ir::Op::ConstReal && ex.d == std::floor(ex.d) && std::fabs(ex.d) <= 16)) {
        int64_t e = ex.type == ir::Type::Int ? evalIndex(ex, env) : static_cast<int64_t>(ex.d);
        if (e >= 0 && e <= 16) {
          TermPtr b = toReal(term(*n.kids[0], env));
          std::vector<TermPtr> fs(static_cast<size_t>(e), b);
          return e == 0 ? smt::realConst(1) : smt::mkArith("*", fs);
        }
      }
      return uf("pow_real", {term(*n.kids[0], env), term(ex, env)}, 2);
    }
    case ir::Op::Mod: throw Unsupported("a real remainder");
    case ir::Op::Select: return select(n, env, &Unroller::term, true);
    case ir::Op::Call: return call(n, env);
    case ir::Op::DTypeQuery: return dtypeQuery(n, env);
    case ir::Op::RoundTo: {
      std::string t = dtypeOf(*n.kids[0]);
      return uf("round_" + t, {term(*n.kids[1], env)});
    }
    case ir::Op::TensorStat: return tensorStat(n, env);
    case ir::Op::Reduce: return reduce(n, env);
    default: throw Unsupported("an expression the unroller does not know: " + ir::print(n));
  }
}

TermPtr Unroller::call(const ir::Node& n, const ir::IntEnv& env) {
  const std::string& f = n.name;
  if (f == "fmax" || f == "fmin")
    return helper(f == "fmax" ? "max_real" : "min_real", {term(*n.kids[0], env), term(*n.kids[1], env)});
  TermPtr x = toReal(term(*n.kids[0], env));
  if (f == "floor") return toReal(smt::app("to_int", Sort::Int, {x}));
  if (f == "ceil") return smt::mkNeg(toReal(smt::app("to_int", Sort::Int, {smt::mkNeg(x)})));
  if (f == "log" || f == "log2" || f == "log10") site(n, smt::mkCmp("<=", x, smt::realConst(0)));
  if (f == "sqrt") site(n, smt::mkCmp("<", x, smt::realConst(0)));
  if (f == "rsqrt") site(n, smt::mkCmp("<=", x, smt::realConst(0)));
  static const std::set<std::string> known = {"exp", "exp2", "log", "log2", "log10", "sqrt", "rsqrt",
                                              "tanh", "erf", "sin", "cos", "sigmoid"};
  if (!known.count(f)) throw Unsupported("the function " + f);
  return uf(f + "_real", {x});
}

TermPtr Unroller::ulp(const std::string& dtype, TermPtr v) {
  auto t = numerics::parseDType(dtype);
  if (!t || !numerics::isFloat(*t)) throw Unsupported("ulp of the non-float dtype " + dtype);
  if (v->isConst() && v->real) return smt::realConst(numerics::ulp(*t, *v->real));
  return uf("ulp_" + dtype, {std::move(v)});
}

TermPtr Unroller::gamma(TermPtr count, const std::string& dtype) {
  // gamma(n, T) = n u / (1 - n u) with u = 2^-p: exactly n / (2^p - n).
  auto t = numerics::parseDType(dtype);
  if (!t || !numerics::isFloat(*t)) throw Unsupported("gamma of the non-float dtype " + dtype);
  int p = numerics::floatFormat(*t).precision;
  if (p > 62) throw Unsupported("gamma for a precision over 62 bits");
  int64_t twoP = int64_t{1} << p;
  if (count->integer) {
    int64_t k = *count->integer;
    if (k < 0 || k >= twoP) throw Unsupported("gamma(" + std::to_string(k) + ", " + dtype + ") is not finite");
    if (k == 0) return smt::realConst(0);
    int64_t den = twoP - k, g = std::gcd(k, den);
    return smt::realRatio(std::to_string(k / g), std::to_string(den / g));
  }
  TermPtr k = toReal(count);
  return smt::mkArith("/", {k, smt::mkArith("-", {smt::realConst(static_cast<double>(twoP)), k})});
}

TermPtr Unroller::dtypeQuery(const ir::Node& n, const ir::IntEnv& env) {
  if (n.name == "gamma") return gamma(term(*n.kids[0], env), dtypeOf(*n.kids[1]));
  auto t = numerics::parseDType(dtypeOf(*n.kids[0]));
  if (!t || !numerics::isFloat(*t)) throw Unsupported(n.name + " of a non-float dtype");
  if (n.name == "eps") return smt::realConst(numerics::eps(*t));
  if (n.name == "unit_roundoff") return smt::realConst(numerics::unitRoundoff(*t));
  if (n.name == "min_normal") return smt::realConst(numerics::minNormal(*t));
  if (n.name == "max_finite") return smt::realConst(numerics::maxFinite(*t));
  if (n.name == "ulp") return ulp(std::string(numerics::dtypeName(*t)), term(*n.kids[1], env));
  throw Unsupported("the dtype query " + n.name);
}

TermPtr Unroller::read(const ir::Node& n, const ir::IntEnv& env) {
  std::vector<int64_t> idx;
  for (const auto& k : n.kids) idx.push_back(evalIndex(*k, env));
  switch (n.role) {
    case ir::Role::Input: return inputCell(n.name, idx);
    case ir::Role::Output: return outputCell(n.name, idx);
    case ir::Role::Oracle: return oracleCell(n.name, idx);
    case ir::Role::Local: return toleranceCell(n.name, idx);
  }
  throw Unsupported("a read of " + n.name);
}

TermPtr Unroller::reduce(const ir::Node& n, const ir::IntEnv& env) {
  int64_t lo = evalIndex(*n.kids[0], env), hi = evalIndex(*n.kids[1], env);
  if (hi - lo + 1 > kMaxUnrolled) throw Unsupported("a reduction over more than " + std::to_string(kMaxUnrolled) + " terms");
  std::vector<TermPtr> terms;
  for (int64_t v = lo; v <= hi; ++v) {
    ir::IntEnv e = env;
    e[n.vars[0]] = v;
    terms.push_back(term(*n.kids[2], e));
  }
  bool isInt = n.type == ir::Type::Int;
  if (n.name == "sum") return terms.empty() ? (isInt ? smt::intConst(0) : smt::realConst(0)) : smt::mkArith("+", terms);
  if (n.name == "prod") return terms.empty() ? (isInt ? smt::intConst(1) : smt::realConst(1)) : smt::mkArith("*", terms);
  if (n.name == "max" || n.name == "min") {
    if (terms.empty()) throw Unsupported(n.name + " over an empty range");
    TermPtr acc = terms.back();
    for (size_t i = terms.size() - 1; i-- > 0;) {
      if (isInt)
        acc = smt::mkIte(smt::mkCmp(n.name == "max" ? ">=" : "<=", terms[i], acc), terms[i], acc);
      else
        acc = helper(n.name == "max" ? "max_real" : "min_real", {terms[i], acc});
    }
    return acc;
  }
  throw Unsupported("the reduction " + n.name);
}

TermPtr Unroller::quantifier(const ir::Node& n, const ir::IntEnv& env) {
  std::vector<TermPtr> instances;
  int64_t count = 0;
  std::function<void(size_t, ir::IntEnv&)> rec = [&](size_t v, ir::IntEnv& e) {
    if (v == n.vars.size()) {
      if (++count > kMaxUnrolled)
        throw Unsupported("a quantifier over more than " + std::to_string(kMaxUnrolled) + " cases");
      instances.push_back(boolTerm(*n.kids.back(), e));
      return;
    }
    int64_t lo = evalIndex(*n.kids[2 * v], e), hi = evalIndex(*n.kids[2 * v + 1], e);
    for (int64_t i = lo; i <= hi; ++i) {
      e[n.vars[v]] = i;
      rec(v + 1, e);
    }
    e.erase(n.vars[v]);
  };
  ir::IntEnv e = env;
  rec(0, e);
  return n.b ? smt::mkAnd(std::move(instances)) : smt::mkOr(std::move(instances));
}

TermPtr Unroller::tensorStat(const ir::Node& n, const ir::IntEnv& env) {
  const ir::Node& whole = *n.kids[0];
  std::vector<int64_t> ext;
  if (whole.role == ir::Role::Local || (whole.role == ir::Role::Oracle && oracleDef(whole.name))) {
    const sema::Definition* d = whole.role == ir::Role::Local ? toleranceDef(whole.name) : oracleDef(whole.name);
    if (!d) d = oracleDef(whole.name);
    if (!d) throw Unsupported("no definition named " + whole.name);
    ext = extents(*d);
  } else {
    const sema::TensorInfo* t = c_.kernel ? c_.kernel->tensor(whole.name) : nullptr;
    if (!t) throw Unsupported("no tensor named " + whole.name);
    ext = extents(*t);
  }
  std::vector<TermPtr> terms;
  for (const auto& idx : cells(ext)) {
    switch (whole.role) {
      case ir::Role::Input: terms.push_back(inputCell(whole.name, idx)); break;
      case ir::Role::Output: terms.push_back(outputCell(whole.name, idx)); break;
      case ir::Role::Oracle: terms.push_back(oracleCell(whole.name, idx)); break;
      case ir::Role::Local: terms.push_back(toleranceCell(whole.name, idx)); break;
    }
  }
  if (terms.empty()) throw Unsupported(n.name + " of an empty tensor");
  if (n.name == "sum") return smt::mkArith("+", terms);
  if (n.name == "max" || n.name == "min") {
    TermPtr acc = terms.back();
    for (size_t i = terms.size() - 1; i-- > 0;) acc = helper(n.name == "max" ? "max_real" : "min_real", {terms[i], acc});
    return acc;
  }
  throw Unsupported("the statistic " + n.name);
}

}  // namespace kc::obl

#include "prover/kernel/sym_dag.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace kc::kprove {

namespace sm = obl::smt;

namespace {

uint64_t bitsOf(double v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// A nonzero finite power of two (x * 2^k and x / 2^k are exact without overflow or subnormals).
bool powerOfTwo(double v) {
  if (!std::isfinite(v) || v == 0) return false;
  int e = 0;
  double m = std::frexp(std::fabs(v), &e);
  return m == 0.5;
}

}  // namespace

int Dag::make(Node n) {
  int flags = (n.rounded ? 1 : 0) | (n.directed ? 2 : 0) | ((n.tensor + 1) << 2);
  auto key = std::make_tuple(static_cast<int>(n.kind), n.a, n.b, n.c, bitsOf(n.value), n.flat, flags);
  auto it = index_.find(key);
  if (it != index_.end()) return it->second;
  int id = static_cast<int>(nodes_.size());
  if (n.rounded) ++roundings_;
  nodes_.push_back(n);
  index_.emplace(key, id);
  return id;
}

int Dag::constant(float v) {
  Node n;
  n.kind = NodeKind::Const;
  n.value = static_cast<double>(v);
  return make(n);
}

int Dag::boolConstant(bool v) {
  Node n;
  n.kind = NodeKind::BoolConst;
  n.value = v ? 1 : 0;
  return make(n);
}

int Dag::input(int tensor, int64_t flat) {
  Node n;
  n.kind = NodeKind::Input;
  n.tensor = tensor;
  n.flat = flat;
  return make(n);
}

int Dag::poison() {
  Node n;
  n.kind = NodeKind::Poison;
  return make(n);
}

namespace {
bool isZero(const Dag& d, int id) { return d.isConst(id) && d.constValue(id) == 0; }
bool isValue(const Dag& d, int id, double v) { return d.isConst(id) && d.constValue(id) == v; }
}  // namespace

#define KC_POISON2(a, b) \
  if (node(a).kind == NodeKind::Poison || node(b).kind == NodeKind::Poison) return poison()

int Dag::add(int a, int b, bool directed, int line) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(static_cast<float>(constValue(a)) + static_cast<float>(constValue(b)));
  if (isZero(*this, a)) return b;
  if (isZero(*this, b)) return a;
  if (a == b) return mul(constant(2.0f), a, directed, line);  // x + x = 2x: exact
  if (a > b) std::swap(a, b);  // commutative: one node for a + b and b + a
  Node n;
  n.kind = NodeKind::Add;
  n.a = a;
  n.b = b;
  n.rounded = true;
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::sub(int a, int b, bool directed, int line) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(static_cast<float>(constValue(a)) - static_cast<float>(constValue(b)));
  if (isZero(*this, b)) return a;
  if (isZero(*this, a)) return neg(b);
  if (a == b) return constant(0.0f);
  Node n;
  n.kind = NodeKind::Sub;
  n.a = a;
  n.b = b;
  n.rounded = true;
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::mul(int a, int b, bool directed, int line) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(static_cast<float>(constValue(a)) * static_cast<float>(constValue(b)));
  if (isConst(b)) std::swap(a, b);  // the constant first
  if (isConst(a)) {
    double v = constValue(a);
    if (v == 0) return constant(0.0f);  // finite inputs: x * 0 = 0 (the sign of zero is not modelled)
    if (v == 1) return b;
    if (v == -1) return neg(b);
  }
  if (a > b && !isConst(a)) std::swap(a, b);
  Node n;
  n.kind = NodeKind::Mul;
  n.a = a;
  n.b = b;
  n.rounded = !(isConst(a) && powerOfTwo(constValue(a)));  // x * 2^k is exact
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::fma(int a, int b, int c, bool directed, int line) {
  KC_POISON2(a, b);
  if (node(c).kind == NodeKind::Poison) return poison();
  if (isZero(*this, a) || isZero(*this, b)) return c;  // c + 0, c already an f32
  if (isZero(*this, c)) return mul(a, b, directed, line);
  if (isValue(*this, a, 1)) return add(b, c, directed, line);
  if (isValue(*this, b, 1)) return add(a, c, directed, line);
  if (isConst(a) && isConst(b)) {
    double p = constValue(a) * constValue(b);  // exact in double for f32 operands
    if (static_cast<double>(static_cast<float>(p)) == p) return add(constant(static_cast<float>(p)), c, directed, line);
  }
  if (a > b) std::swap(a, b);
  Node n;
  n.kind = NodeKind::Fma;
  n.a = a;
  n.b = b;
  n.c = c;
  n.rounded = true;
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::div(int a, int b, bool directed, int line) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(static_cast<float>(constValue(a)) / static_cast<float>(constValue(b)));
  if (isValue(*this, b, 1)) return a;
  if (isZero(*this, a)) return constant(0.0f);  // 0 / b: 0 (b = 0 is NaN, not modelled)
  Node n;
  n.kind = NodeKind::Div;
  n.a = a;
  n.b = b;
  n.rounded = !(isConst(b) && powerOfTwo(constValue(b)));
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::sqrt(int a, bool directed, int line) {
  if (node(a).kind == NodeKind::Poison) return a;
  if (isConst(a)) return constant(std::sqrt(static_cast<float>(constValue(a))));
  Node n;
  n.kind = NodeKind::Sqrt;
  n.a = a;
  n.rounded = true;
  n.directed = directed;
  n.line = line;
  return make(n);
}

int Dag::neg(int a) {
  if (node(a).kind == NodeKind::Poison) return a;
  if (isConst(a)) return constant(-static_cast<float>(constValue(a)));
  if (node(a).kind == NodeKind::Neg) return node(a).a;
  Node n;
  n.kind = NodeKind::Neg;
  n.a = a;
  return make(n);
}

int Dag::abs(int a) {
  if (node(a).kind == NodeKind::Poison) return a;
  if (isConst(a)) return constant(std::fabs(static_cast<float>(constValue(a))));
  Node n;
  n.kind = NodeKind::Abs;
  n.a = a;
  return make(n);
}

int Dag::min(int a, int b) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(std::fmin(static_cast<float>(constValue(a)), static_cast<float>(constValue(b))));
  if (isValue(*this, a, INFINITY)) return b;
  if (isValue(*this, b, INFINITY)) return a;
  if (a == b) return a;
  if (a > b) std::swap(a, b);
  Node n;
  n.kind = NodeKind::Min;
  n.a = a;
  n.b = b;
  return make(n);
}

int Dag::max(int a, int b) {
  KC_POISON2(a, b);
  if (isConst(a) && isConst(b)) return constant(std::fmax(static_cast<float>(constValue(a)), static_cast<float>(constValue(b))));
  if (isValue(*this, a, -INFINITY)) return b;
  if (isValue(*this, b, -INFINITY)) return a;
  if (a == b) return a;
  if (a > b) std::swap(a, b);
  Node n;
  n.kind = NodeKind::Max;
  n.a = a;
  n.b = b;
  return make(n);
}

int Dag::ite(int cond, int a, int b) {
  if (node(cond).kind == NodeKind::BoolConst) return node(cond).value != 0 ? a : b;
  if (a == b) return a;
  if (node(cond).kind == NodeKind::Not) return ite(node(cond).a, b, a);
  Node n;
  n.kind = NodeKind::Ite;
  n.a = cond;
  n.b = a;
  n.c = b;
  return make(n);
}

int Dag::cmp(NodeKind kind, int a, int b) {
  // A comparison with a poisoned (NaN) operand is false, except Ne.
  if (node(a).kind == NodeKind::Poison || node(b).kind == NodeKind::Poison) return boolConstant(kind == NodeKind::Ne);
  // Against an infinity, a finite value's comparison is decided (inputs are finite reals).
  for (int side = 0; side < 2; ++side) {
    int k = side ? b : a, other = side ? a : b;
    if (!isConst(k) || !std::isinf(constValue(k)) || isConst(other)) continue;
    bool kIsPlus = constValue(k) > 0;
    // other OP k (side 1) or k OP other (side 0), other finite.
    bool otherLess = kIsPlus;  // other < k
    bool r = false;
    switch (kind) {
      case NodeKind::Lt: r = side ? otherLess : !otherLess; break;
      case NodeKind::Le: r = side ? otherLess : !otherLess; break;
      case NodeKind::Gt: r = side ? !otherLess : otherLess; break;
      case NodeKind::Ge: r = side ? !otherLess : otherLess; break;
      case NodeKind::Eq: r = false; break;
      default: r = true; break;
    }
    return boolConstant(r);
  }
  if (isConst(a) && isConst(b)) {
    double x = constValue(a), y = constValue(b);
    bool r = kind == NodeKind::Lt ? x < y : kind == NodeKind::Le ? x <= y : kind == NodeKind::Gt ? x > y
             : kind == NodeKind::Ge ? x >= y : kind == NodeKind::Eq ? x == y : x != y;
    return boolConstant(r);
  }
  Node n;
  n.kind = kind;
  n.a = a;
  n.b = b;
  return make(n);
}

int Dag::notB(int a) {
  if (node(a).kind == NodeKind::BoolConst) return boolConstant(node(a).value == 0);
  if (node(a).kind == NodeKind::Not) return node(a).a;
  Node n;
  n.kind = NodeKind::Not;
  n.a = a;
  return make(n);
}

int Dag::boolOp(NodeKind kind, int a, int b) {
  const Node &x = node(a), &y = node(b);
  if (x.kind == NodeKind::BoolConst && y.kind == NodeKind::BoolConst) {
    bool p = x.value != 0, q = y.value != 0;
    return boolConstant(kind == NodeKind::And ? p && q : kind == NodeKind::Or ? p || q : p != q);
  }
  if (x.kind == NodeKind::BoolConst || y.kind == NodeKind::BoolConst) {
    bool k = (x.kind == NodeKind::BoolConst ? x : y).value != 0;
    int other = x.kind == NodeKind::BoolConst ? b : a;
    if (kind == NodeKind::And) return k ? other : boolConstant(false);
    if (kind == NodeKind::Or) return k ? boolConstant(true) : other;
    return k ? notB(other) : other;
  }
  if (a > b) std::swap(a, b);
  Node n;
  n.kind = kind;
  n.a = a;
  n.b = b;
  return make(n);
}

float Dag::evaluate(int id, const std::function<float(int, int64_t)>& inputValue, std::vector<float>& memo) const {
  if (memo.size() < nodes_.size()) memo.resize(nodes_.size(), NAN);
  std::vector<char> done(nodes_.size(), 0);
  // Children have smaller ids than their parents (hash-consing builds bottom-up): one pass.
  for (int k = 0; k <= id; ++k) {
    const Node& n = nodes_[static_cast<size_t>(k)];
    auto v = [&](int c) { return memo[static_cast<size_t>(c)]; };
    float r = NAN;
    switch (n.kind) {
      case NodeKind::Const: r = static_cast<float>(n.value); break;
      case NodeKind::BoolConst: r = static_cast<float>(n.value); break;
      case NodeKind::Input: r = inputValue(n.tensor, n.flat); break;
      case NodeKind::Poison: r = NAN; break;
      case NodeKind::Add: r = v(n.a) + v(n.b); break;
      case NodeKind::Sub: r = v(n.a) - v(n.b); break;
      case NodeKind::Mul: r = v(n.a) * v(n.b); break;
      case NodeKind::Fma: r = std::fmaf(v(n.a), v(n.b), v(n.c)); break;
      case NodeKind::Div: r = v(n.a) / v(n.b); break;
      case NodeKind::Sqrt: r = std::sqrt(v(n.a)); break;
      case NodeKind::Neg: r = -v(n.a); break;
      case NodeKind::Abs: r = std::fabs(v(n.a)); break;
      case NodeKind::Min: r = std::fmin(v(n.a), v(n.b)); break;
      case NodeKind::Max: r = std::fmax(v(n.a), v(n.b)); break;
      case NodeKind::Ite: r = v(n.a) != 0 ? v(n.b) : v(n.c); break;
      case NodeKind::Lt: r = v(n.a) < v(n.b); break;
      case NodeKind::Le: r = v(n.a) <= v(n.b); break;
      case NodeKind::Gt: r = v(n.a) > v(n.b); break;
      case NodeKind::Ge: r = v(n.a) >= v(n.b); break;
      case NodeKind::Eq: r = v(n.a) == v(n.b); break;
      case NodeKind::Ne: r = v(n.a) != v(n.b); break;
      case NodeKind::Not: r = v(n.a) == 0; break;
      case NodeKind::And: r = v(n.a) != 0 && v(n.b) != 0; break;
      case NodeKind::Or: r = v(n.a) != 0 || v(n.b) != 0; break;
      case NodeKind::Xor: r = (v(n.a) != 0) != (v(n.b) != 0); break;
    }
    memo[static_cast<size_t>(k)] = r;
    done[static_cast<size_t>(k)] = 1;
  }
  return memo[static_cast<size_t>(id)];
}

// --- SMT --------------------------------------------------------------------------------------

SmtEmitter::SmtEmitter(const Dag& dag, sm::Script& script, sm::NameTable& names,
                       std::function<sm::TermPtr(int, int64_t)> inputTerm, std::function<sm::TermPtr(sm::TermPtr)> absTerm)
    : dag_(dag), script_(script), names_(names), inputTerm_(std::move(inputTerm)), absTerm_(std::move(absTerm)) {}

sm::TermPtr SmtEmitter::absOf(const sm::TermPtr& t) const {
  if (absTerm_) return absTerm_(t);  // the obligations' abs_real: the tolerance's |x| is the same term
  return sm::mkIte(sm::mkCmp(">=", t, sm::realConst(0)), t, sm::mkNeg(t));
}

namespace {

constexpr size_t kMinSumTerms = 3;      // fewer: the plain roundings are as small
constexpr size_t kMaxSumTerms = 65536;  // a bound on one idiom's walk

bool isAddition(const Node& n) {
  return n.kind == NodeKind::Add || n.kind == NodeKind::Sub || n.kind == NodeKind::Fma;
}

}  // namespace

bool SmtEmitter::sumTerms(int id, std::vector<SumTerm>& out, size_t& roundings, bool& directed) const {
  // Depth-first over the additions under `id`; anything else is a term.
  struct Item {
    int node;
    bool negated;
    int depth;
  };
  std::vector<Item> stack = {{id, false, 0}};
  while (!stack.empty()) {
    Item it = stack.back();
    stack.pop_back();
    const Node& n = dag_.node(it.node);
    if (!isAddition(n)) {
      out.push_back({it.node, -1, -1, it.negated, it.depth});
    } else {
      int depth = it.depth + (n.rounded ? 1 : 0);
      if (n.rounded) ++roundings;
      directed = directed || n.directed;
      if (n.kind == NodeKind::Fma) {
        out.push_back({-1, n.a, n.b, it.negated, depth});
        stack.push_back({n.c, it.negated, depth});
      } else {
        stack.push_back({n.b, n.kind == NodeKind::Sub ? !it.negated : it.negated, depth});
        stack.push_back({n.a, it.negated, depth});
      }
    }
    if (out.size() + stack.size() > kMaxSumTerms) return false;
  }
  return out.size() >= kMinSumTerms && roundings >= 2;
}

sm::TermPtr SmtEmitter::term(int id) {
  if (auto it = done_.find(id); it != done_.end()) return it->second;
  const Node& n = dag_.node(id);
  auto absT = [](const sm::TermPtr& t) { return sm::mkIte(sm::mkCmp(">=", t, sm::realConst(0)), t, sm::mkNeg(t)); };
  sm::TermPtr out;
  switch (n.kind) {
    case NodeKind::Const:
      if (!std::isfinite(n.value)) throw std::runtime_error("an infinite or NaN constant reaches an output");
      out = sm::realConst(n.value);
      break;
    case NodeKind::BoolConst: out = sm::boolConst(n.value != 0); break;
    case NodeKind::Input: out = inputTerm_(n.tensor, n.flat); break;
    case NodeKind::Poison: throw std::runtime_error("a value computed from a never-written output cell (NaN)");
    case NodeKind::Lt: out = sm::mkCmp("<", term(n.a), term(n.b)); break;
    case NodeKind::Le: out = sm::mkCmp("<=", term(n.a), term(n.b)); break;
    case NodeKind::Gt: out = sm::mkCmp(">", term(n.a), term(n.b)); break;
    case NodeKind::Ge: out = sm::mkCmp(">=", term(n.a), term(n.b)); break;
    case NodeKind::Eq: out = sm::mkCmp("=", term(n.a), term(n.b)); break;
    case NodeKind::Ne: out = sm::mkNot(sm::mkCmp("=", term(n.a), term(n.b))); break;
    case NodeKind::Not: out = sm::mkNot(term(n.a)); break;
    case NodeKind::And: out = sm::mkAnd({term(n.a), term(n.b)}); break;
    case NodeKind::Or: out = sm::mkOr({term(n.a), term(n.b)}); break;
    case NodeKind::Xor: out = sm::mkNot(sm::mkCmp("=", term(n.a), term(n.b))); break;
    default: {
      std::vector<SumTerm> terms;
      size_t treeRoundings = 0;
      bool directed = false;
      if (idioms_ && isAddition(n) && n.rounded && sumTerms(id, terms, treeRoundings, directed)) {
        std::vector<sm::TermPtr> values, magnitudes;
        int h = 0;
        for (const SumTerm& t : terms) {
          sm::TermPtr v = t.node >= 0 ? term(t.node) : sm::mkArith("*", {term(t.a), term(t.b)});
          magnitudes.push_back(absOf(v));
          values.push_back(t.negated ? sm::mkNeg(v) : v);
          h = std::max(h, t.depth);
        }
        double u = std::ldexp(1.0, directed ? -23 : -24);
        // gamma_h, rounded up: the bound must not shrink in double arithmetic.
        double gamma = std::nextafter(h * u / (1.0 - h * u), 1.0);
        std::string name = names_.symbol("kernel-node-" + std::to_string(id), "k_" + std::to_string(id));
        script_.declareConst(name, sm::Sort::Real);
        out = sm::symbol(name, sm::Sort::Real);
        std::string comment = "a sum of " + std::to_string(terms.size()) + " terms in " + std::to_string(treeRoundings) +
                              " roundings, at most " + std::to_string(h) + " on a path (PTX line " + std::to_string(n.line) + ")";
        script_.assertTerm("the kernel's values: summation idioms, |s - sum| <= gamma_h sum |term|", comment,
                           sm::mkCmp("<=", absOf(sm::mkArith("-", {out, sm::mkArith("+", values)})),
                                     sm::mkArith("*", {sm::realConst(gamma), sm::mkArith("+", magnitudes)})));
        ++rounded_;
        ++sums_;
        sumRoundings_ += treeRoundings;
        break;
      }
      sm::TermPtr value;
      switch (n.kind) {
        case NodeKind::Add: value = sm::mkArith("+", {term(n.a), term(n.b)}); break;
        case NodeKind::Sub: value = sm::mkArith("-", {term(n.a), term(n.b)}); break;
        case NodeKind::Mul: value = sm::mkArith("*", {term(n.a), term(n.b)}); break;
        case NodeKind::Fma: value = sm::mkArith("+", {sm::mkArith("*", {term(n.a), term(n.b)}), term(n.c)}); break;
        case NodeKind::Div: value = sm::mkArith("/", {term(n.a), term(n.b)}); break;
        case NodeKind::Sqrt: {
          // The exact root as a constant of its own: for a >= 0, s >= 0 and s s = a (a < 0 is
          // NaN on the GPU, outside the model).
          sm::TermPtr a = term(n.a);
          std::string root = names_.symbol("kernel-root-" + std::to_string(id), "s_" + std::to_string(id));
          script_.declareConst(root, sm::Sort::Real);
          value = sm::symbol(root, sm::Sort::Real);
          script_.assertTerm("the kernel's values: square roots", "",
                             sm::mkImplies(sm::mkCmp(">=", a, sm::realConst(0)),
                                           sm::mkAnd({sm::mkCmp(">=", value, sm::realConst(0)),
                                                      sm::mkCmp("=", sm::mkArith("*", {value, value}), a)})));
          break;
        }
        case NodeKind::Neg: value = sm::mkNeg(term(n.a)); break;
        case NodeKind::Abs: value = absT(term(n.a)); break;
        case NodeKind::Min: {
          auto x = term(n.a), y = term(n.b);
          value = sm::mkIte(sm::mkCmp("<=", x, y), x, y);
          break;
        }
        case NodeKind::Max: {
          auto x = term(n.a), y = term(n.b);
          value = sm::mkIte(sm::mkCmp(">=", x, y), x, y);
          break;
        }
        case NodeKind::Ite: value = sm::mkIte(term(n.a), term(n.b), term(n.c)); break;
        default: throw std::logic_error("SmtEmitter: unhandled node");
      }
      // Every computed node is a named constant with its definition: the script stays linear
      // in the DAG however often a value is used.
      std::string name = names_.symbol("kernel-node-" + std::to_string(id), "k_" + std::to_string(id));
      script_.declareConst(name, sm::Sort::Real);
      out = sm::symbol(name, sm::Sort::Real);
      if (n.rounded) {
        ++rounded_;
        double u = std::ldexp(1.0, n.directed ? -23 : -24);
        std::string comment = "rounded to f32 (PTX line " + std::to_string(n.line) + ")";
        script_.assertTerm("the kernel's values: each rounding within u |exact| (u = 2^-24, 2^-23 for directed modes)",
                           comment,
                           sm::mkCmp("<=", absT(sm::mkArith("-", {out, value})), sm::mkArith("*", {sm::realConst(u), absT(value)})));
      } else {
        script_.assertTerm("the kernel's values: exact operations", "", sm::mkCmp("=", out, value));
      }
    }
  }
  done_[id] = out;
  return out;
}

}  // namespace kc::kprove

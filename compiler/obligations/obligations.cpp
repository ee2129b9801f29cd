// The obligations of a contract: one Builder per obligation, each with its own script and
// names, so that every script stands alone and prints the same way every time.
#include "compiler/obligations/obligations.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "compiler/obligations/builder.h"
#include "compiler/plan/index_width.h"
#include "stdlib/numerics/dtype.h"

namespace kc::obl {

using smt::Sort;
using smt::TermPtr;
using namespace detail;

const char* kindName(Kind k) {
  switch (k) {
    case Kind::PreSatisfiable: return "pre-satisfiable";
    case Kind::IndexWidth31: return "index-width-31";
    case Kind::IndexWidth32: return "index-width-32";
    case Kind::Defined: return "defined";
    case Kind::BlindBandDetect: return "blind-band-detect";
    case Kind::BlindBandCorrect: return "blind-band-correct";
    case Kind::BlindBandAccumulator: return "blind-band-accumulator";
    case Kind::BlindBandOperand: return "blind-band-operand";
  }
  return "?";
}

const char* answerName(Answer a) { return a == Answer::Sat ? "sat" : "unsat"; }

std::string sanitiseId(const std::string& id) {
  std::string s;
  for (char c : id) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '_' || c == '-' || c == '@';
    s += keep ? c : '_';
  }
  return s;
}

std::string locationText(const SourceRange& r, const SourceManager* sources) {
  std::string pos = std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
  if (sources && sources->has(r.file)) return sources->file(r.file).path() + ":" + pos;
  return pos;
}

namespace {

const char* kFinitePurpose = "inputs taken as finite reals (isnan and isinf false, isfinite true)";

// --- the reduced shape -------------------------------------------------------------------------

std::pair<int64_t, int64_t> dimRange(const sema::ContractInfo& c, const sema::DimInfo& d) {
  for (const auto& s : c.scope.dims)
    if (s.name == d.name) return {s.lo, s.hi};
  return {d.lo, d.hi};
}

bool mentionsOnlyDims(const ir::Node& n, std::set<std::string>& dims) {
  bool ok = true;
  ir::walk(n, [&](const ir::Node& k) {
    switch (k.op) {
      case ir::Op::TensorRead: case ir::Op::TensorWhole: case ir::Op::Quantifier: case ir::Op::Reduce:
      case ir::Op::Call: case ir::Op::TensorStat: case ir::Op::IndexVar:
        ok = false;
        break;
      case ir::Op::Dim: dims.insert(k.name); break;
      default: break;
    }
  });
  return ok && !dims.empty();
}

// Whether every condition holds at the shape's fixed dims (false when one cannot be decided).
bool holds(const sema::ContractInfo& c, const ReducedShape& shape, const std::vector<const ir::Node*>& conds) {
  smt::Script scratch;
  smt::NameTable names;
  Unroller u(c, shape, scratch, names);
  for (const ir::Node* n : conds) {
    try {
      TermPtr t = u.term(*n);
      if (!t->boolean || !*t->boolean) return false;
    } catch (const Unsupported&) {
      return false;
    }
  }
  return true;
}

}  // namespace

ReducedShape reducedShape(const sema::ContractInfo& c) {
  ReducedShape s;
  if (!c.kernel) return s;
  for (const auto& d : c.kernel->dims) {
    auto [lo, hi] = dimRange(c, d);
    int64_t v = std::max(lo, std::min({lo + 1, hi, int64_t{3}}));
    s.order.push_back(d.name);
    if (v <= kMaxReducedDim)
      s.fixed[d.name] = v;
    else
      s.free[d.name] = {lo, hi};
  }
  for (const auto& v : c.kernel->dtypeVars) {
    auto it = c.scope.dtypes.find(v.name);
    const auto& allowed = it != c.scope.dtypes.end() && !it->second.empty() ? it->second : v.allowed;
    if (!allowed.empty()) s.dtypes[v.name] = allowed[0];
  }

  // Conditions on the dims alone (H % 32 == 0, K <= N): search small values that meet them.
  std::vector<const ir::Node*> conds;
  std::set<std::string> condDims;
  for (const auto& p : c.pre) {
    std::set<std::string> ds;
    if (mentionsOnlyDims(*p.expr, ds)) {
      conds.push_back(p.expr.get());
      condDims.insert(ds.begin(), ds.end());
    }
  }
  if (conds.empty() || holds(c, s, conds)) return s;
  std::vector<std::string> search;
  for (const auto& d : s.order)
    if (condDims.count(d) && s.fixed.count(d)) search.push_back(d);
  if (search.empty() || search.size() > 3) return s;
  std::vector<int64_t> start, stop;
  for (const auto& d : search) {
    const sema::DimInfo* info = c.kernel->dim(d);
    int64_t hi = dimRange(c, *info).second;
    start.push_back(s.fixed[d]);
    stop.push_back(std::min(hi, s.fixed[d] + 64));
  }
  ReducedShape trial = s;
  std::vector<int64_t> cur = start;
  for (int tries = 0; tries < 20000; ++tries) {
    for (size_t k = 0; k < search.size(); ++k) trial.fixed[search[k]] = cur[k];
    if (holds(c, trial, conds)) return trial;
    size_t k = search.size();
    while (k-- > 0) {
      if (++cur[k] <= stop[k]) break;
      cur[k] = start[k];
    }
    if (k == static_cast<size_t>(-1)) break;
  }
  return s;
}

namespace detail {

Obligation Builder::finish(const std::string& id, Kind kind, Answer expected, const std::string& purpose,
                    const SourceRange& range, const std::vector<std::string>& model) {
  Obligation o;
  o.id = id;
  o.kind = kind;
  o.expected = expected;
  o.purpose = purpose;
  o.range = range;
  o.estimate = estimate;
  script.header = {"kcontract obligation " + id,
                   std::string("kind: ") + kindName(kind) + "; expected: " + answerName(expected) +
                       (expected == Answer::Sat ? " (a model is the witness)" : " (sat gives a counterexample)"),
                   "purpose: " + purpose, "source: " + locationText(range, opts.sources)};
  if (!estimate.empty()) script.header.push_back("estimate: " + estimate);
  for (const auto& m : model) script.header.push_back(m);
  if (!script.declareFuns.empty()) {
    std::string fns;
    for (const auto& d : script.declareFuns) {
      std::string name = d.substr(13, d.find(' ', 13) - 13);  // (declare-fun NAME ...
      fns += (fns.empty() ? "" : ", ") + name;
    }
    script.header.push_back("model: " + fns + (script.declareFuns.size() == 1 ? " is" : " are") +
                            " uninterpreted, with the facts asserted below");
  }
  script.getModel = expected == Answer::Sat;
  o.smt2 = script.text();
  o.inputs = u.inputSymbols();
  return o;
}

bool isCloseness(const ir::Node& e, const std::string& out) {
  const ir::Node* n = &e;
  while (n->op == ir::Op::Quantifier && n->b) n = n->kids.back().get();
  const ir::Node* absSide = nullptr;
  if (n->op == ir::Op::Le) absSide = n->kids[0].get();
  else if (n->op == ir::Op::Ge) absSide = n->kids[1].get();
  if (!absSide || absSide->op != ir::Op::Abs) return false;
  const ir::Node& diff = *absSide->kids[0];
  if (diff.op != ir::Op::Sub) return false;
  auto is = [&](const ir::Node& k, ir::Role r) { return k.op == ir::Op::TensorRead && k.role == r && k.name == out; };
  return (is(*diff.kids[0], ir::Role::Output) && is(*diff.kids[1], ir::Role::Oracle)) ||
         (is(*diff.kids[0], ir::Role::Oracle) && is(*diff.kids[1], ir::Role::Output));
}

// The dtype a tensor's cells have at the reduced shape ("" when unknown).
std::string resolvedDType(const sema::TensorInfo& t, const ReducedShape& shape) {
  if (!t.dtypeIsVar) return t.dtype;
  auto it = shape.dtypes.find(t.dtype);
  return it == shape.dtypes.end() ? "" : it->second;
}

// sum(v, if e == v then x else 0): at most one term is not zero, so the sum is exact in any
// order (a gather written as a selection: std.ops.embedding).
// A literal 0 (a selection's "else 0").
bool zeroConst(const ir::Node& k) { return (k.op == ir::Op::ConstReal || k.op == ir::Op::ConstInt) && k.d == 0 && k.i == 0; }

bool selectsOne(const ir::Node& reduce) {
  const ir::Node& body = *reduce.kids[2];
  if (body.op != ir::Op::Select || reduce.vars.size() != 1) return false;
  if (!zeroConst(*body.kids[1]) && !zeroConst(*body.kids[2])) return false;
  const ir::Node& cond = *body.kids[0];
  if (cond.op != ir::Op::Eq) return false;
  const std::string& v = reduce.vars[0];
  auto isVar = [&](const ir::Node& k) { return k.op == ir::Op::IndexVar && k.name == v; };
  auto mentions = [&](const ir::Node& k) {
    bool found = false;
    ir::walk(k, [&](const ir::Node& x) { found = found || isVar(x); });
    return found;
  };
  return (isVar(*cond.kids[0]) && !mentions(*cond.kids[1])) || (isVar(*cond.kids[1]) && !mentions(*cond.kids[0]));
}

}  // namespace detail

namespace {

// --- the kinds ---------------------------------------------------------------------------------

void preSatisfiable(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape,
                    ObligationSet& out) {
  std::string id = c.id + "/pre-satisfiable";
  SourceRange range = c.pre.empty() ? c.range : c.pre[0].expr->range;
  try {
    Builder b(c, opts, shape);
    b.assertPre();
    b.u.addFacts();
    std::string purpose =
        c.pre.empty()
            ? "The contract has no pre condition, so some input meets it (trivially sat)."
            : "The precondition is not vacuous: some input meets every pre condition at the reduced shape (" +
                  dimsText(shape) + "), " + kFinitePurpose + ".";
    out.obligations.push_back(b.finish(id, Kind::PreSatisfiable, Answer::Sat, purpose, range,
                                       {"reduced shape: " + dimsText(shape), std::string("model: ") + kFiniteNote}));
  } catch (const Unsupported& e) {
    out.skipped.push_back({id, e.what(), range});
  }
}

std::string productText(const sema::TensorInfo& t) {
  std::string s;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    std::string e = ir::print(*t.shape[i]);
    bool simple = t.shape[i]->op == ir::Op::Dim || t.shape[i]->op == ir::Op::ConstInt;
    s += (i ? "*" : "") + (simple || t.shape.size() == 1 ? e : "(" + e + ")");
  }
  return s;
}

void indexWidth(const sema::ContractInfo& c, const BuildOptions& opts, const sema::TensorInfo& t, int bits,
                ObligationSet& out) {
  Kind kind = bits == 31 ? Kind::IndexWidth31 : Kind::IndexWidth32;
  std::string id = c.id + "/" + kindName(kind) + "/" + t.name;
  // More than 2^bits elements: an element at index 2^bits, the first a 32-bit signed
  // (bits 31) or unsigned (bits 32) index cannot hold; the planner's threshold too.
  int64_t limit = static_cast<int64_t>(plan::indexWidthLimit(bits));
  std::string limitText = "2^" + std::to_string(bits) + " = " + std::to_string(limit);
  try {
    ReducedShape all;  // every dim symbolic, within the scope's ranges
    for (const auto& d : c.kernel->dims) {
      all.order.push_back(d.name);
      all.free[d.name] = dimRange(c, d);
    }
    Builder b(c, opts, all);
    b.script.logic = "QF_NIA";
    std::vector<TermPtr> factors;
    for (const auto& e : t.shape) factors.push_back(b.u.term(*e));
    TermPtr count = smt::mkArith("*", factors);

    // The product of monotone factors (dims and positive constants) peaks at the dims' maxima.
    std::string estimate;
    bool monotone = std::all_of(t.shape.begin(), t.shape.end(), [](const ir::NodePtr& e) {
      return e->op == ir::Op::Dim || (e->op == ir::Op::ConstInt && e->i > 0);
    });
    if (monotone) {
      ir::IntEnv maxima;
      for (const auto& d : c.kernel->dims) maxima[d.name] = dimRange(c, d).second;
      __int128 prod = 1;
      bool over = false;
      for (const auto& e : t.shape) {
        prod *= e->op == ir::Op::Dim ? maxima[e->name] : e->i;
        if (prod > (static_cast<__int128>(1) << 100)) over = true;
      }
      if (over || prod > limit) {
        std::string p = over ? "more than 2^100" : std::to_string(static_cast<int64_t>(prod));
        estimate = "sat: " + productText(t) + " reaches " + p + " at the dims' maxima";
      } else {
        estimate = "unsat (trivially): " + productText(t) + " is at most " + std::to_string(static_cast<int64_t>(prod));
      }
    }
    std::string purpose = "Can " + t.name + " (" + productText(t) + " elements) hold more than " + limitText +
                          " elements (an element at index 2^" + std::to_string(bits) + ", past " + (bits == 31 ? "INT32_MAX" : "UINT32_MAX") +
                          ") within the dims' ranges? Unsat is fine; sat means " +
                          (bits == 31 ? "32-bit signed" : "32-bit unsigned") +
                          " element offsets overflow, so the plan must hold a large-index case or the scope must exclude it.";
    b.script.assertTerm("the element count over the limit", "count(" + t.name + ") = " + productText(t),
                        smt::mkCmp(">", count, smt::intConst(limit)));
    b.estimate = estimate;
    out.obligations.push_back(b.finish(id, kind, Answer::Unsat, purpose, t.range, {"dims: " + all.describe()}));
  } catch (const Unsupported& e) {
    out.skipped.push_back({id, e.what(), t.range});
  }
}

struct Site {
  const sema::Definition* def;
  const ir::Node* node;
  std::string what;  // div, log, log2, log10, sqrt, rsqrt
};

std::vector<Site> sitesOf(const sema::Definition& d) {
  std::vector<Site> out;
  ir::walk(*d.value, [&](const ir::Node& n) {
    if (n.op == ir::Op::Div) out.push_back({&d, &n, "div"});
    if (n.op == ir::Op::Call &&
        (n.name == "log" || n.name == "log2" || n.name == "log10" || n.name == "sqrt" || n.name == "rsqrt"))
      out.push_back({&d, &n, n.name});
  });
  return out;
}

std::string siteRequirement(const Site& s) {
  std::string arg = shorten(ir::print(*s.node->kids.back()), 80);
  if (s.what == "div") return "its denominator " + arg + " is never 0";
  if (s.what == "sqrt") return "the argument " + arg + " of sqrt is never negative";
  return "the argument " + arg + " of " + s.what + " is always positive";
}

void defined(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape, ObligationSet& out) {
  for (bool oracle : {true, false}) {
    const auto& defs = oracle ? c.oracle : c.tolerance;
    for (const auto& d : defs) {
      std::map<std::string, int> counts;
      for (const Site& s : sitesOf(d)) {
        std::string id = c.id + "/defined/" + d.name + "/" + s.what + "-" + std::to_string(++counts[s.what]);
        try {
          Builder b(c, opts, shape);
          b.assertPre();
          b.u.watch(s.node);
          for (const auto& idx : Unroller::cells(b.u.extents(d))) b.u.term(*d.value, b.u.bind(d.indices, idx));
          std::vector<TermPtr> failures = b.u.takeFailures();
          if (failures.empty()) throw Unsupported("the site has no instance at the reduced shape");
          TermPtr bad = smt::mkOr(std::move(failures));
          if (bad->boolean && !*bad->boolean) b.estimate = "unsat (trivially): no instance is undefined at the reduced shape";
          b.u.addFacts();
          b.script.assertTerm("some instance of the site is undefined", shorten(ir::print(*s.node), 200), bad);
          std::string purpose = std::string(oracle ? "The oracle's" : "The tolerance's") + " definition of " + d.name +
                                " is defined: " + siteRequirement(s) +
                                " when the precondition holds, at the reduced shape (" + dimsText(shape) + ").";
          out.obligations.push_back(b.finish(id, Kind::Defined, Answer::Unsat, purpose, s.node->range,
                                             {"reduced shape: " + dimsText(shape), std::string("model: ") + kFiniteNote}));
        } catch (const Unsupported& e) {
          out.skipped.push_back({id, e.what(), s.node->range});
        }
      }
    }
  }
}

// |y - y*| <= tol (either order of y and y*, either side of the comparison) under foralls.

// How a correct implementation of output `name` may differ from the oracle: the rounding
// reduction on its longest chain (its length; 1 when none), whether any of it rounds (real arithmetic
// or a rounding function; max, min, abs, negation, selection, copying and scaling by a power
// of two are exact), and the roundings on its longest chain of operations. Each arithmetic
// operation rounds once, and its operands' relative errors pass through it (exactly for * and
// /, without cancellation for + and -); a length-n sum or product adds n - 1 to its terms' (at
// least 1 each: a dot product counts n, as gamma(n) does); a function (exp, sqrt, erf) counts
// its own error only: what reaches it through its argument is scaled by a condition number
// the model does not know, and is left to the tolerance.
struct CorrectModel {
  int64_t n = 1;
  bool rounds = false;
  int64_t roundings = 0;
};

bool exactCall(const std::string& f) {
  static const std::set<std::string> exact = {"fmax", "fmin", "max", "min", "abs", "fabs", "isnan", "isinf",
                                              "isfinite", "sign", "floor", "ceil", "trunc"};
  return exact.count(f) > 0;
}

// A literal power of two (x * 2, x / 2, 0.5 * x are exact in binary floating point).
bool powerOfTwo(const ir::Node& n) {
  double v = n.op == ir::Op::ConstReal ? n.d : n.op == ir::Op::ConstInt ? double(n.i) : 0;
  if (!(v > 0)) return false;
  int e = 0;
  return std::frexp(v, &e) == 0.5;
}

// At one cell of the output (cell given), or at its longest (reductions whose bounds follow
// the indices, as a prefix sum's, taken at the first and the last cell).
CorrectModel correctModel(const sema::ContractInfo& c, const ReducedShape& shape, const std::string& name,
                          const std::vector<int64_t>* cell = nullptr) {
  ir::IntEnv env;
  for (const auto& [d, v] : shape.fixed) env[d] = v;
  CorrectModel m;
  // The roundings on the longest chain of operations behind a node, and the length of the
  // rounding reduction on that chain (1 when none).
  struct Chain {
    int64_t k = 0, n = 1;
    bool operator<(const Chain& o) const { return k != o.k ? k < o.k : n < o.n; }
  };
  std::map<std::string, Chain> chains;  // definition -> its chain
  ir::IntEnv first = env, last = env;   // the fixed dims and the definition's first and last cell
  // A bound on |v| for an expression whose values are integers: reads of integer tensors of
  // at most 16 bits, integer constants, floor/ceil/trunc, and +, -, * of such. Arithmetic on
  // them is exact in f32 while the bound stays within 2^24 (an int4 unpacked with floor and
  // -, a nibble minus 8); nullopt when the expression may not be such an integer.
  std::function<std::optional<double>(const ir::Node&)> integerBound = [&](const ir::Node& n) -> std::optional<double> {
    switch (n.op) {
      case ir::Op::ConstInt: return std::fabs(static_cast<double>(n.i));
      case ir::Op::ConstReal: return n.d == std::floor(n.d) ? std::optional<double>(std::fabs(n.d)) : std::nullopt;
      case ir::Op::TensorRead: {
        if (n.role == ir::Role::Local || n.role == ir::Role::Oracle) {  // a definition of such integers
          static thread_local int depth = 0;
          if (depth > 16) return std::nullopt;
          for (const auto& o : c.oracle)
            if (o.name == n.name && o.value) {
              ++depth;
              std::optional<double> b = integerBound(*o.value);
              --depth;
              return b;
            }
          return std::nullopt;
        }
        if (n.role != ir::Role::Input) return std::nullopt;
        const sema::TensorInfo* t = c.kernel->tensor(n.name);
        auto dt = t ? numerics::parseDType(resolvedDType(*t, shape)) : std::nullopt;
        if (!dt || !numerics::isInteger(*dt) || numerics::sizeBytes(*dt) > 2) return std::nullopt;
        return std::max(std::fabs(static_cast<double>(numerics::intMin(*dt))), static_cast<double>(numerics::intMax(*dt)));
      }
      case ir::Op::Call:
        if ((n.name == "floor" || n.name == "ceil" || n.name == "trunc") && n.kids.size() == 1) {
          // floor(v / 2^k) of an integer v: no larger than v.
          const ir::Node& a = *n.kids[0];
          if (a.op == ir::Op::Div && a.kids.size() == 2 && powerOfTwo(*a.kids[1])) return integerBound(*a.kids[0]);
          return integerBound(a);
        }
        return std::nullopt;
      case ir::Op::Neg:
        return n.kids.size() == 1 ? integerBound(*n.kids[0]) : std::nullopt;
      case ir::Op::Select: {  // if c then a else b: the larger of the two
        if (n.kids.size() != 3) return std::nullopt;
        auto a = integerBound(*n.kids[1]), b = integerBound(*n.kids[2]);
        if (!a || !b) return std::nullopt;
        return std::max(*a, *b);
      }
      case ir::Op::Add:
      case ir::Op::Sub:
      case ir::Op::Mul: {
        if (n.kids.size() != 2) return std::nullopt;
        auto a = integerBound(*n.kids[0]), b = integerBound(*n.kids[1]);
        if (!a || !b) return std::nullopt;
        return n.op == ir::Op::Mul ? *a * *b : *a + *b;
      }
      default: return std::nullopt;
    }
  };
  constexpr double kExactInF32 = 16777216.0;  // 2^24: every integer up to it is an f32
  std::function<Chain(const std::string&)> visit;
  std::function<Chain(const ir::Node&)> count = [&](const ir::Node& n) -> Chain {
    if (n.type != ir::Type::Real) return {};
    if (n.op == ir::Op::TensorRead)
      return n.role == ir::Role::Local || n.role == ir::Role::Oracle ? visit(n.name) : Chain{};
    if (n.op == ir::Op::Reduce) {
      Chain body = count(*n.kids[2]);
      if (n.name == "sum" && !selectsOne(n) && n.kids[2]->op == ir::Op::Select) {
        // A selection on the inputs' values (scatter_add's idx[r, k] == c) keeps as many terms
        // as the data says, down to none, where a tolerance may rightly be 0; one on indices
        // alone (a convolution's padding) keeps at most the reduction's length, as counted.
        const ir::Node& sel = *n.kids[2];
        bool onValues = false;
        ir::walk(*sel.kids[0], [&](const ir::Node& x) { onValues = onValues || x.op == ir::Op::TensorRead; });
        if (onValues && (zeroConst(*sel.kids[1]) || zeroConst(*sel.kids[2])))
          throw Unsupported("a sum over a selection on the inputs' values (sum(k, if ... then e else 0)): how many of its "
                            "terms are kept is the inputs' to say, and the model cannot count them");
      }
      if ((n.name == "sum" && !selectsOne(n)) || n.name == "prod") {
        // The longest instance: bounds that follow the definition's indices (a prefix sum,
        // sum(k in 0..h, ...)) taken at the first and at the last cell.
        int64_t len = 1;
        for (const ir::IntEnv* at : {&env, &first, &last}) {
          auto lo = ir::evalInt(*n.kids[0], *at), hi = ir::evalInt(*n.kids[1], *at);
          if (lo && hi) len = std::max(len, *hi - *lo + 1);
        }
        m.rounds = true;
        return {len - 1 + std::max<int64_t>(1, body.k), len};
      }
      return body;
    }
    // A function's own rounding counts; its argument's roundings reach the result scaled by
    // the function's condition number, which the model does not know: left to the tolerance.
    if (n.op == ir::Op::Call && !exactCall(n.name)) {
      m.rounds = true;
      return {1, 1};
    }
    Chain deepest;
    for (const auto& k : n.kids) deepest = std::max(deepest, count(*k));
    bool arith = n.op == ir::Op::Add || n.op == ir::Op::Sub || n.op == ir::Op::Mul ||
                 (n.op == ir::Op::Div && n.type == ir::Type::Real) ||
                 n.op == ir::Op::Pow || n.op == ir::Op::TensorStat;
    if ((n.op == ir::Op::Mul || n.op == ir::Op::Div) && n.kids.size() == 2 &&
        (powerOfTwo(*n.kids[1]) || (n.op == ir::Op::Mul && powerOfTwo(*n.kids[0]))))
      arith = false;
    if (arith && n.op != ir::Op::Div) {
      std::optional<double> b = integerBound(n);
      if (b && *b <= kExactInF32) arith = false;
    }
    if (arith || n.op == ir::Op::RoundTo) {
      m.rounds = true;
      ++deepest.k;
    }
    return deepest;
  };
  visit = [&](const std::string& def) -> Chain {
    if (auto it = chains.find(def); it != chains.end()) return it->second;
    chains[def] = {};  // a cycle (rejected by sema) counts nothing
    const sema::Definition* d = nullptr;
    for (const auto& o : c.oracle)
      if (o.name == def) d = &o;
    if (!d) return {};
    ir::IntEnv savedFirst = first, savedLast = last;
    first = last = env;
    for (size_t i = 0; i < d->indices.size() && i < d->extents.size(); ++i)
      if (cell && def == name && i < cell->size()) {
        first[d->indices[i]] = last[d->indices[i]] = (*cell)[i];
      } else if (auto e = ir::evalInt(*d->extents[i], env); e && *e > 0) {
        first[d->indices[i]] = 0;
        last[d->indices[i]] = *e - 1;
      }
    Chain ch = count(*d->value);
    first = savedFirst;
    last = savedLast;
    chains[def] = ch;
    return ch;
  };
  Chain ch = visit(name);
  m.roundings = ch.k;
  m.n = ch.n;
  return m;
}


// Whether output `name`'s oracle (or a definition it reads) rounds to an integer: floor,
// ceil, trunc or round(T, x) on the way (a quantizer's q).
bool quantizes(const sema::ContractInfo& c, const std::string& name) {
  std::set<std::string> seen;
  std::function<bool(const std::string&)> visit = [&](const std::string& def) {
    if (!seen.insert(def).second) return false;
    for (const auto& d : c.oracle)
      if (d.name == def && d.value) {
        bool found = false;
        ir::walk(*d.value, [&](const ir::Node& n) {
          if (n.op == ir::Op::RoundTo || (n.op == ir::Op::Call && (n.name == "floor" || n.name == "ceil" || n.name == "trunc")))
            found = true;
          else if (n.op == ir::Op::TensorRead && (n.role == ir::Role::Local || n.role == ir::Role::Oracle) && n.name != def)
            found = found || visit(n.name);
        });
        return found;
      }
    return false;
  };
  return visit(name);
}

// Long on purpose: its two obligations, (a) detect and (b) correct, are built over the same output,
// shape and dtype and read best side by side.
void blindBand(const sema::ContractInfo& c, const BuildOptions& opts, const ReducedShape& shape, ObligationSet& out) {
  const sema::TensorInfo* y = nullptr;
  for (const auto& t : c.kernel->tensors)
    if (t.output) {
      y = &t;
      break;
    }
  if (!y) return;
  const sema::Condition* post = nullptr;
  for (const auto& p : c.post)
    if (isCloseness(*p.expr, y->name)) {
      post = &p;
      break;
    }
  if (!post) return;  // no closeness postcondition: nothing to ask
  std::string postText = ir::print(*post->expr);
  std::string dt = y->dtype;
  if (y->dtypeIsVar) {
    auto it = shape.dtypes.find(dt);
    dt = it == shape.dtypes.end() ? "" : it->second;
  }
  auto T = numerics::parseDType(dt);

  // (a) detect: every output cell one spacing of T above the oracle.
  {
    std::string id = c.id + "/blind-band-detect";
    try {
      if (!T || !numerics::isFloat(*T)) throw Unsupported("the output " + y->name + " has no float dtype");
      if (!c.kernel || !std::any_of(c.oracle.begin(), c.oracle.end(), [&](const auto& d) { return d.name == y->name; }))
        throw Unsupported("the oracle does not define " + y->name);
      Builder b(c, opts, shape);
      b.assertPre();
      b.u.outputModel = [&](const std::string& name, const std::vector<int64_t>& idx, const std::string& printed) {
        // The same ulp function as the tolerance's ulp(T, y*): one value per argument.
        TermPtr star = b.u.oracleCell(name, idx);
        TermPtr spacing = b.u.ulp(dt, star);
        b.script.declareConst(printed, Sort::Real);
        TermPtr sym = smt::symbol(printed, Sort::Real);
        b.script.assertTerm("the fault: each output cell one spacing of " + dt + " above the oracle", "",
                            smt::mkCmp("=", sym, smt::mkArith("+", {star, spacing})));
        return sym;
      };
      TermPtr holdsPost = b.u.term(*post->expr);
      b.u.addFacts();
      b.script.assertTerm("the tolerance misses the fault", "violated: " + postText, smt::mkNot(holdsPost));
      std::string purpose = "The tolerance sees a one-ulp fault: some input meeting the precondition, with every cell of " +
                            y->name + " one spacing of " + dt + " away from " + y->name + "*, violates " +
                            shorten(postText, 80) + " at the reduced shape (" + dimsText(shape) +
                            "); unsat means the tolerance is blind to one-ulp errors.";
      out.obligations.push_back(b.finish(
          id, Kind::BlindBandDetect, Answer::Sat, purpose, post->range,
          {"reduced shape: " + dimsText(shape), std::string("model: ") + kFiniteNote,
           "model: ulp_" + dt + "(v) is the spacing of " + dt + " at v: in [eps/2 |v|, eps |v|] for normal v, " +
               "the subnormal spacing below min_normal"}));
    } catch (const Unsupported& e) {
      out.skipped.push_back({id, e.what(), post->range});
    }
  }

  // (b) correct: each output within a relative gamma(n, f32) of the oracle.
  {
    std::string id = c.id + "/blind-band-correct";
    try {
      if (!std::any_of(c.oracle.begin(), c.oracle.end(), [&](const auto& d) { return d.name == y->name; }))
        throw Unsupported("the oracle does not define " + y->name);
      CorrectModel m = correctModel(c, shape, y->name);
      if (T && numerics::isInteger(*T) && m.rounds && quantizes(c, y->name))
        throw Unsupported("an integer output (" + dt + ") the oracle rounds to an integer (floor, ceil or round): which "
                          "integer a correct implementation lands on is the contract's to say, not a relative rounding "
                          "error, so it is not modelled");
      // The accumulator: f64 for an f64 output, else f32 (the declared accumulation of every
      // standard contract). A narrower output (bf16, f16, fp8) is one more rounding, into T;
      // so is a copy from a wider input.
      std::string acc = dt == "f64" ? "f64" : "f32";
      auto Tacc = numerics::parseDType(acc);
      bool narrowOut = T && numerics::isFloat(*T) && numerics::floatFormat(*T).precision < numerics::floatFormat(*Tacc).precision;
      bool widerInput = false;
      for (const auto& t : c.kernel->tensors) {
        auto td = numerics::parseDType(resolvedDType(t, shape));
        if (!t.output && T && td && numerics::isFloat(*td) && numerics::isFloat(*T) && td != T) widerInput = true;
      }
      bool finalRounding = narrowOut && (m.rounds || widerInput);
      Builder b(c, opts, shape);
      b.assertPre();
      // k roundings in acc on the longest chain: |y_acc - y*| <= gamma(k, acc) |y*| (Higham's
      // bound for a product of k factors (1 + delta), |delta| <= u; one rounding is u).
      int64_t k = m.rounds ? std::max<int64_t>(1, m.roundings) : 0;
      std::string kText = std::to_string(k);
      std::string accText = !m.rounds ? y->name + " only moves, compares or selects values: exact"
                            : m.n > 1 && k == m.n ? "a length-" + kText + " reduction accumulated in " + acc
                            : m.n > 1 ? "a length-" + std::to_string(m.n) + " reduction accumulated in " + acc +
                                            " and the operations around it: " + kText + " roundings in " + acc
                            : k == 1 ? "one rounding in " + acc
                                     : kText + " roundings in " + acc + ", one per operation";
      TermPtr g = !m.rounds ? smt::realConst(0) : k == 1 ? TermPtr() : b.u.gamma(smt::intConst(k), acc);
      std::string bound = !m.rounds ? "0" : k == 1 ? "min(u(" + acc + ") |" + y->name + "*|, ulp(" + acc + ", " + y->name + "*) / 2)" : "gamma(" + kText + ", " + acc + ")";
      // y = round_T(y_acc) with |y_acc - y*| <= g |y*|: |y - y*| <= g |y*| + ulp(T, y*) / 2 (the
      // spacing at y* standing for the spacing at y_acc, which is at most one binade away).
      bool halfUlp = finalRounding;
      if (halfUlp) accText += ", then one rounding into " + dt + " (half a spacing)";
      // |y - y*| <= g |y*| is the same set of outputs as y = y* (1 + delta), |delta| <= g,
      // but linear in y: cvc5 1.0.3 (no CAD) bounds it where the product y* delta times out.
      std::string scaled = k == 1 && m.rounds ? "" : " |" + y->name + "*|";
      if (finalRounding) bound += scaled + " + ulp(" + dt + ", " + y->name + "*) / 2";
      else bound += scaled;
      std::string section = "a correct implementation: |" + y->name + " - " + y->name + "*| <= " + bound;
      // One rounding: u |y*|, or half a spacing of acc at y* where that is less (at the bottom
      // of a binade, where a dequantized value often lies). Not below min_normal: there the
      // spacing is the subnormal one and u |y*| (the model's own, as for k roundings) is kept.
      auto oneRounding = [&](const TermPtr& star) {
        TermPtr rel = smt::mkArith("*", {smt::realConst(numerics::unitRoundoff(*Tacc)), b.u.abs(star)});
        TermPtr half = smt::mkArith("/", {b.u.ulp(acc, star), smt::realConst(2)});
        return smt::mkIte(smt::mkCmp("<=", rel, half), rel, half);
      };
      bool varies = false;  // some cell's chain is shorter than the longest
      b.u.outputModel = [&](const std::string& name, const std::vector<int64_t>& idx, const std::string& printed) {
        TermPtr star = b.u.oracleCell(name, idx);
        b.script.declareConst(printed, Sort::Real);
        TermPtr sym = smt::symbol(printed, Sort::Real);
        TermPtr err = b.u.abs(smt::mkArith("-", {sym, star}));
        // This cell's own chain (a prefix sum's first cells are shorter than its last).
        CorrectModel here = correctModel(c, shape, y->name, &idx);
        int64_t kHere = here.rounds ? std::max<int64_t>(1, here.roundings) : 0;
        if (kHere < k) varies = true;
        TermPtr allowed = kHere == 0   ? smt::realConst(0)
                          : kHere == 1 ? oneRounding(star)
                                       : smt::mkArith("*", {kHere == k ? g : b.u.gamma(smt::intConst(kHere), acc), b.u.abs(star)});
        if (halfUlp) allowed = smt::mkArith("+", {allowed, smt::mkArith("/", {b.u.ulp(dt, star), smt::realConst(2)})});
        b.script.assertTerm(section, "", smt::mkCmp("<=", err, allowed));
        return sym;
      };
      TermPtr holdsPost = b.u.term(*post->expr);
      if (varies) accText += " at its longest cell; fewer where its reductions are shorter";
      b.u.addFacts();
      b.script.assertTerm("the tolerance rejects it", "violated: " + postText, smt::mkNot(holdsPost));
      std::string purpose = "A correct implementation passes: with each cell of " + y->name + " within |" + y->name +
                            " - " + y->name + "*| <= " + bound + " (" + accText +
                            "), no input meeting the precondition violates " +
                            shorten(postText, 80) + " at the reduced shape (" + dimsText(shape) + ").";
      out.obligations.push_back(b.finish(
          id, Kind::BlindBandCorrect, Answer::Unsat, purpose, post->range,
          {"reduced shape: " + dimsText(shape), std::string("model: ") + kFiniteNote,
           m.rounds && k > 1 ? "model: gamma(n, " + acc + ") = n u / (1 - n u) = n / (2^" + (acc == "f64" ? "53" : "24") + " - n) exactly"
                               : "model: u(" + acc + ") = " + (acc == "f64" ? "2^-53" : "2^-24") + ", the unit roundoff"}));
    } catch (const Unsupported& e) {
      out.skipped.push_back({id, e.what(), post->range});
    }
  }

  faultModels(c, opts, shape, *y, *post, out);
}

}  // namespace

ObligationSet buildObligationSet(const sema::ContractInfo& c, const BuildOptions& opts) {
  ObligationSet out;
  if (c.isClass || !c.kernel) return out;
  ReducedShape shape = reducedShape(c);
  preSatisfiable(c, opts, shape, out);
  for (int bits : {31, 32})
    for (const auto& t : c.kernel->tensors)
      if (t.rank() > 0) indexWidth(c, opts, t, bits, out);
  defined(c, opts, shape, out);
  blindBand(c, opts, shape, out);
  return out;
}

std::vector<Obligation> buildObligations(const sema::ContractInfo& c) { return buildObligationSet(c).obligations; }

}  // namespace kc::obl

// The cvc5 side of the SMT backend. Three parts:
//   - Reader: SMT-LIB2 commands (sexpr.h) -> cvc5 API calls. cvc5 1.0.3 ships libcvc5parser
//     but installs no header for it, so the reader covers what kcontract's scripts use (core,
//     integer and real arithmetic, uninterpreted functions, define-fun, let, quantifiers) plus
//     floating point and bit-vector literals and operators, for the reduced-format
//     obligations. Anything else is an ERROR that names the construct and its line.
//   - solveInProcess: options (time limit, models, fp-exp), read, check-sat, model.
//   - solveInChild: the same in a forked child with an address-space limit; the answer comes
//     back over a pipe, and a child that overruns its time limit by the grace is killed.
#include "prover/smt/solver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cvc5/cvc5.h>
#include <map>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>

#include "prover/smt/query.h"
#include "prover/smt/sexpr.h"

namespace kc::smt {

const char* answerName(Answer a) {
  switch (a) {
    case Answer::Sat: return "sat";
    case Answer::Unsat: return "unsat";
    case Answer::Unknown: return "unknown";
    case Answer::Timeout: return "timeout";
    case Answer::Error: return "error";
  }
  return "?";
}

namespace {

// A script the reader cannot turn into cvc5 terms.
struct ReaderError : std::runtime_error {
  ReaderError(const SExpr& at, const std::string& what)
      : std::runtime_error("line " + std::to_string(at.line) + ": " + what + ": " + at.str()) {}
};


// --- the reader ---------------------------------------------------------------------------------

class Reader {
 public:
  Reader(cvc5::Solver& s, bool squareFacts) : s_(s), squareFacts_(squareFacts) {}

  // Runs the commands up to the first check-sat. False when the script has none.
  bool run(const std::vector<SExpr>& cmds, cvc5::Result& result) {
    bool checked = false;
    for (const SExpr& c : cmds) {
      if (!c.isList() || c.items.empty() || !c.items[0].isSymbol()) throw ReaderError(c, "not a command");
      const std::string& name = c.items[0].text;
      if (checked) {
        if (name == "get-model" || name == "get-value" || name == "get-info" || name == "echo" || name == "exit")
          continue;
        throw ReaderError(c, "only one check-sat is supported; this command follows it");
      }
      if (name == "check-sat") {
        // Hints: every square is nonnegative. True in real arithmetic, so the answer cannot
        // change; it spares cvc5 (whose polynomial normal form expands (x - m)^2, and which
        // has no CAD here) a search it often does not finish.
        if (squareFacts_)
          for (const auto& sq : squares_)
            s_.assertFormula(s_.mkTerm(cvc5::Kind::GEQ, {sq, sq.getSort().isInteger() ? s_.mkInteger(0) : s_.mkReal(0)}));
        result = s_.checkSat();
        checked = true;
      } else {
        command(c);
      }
    }
    return checked;
  }

  const std::vector<std::pair<std::string, cvc5::Term>>& declared() const { return declared_; }

 private:
  void command(const SExpr& c) {
    const std::string& name = c.items[0].text;
    auto arg = [&](size_t i) -> const SExpr& {
      if (i >= c.items.size()) throw ReaderError(c, "missing argument " + std::to_string(i) + " of " + name);
      return c.items[i];
    };
    if (name == "set-option") {
      std::string key = arg(1).text;
      if (arg(1).type != SExpr::Type::Keyword) throw ReaderError(c, "set-option needs a :keyword");
      key = key.substr(1);
      // Ours to decide: models are always on, and the caller's time limit is the only one.
      if (key == "produce-models" || key.rfind("tlimit", 0) == 0 || key.rfind("rlimit", 0) == 0) return;
      s_.setOption(key, arg(2).text);
    } else if (name == "set-info" || name == "get-info" || name == "echo" || name == "get-model" ||
               name == "get-value" || name == "exit") {
      // nothing to do before check-sat
    } else if (name == "set-logic") {
      const std::string& logic = arg(1).text;
      s_.setLogic(logic);
      // In a logic of reals alone, a numeral is a real (SMT-LIB's Reals theory).
      realNumerals_ = logic.find("RA") != std::string::npos && logic.find("IRA") == std::string::npos;
    } else if (name == "declare-const") {
      declareConst(arg(1), sort(arg(2)));
    } else if (name == "declare-fun") {
      const SExpr& params = arg(2);
      if (!params.isList()) throw ReaderError(c, "declare-fun needs a list of argument sorts");
      if (params.items.empty()) {
        declareConst(arg(1), sort(arg(3)));
      } else {
        std::vector<cvc5::Sort> dom;
        for (const auto& p : params.items) dom.push_back(sort(p));
        globals_[symbolText(arg(1))] = s_.declareFun(symbolText(arg(1)), dom, sort(arg(3)));
      }
    } else if (name == "define-fun") {
      defineFun(c);
    } else if (name == "assert") {
      cvc5::Term t = term(arg(1));
      if (!t.getSort().isBoolean()) throw ReaderError(c, "an assertion that is not Boolean");
      s_.assertFormula(t);
    } else if (name == "push") {
      s_.push(c.items.size() > 1 ? static_cast<uint32_t>(std::stoul(arg(1).text)) : 1);
    } else if (name == "pop") {
      s_.pop(c.items.size() > 1 ? static_cast<uint32_t>(std::stoul(arg(1).text)) : 1);
    } else {
      throw ReaderError(c, "unsupported command");
    }
  }

  static const std::string& symbolText(const SExpr& e) {
    if (!e.isSymbol()) throw ReaderError(e, "expected a symbol");
    return e.text;
  }

  void declareConst(const SExpr& name, const cvc5::Sort& srt) {
    const std::string& n = symbolText(name);
    cvc5::Term t = s_.mkConst(srt, n);
    globals_[n] = t;
    declared_.emplace_back(n, t);
  }

  void defineFun(const SExpr& c) {
    if (c.items.size() != 5 || !c.items[2].isList()) throw ReaderError(c, "define-fun needs NAME ((ARG SORT)...) SORT BODY");
    const std::string& n = symbolText(c.items[1]);
    std::vector<cvc5::Term> vars;
    std::map<std::string, cvc5::Term> scope;
    for (const auto& p : c.items[2].items) {
      if (!p.isList() || p.items.size() != 2) throw ReaderError(p, "a parameter must be (NAME SORT)");
      cvc5::Term v = s_.mkVar(sort(p.items[1]), symbolText(p.items[0]));
      vars.push_back(v);
      scope[p.items[0].text] = v;
    }
    cvc5::Sort result = sort(c.items[3]);
    locals_.push_back(std::move(scope));
    ++binders_;
    cvc5::Term body = coerce(term(c.items[4]), result);
    --binders_;
    locals_.pop_back();
    if (vars.empty())
      globals_[n] = body;  // a 0-ary definition is a macro
    else
      globals_[n] = s_.defineFun(n, vars, result, body);
  }

  // --- sorts ---

  cvc5::Sort sort(const SExpr& e) {
    if (e.isSymbol()) {
      const std::string& n = e.text;
      if (n == "Bool") return s_.getBooleanSort();
      if (n == "Int") return s_.getIntegerSort();
      if (n == "Real") return s_.getRealSort();
      if (n == "RoundingMode" || n == "RM") return s_.getRoundingModeSort();
      if (n == "Float16") return s_.mkFloatingPointSort(5, 11);
      if (n == "Float32") return s_.mkFloatingPointSort(8, 24);
      if (n == "Float64") return s_.mkFloatingPointSort(11, 53);
      if (n == "Float128") return s_.mkFloatingPointSort(15, 113);
      throw ReaderError(e, "unknown sort");
    }
    if (e.isList() && e.items.size() >= 3 && e.items[0].isSymbol("_")) {
      if (e.items[1].isSymbol("BitVec") && e.items.size() == 3) return s_.mkBitVectorSort(index(e.items[2]));
      if (e.items[1].isSymbol("FloatingPoint") && e.items.size() == 4)
        return s_.mkFloatingPointSort(index(e.items[2]), index(e.items[3]));
    }
    throw ReaderError(e, "unknown sort");
  }

  static uint32_t index(const SExpr& e) {
    if (e.type != SExpr::Type::Numeral || e.text.size() > 9) throw ReaderError(e, "expected a small numeral");
    return static_cast<uint32_t>(std::stoul(e.text));
  }

  // --- terms ---

  cvc5::Term term(const SExpr& e) {
    switch (e.type) {
      case SExpr::Type::Numeral: return realNumerals_ ? s_.mkReal(e.text) : s_.mkInteger(e.text);
      case SExpr::Type::Decimal: return s_.mkReal(e.text);
      case SExpr::Type::Binary: return s_.mkBitVector(static_cast<uint32_t>(e.text.size()), e.text, 2);
      case SExpr::Type::Hex: return s_.mkBitVector(static_cast<uint32_t>(e.text.size() * 4), e.text, 16);
      case SExpr::Type::Symbol: return symbol(e);
      case SExpr::Type::List: break;
      default: throw ReaderError(e, "not a term");
    }
    if (e.items.empty()) throw ReaderError(e, "an empty list is not a term");
    const SExpr& head = e.items[0];
    if (head.isSymbol("_")) return indexedConstant(e);
    if (head.isSymbol("let")) return let(e);
    if (head.isSymbol("!")) {
      if (e.items.size() < 2) throw ReaderError(e, "an annotation without a term");
      return term(e.items[1]);
    }
    if (head.isSymbol("forall") || head.isSymbol("exists")) return quantifier(e);
    std::vector<cvc5::Term> args;
    for (size_t i = 1; i < e.items.size(); ++i) args.push_back(term(e.items[i]));
    if (head.isList()) return indexedApp(e, head, args);
    if (!head.isSymbol()) throw ReaderError(e, "the head of an application must be a symbol");
    if (const cvc5::Term* f = lookup(head.text)) {
      if (!f->getSort().isFunction()) throw ReaderError(e, "'" + head.text + "' is not a function");
      std::vector<cvc5::Sort> dom = f->getSort().getFunctionDomainSorts();
      if (dom.size() != args.size()) throw ReaderError(e, "wrong number of arguments");
      std::vector<cvc5::Term> kids{*f};
      for (size_t i = 0; i < args.size(); ++i) kids.push_back(coerce(args[i], dom[i]));
      return s_.mkTerm(cvc5::Kind::APPLY_UF, kids);
    }
    return builtin(e, head.text, args);
  }

  const cvc5::Term* lookup(const std::string& n) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
      auto f = it->find(n);
      if (f != it->end()) return &f->second;
    }
    auto g = globals_.find(n);
    return g == globals_.end() ? nullptr : &g->second;
  }

  cvc5::Term symbol(const SExpr& e) {
    if (const cvc5::Term* t = lookup(e.text)) return *t;
    const std::string& n = e.text;
    if (n == "true") return s_.mkTrue();
    if (n == "false") return s_.mkFalse();
    if (n == "RNE" || n == "roundNearestTiesToEven") return s_.mkRoundingMode(cvc5::ROUND_NEAREST_TIES_TO_EVEN);
    if (n == "RNA" || n == "roundNearestTiesToAway") return s_.mkRoundingMode(cvc5::ROUND_NEAREST_TIES_TO_AWAY);
    if (n == "RTP" || n == "roundTowardPositive") return s_.mkRoundingMode(cvc5::ROUND_TOWARD_POSITIVE);
    if (n == "RTN" || n == "roundTowardNegative") return s_.mkRoundingMode(cvc5::ROUND_TOWARD_NEGATIVE);
    if (n == "RTZ" || n == "roundTowardZero") return s_.mkRoundingMode(cvc5::ROUND_TOWARD_ZERO);
    throw ReaderError(e, "undeclared symbol");
  }

  // (_ bv5 8), (_ +zero 8 24), (_ -zero ...), (_ +oo ...), (_ -oo ...), (_ NaN ...)
  cvc5::Term indexedConstant(const SExpr& e) {
    if (e.items.size() < 3 || !e.items[1].isSymbol()) throw ReaderError(e, "unknown indexed constant");
    const std::string& n = e.items[1].text;
    if (n.size() > 2 && n.rfind("bv", 0) == 0 && e.items.size() == 3)
      return s_.mkBitVector(index(e.items[2]), n.substr(2), 10);
    if (e.items.size() == 4) {
      uint32_t ex = index(e.items[2]), sg = index(e.items[3]);
      if (n == "+zero") return s_.mkFloatingPointPosZero(ex, sg);
      if (n == "-zero") return s_.mkFloatingPointNegZero(ex, sg);
      if (n == "+oo") return s_.mkFloatingPointPosInf(ex, sg);
      if (n == "-oo") return s_.mkFloatingPointNegInf(ex, sg);
      if (n == "NaN") return s_.mkFloatingPointNaN(ex, sg);
    }
    throw ReaderError(e, "unknown indexed constant");
  }

  cvc5::Term let(const SExpr& e) {
    if (e.items.size() != 3 || !e.items[1].isList()) throw ReaderError(e, "let needs ((NAME TERM)...) BODY");
    std::map<std::string, cvc5::Term> scope;
    for (const auto& b : e.items[1].items) {
      if (!b.isList() || b.items.size() != 2) throw ReaderError(b, "a let binding must be (NAME TERM)");
      scope[symbolText(b.items[0])] = term(b.items[1]);  // parallel: bound in the outer scope
    }
    locals_.push_back(std::move(scope));
    cvc5::Term body = term(e.items[2]);
    locals_.pop_back();
    return body;
  }

  cvc5::Term quantifier(const SExpr& e) {
    if (e.items.size() != 3 || !e.items[1].isList() || e.items[1].items.empty())
      throw ReaderError(e, "a quantifier needs ((NAME SORT)...) BODY");
    std::vector<cvc5::Term> vars;
    std::map<std::string, cvc5::Term> scope;
    for (const auto& b : e.items[1].items) {
      if (!b.isList() || b.items.size() != 2) throw ReaderError(b, "a bound variable must be (NAME SORT)");
      cvc5::Term v = s_.mkVar(sort(b.items[1]), symbolText(b.items[0]));
      vars.push_back(v);
      scope[b.items[0].text] = v;
    }
    locals_.push_back(std::move(scope));
    ++binders_;
    cvc5::Term body = term(e.items[2]);
    --binders_;
    locals_.pop_back();
    cvc5::Kind k = e.items[0].isSymbol("forall") ? cvc5::Kind::FORALL : cvc5::Kind::EXISTS;
    return s_.mkTerm(k, {s_.mkTerm(cvc5::Kind::VARIABLE_LIST, vars), body});
  }

  // ((_ extract 7 0) x), ((_ to_fp 8 24) RNE r), ((_ to_fp_unsigned 8 24) RNE bv), ((_ fp.to_sbv 32) RNE f)
  cvc5::Term indexedApp(const SExpr& e, const SExpr& head, const std::vector<cvc5::Term>& args) {
    if (head.items.size() < 3 || !head.items[0].isSymbol("_") || !head.items[1].isSymbol())
      throw ReaderError(e, "unknown indexed function");
    const std::string& n = head.items[1].text;
    std::vector<uint32_t> idx;
    for (size_t i = 2; i < head.items.size(); ++i) idx.push_back(index(head.items[i]));
    cvc5::Kind k;
    if (n == "extract" && idx.size() == 2) {
      k = cvc5::Kind::BITVECTOR_EXTRACT;
    } else if (n == "to_fp" && idx.size() == 2) {
      if (args.size() == 1)
        k = cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_IEEE_BV;
      else if (args.size() == 2 && args[1].getSort().isFloatingPoint())
        k = cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_FP;
      else if (args.size() == 2 && args[1].getSort().isBitVector())
        k = cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_SBV;
      else if (args.size() == 2) {
        k = cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_REAL;
        return s_.mkTerm(s_.mkOp(k, idx), {args[0], coerce(args[1], s_.getRealSort())});
      } else
        throw ReaderError(e, "to_fp takes one or two arguments");
    } else if (n == "to_fp_unsigned" && idx.size() == 2) {
      k = cvc5::Kind::FLOATINGPOINT_TO_FP_FROM_UBV;
    } else if (n == "fp.to_ubv" && idx.size() == 1) {
      k = cvc5::Kind::FLOATINGPOINT_TO_UBV;
    } else if (n == "fp.to_sbv" && idx.size() == 1) {
      k = cvc5::Kind::FLOATINGPOINT_TO_SBV;
    } else {
      throw ReaderError(e, "unknown indexed function");
    }
    return s_.mkTerm(s_.mkOp(k, idx), args);
  }

  // Int -> Real where a Real is wanted (SMT-LIB's mixed arithmetic).
  cvc5::Term coerce(const cvc5::Term& t, const cvc5::Sort& want) {
    if (want.isReal() && t.getSort().isInteger()) return s_.mkTerm(cvc5::Kind::TO_REAL, {t});
    return t;
  }

  // When arithmetic operands mix Int and Real, every Int becomes a Real.
  std::vector<cvc5::Term> unify(std::vector<cvc5::Term> args, bool forceReal = false) {
    bool anyReal = forceReal;
    for (const auto& a : args)
      if (a.getSort().isReal()) anyReal = true;
    if (anyReal)
      for (auto& a : args) a = coerce(a, s_.getRealSort());
    return args;
  }

  cvc5::Term mk(cvc5::Kind k, const std::vector<cvc5::Term>& args) { return s_.mkTerm(k, args); }

  // (< a b c) = (and (< a b) (< b c))
  cvc5::Term chain(cvc5::Kind k, const std::vector<cvc5::Term>& args) {
    if (args.size() == 2) return mk(k, args);
    std::vector<cvc5::Term> parts;
    for (size_t i = 0; i + 1 < args.size(); ++i) parts.push_back(mk(k, {args[i], args[i + 1]}));
    return mk(cvc5::Kind::AND, parts);
  }

  cvc5::Term foldLeft(cvc5::Kind k, const std::vector<cvc5::Term>& args) {
    cvc5::Term acc = args[0];
    for (size_t i = 1; i < args.size(); ++i) acc = mk(k, {acc, args[i]});
    return acc;
  }

  cvc5::Term builtin(const SExpr& e, const std::string& n, std::vector<cvc5::Term> args) {
    using K = cvc5::Kind;
    auto need = [&](size_t lo, size_t hi = SIZE_MAX) {
      if (args.size() < lo || args.size() > hi) throw ReaderError(e, "wrong number of arguments to '" + n + "'");
    };
    // Core.
    if (n == "not") return need(1, 1), mk(K::NOT, args);
    if (n == "and") return need(1), args.size() == 1 ? args[0] : mk(K::AND, args);
    if (n == "or") return need(1), args.size() == 1 ? args[0] : mk(K::OR, args);
    if (n == "xor") return need(2), foldLeft(K::XOR, args);
    if (n == "=>") {
      need(2);
      cvc5::Term acc = args.back();
      for (size_t i = args.size() - 1; i-- > 0;) acc = mk(K::IMPLIES, {args[i], acc});
      return acc;
    }
    if (n == "=") return need(2), chain(K::EQUAL, unify(args));
    if (n == "distinct") return need(2), mk(K::DISTINCT, unify(args));
    if (n == "ite") {
      need(3, 3);
      auto branches = unify({args[1], args[2]});
      return mk(K::ITE, {args[0], branches[0], branches[1]});
    }
    // Integer and real arithmetic.
    if (n == "+") return need(1), args.size() == 1 ? args[0] : mk(K::ADD, unify(args));
    if (n == "*") {
      need(1);
      if (args.size() == 1) return args[0];
      cvc5::Term t = mk(K::MULT, unify(args));
      bool square = args.size() % 2 == 0 && binders_ == 0 && !t.getSort().isNull();
      for (size_t i = 1; square && i < args.size(); ++i) square = args[i] == args[0];
      if (square && squareKeys_.insert(t.toString()).second) squares_.push_back(t);
      return t;
    }
    if (n == "-") return need(1), args.size() == 1 ? mk(K::NEG, args) : foldLeft(K::SUB, unify(args));
    if (n == "/") return need(2), foldLeft(K::DIVISION, unify(args, true));
    if (n == "div") return need(2), foldLeft(K::INTS_DIVISION, args);
    if (n == "mod") return need(2, 2), mk(K::INTS_MODULUS, args);
    if (n == "abs") return need(1, 1), mk(K::ABS, args);
    if (n == "<") return need(2), chain(K::LT, unify(args));
    if (n == "<=") return need(2), chain(K::LEQ, unify(args));
    if (n == ">") return need(2), chain(K::GT, unify(args));
    if (n == ">=") return need(2), chain(K::GEQ, unify(args));
    if (n == "to_real") return need(1, 1), coerce(args[0], s_.getRealSort());
    if (n == "to_int") return need(1, 1), mk(K::TO_INTEGER, args);
    if (n == "is_int") return need(1, 1), mk(K::IS_INTEGER, args);
    // Floating point.
    static const std::map<std::string, K> fp = {
        {"fp", K::FLOATINGPOINT_FP},           {"fp.abs", K::FLOATINGPOINT_ABS},
        {"fp.neg", K::FLOATINGPOINT_NEG},      {"fp.add", K::FLOATINGPOINT_ADD},
        {"fp.sub", K::FLOATINGPOINT_SUB},      {"fp.mul", K::FLOATINGPOINT_MULT},
        {"fp.div", K::FLOATINGPOINT_DIV},      {"fp.fma", K::FLOATINGPOINT_FMA},
        {"fp.sqrt", K::FLOATINGPOINT_SQRT},    {"fp.rem", K::FLOATINGPOINT_REM},
        {"fp.roundToIntegral", K::FLOATINGPOINT_RTI}, {"fp.min", K::FLOATINGPOINT_MIN},
        {"fp.max", K::FLOATINGPOINT_MAX},      {"fp.isNormal", K::FLOATINGPOINT_IS_NORMAL},
        {"fp.isSubnormal", K::FLOATINGPOINT_IS_SUBNORMAL}, {"fp.isZero", K::FLOATINGPOINT_IS_ZERO},
        {"fp.isInfinite", K::FLOATINGPOINT_IS_INF}, {"fp.isNaN", K::FLOATINGPOINT_IS_NAN},
        {"fp.isNegative", K::FLOATINGPOINT_IS_NEG}, {"fp.isPositive", K::FLOATINGPOINT_IS_POS},
        {"fp.to_real", K::FLOATINGPOINT_TO_REAL},
    };
    static const std::map<std::string, K> fpChain = {
        {"fp.leq", K::FLOATINGPOINT_LEQ}, {"fp.lt", K::FLOATINGPOINT_LT}, {"fp.geq", K::FLOATINGPOINT_GEQ},
        {"fp.gt", K::FLOATINGPOINT_GT},   {"fp.eq", K::FLOATINGPOINT_EQ},
    };
    if (auto it = fp.find(n); it != fp.end()) return mk(it->second, args);
    if (auto it = fpChain.find(n); it != fpChain.end()) return need(2), chain(it->second, args);
    // Bit-vectors (enough to write float bit patterns and simple integer models).
    static const std::map<std::string, K> bv = {
        {"concat", K::BITVECTOR_CONCAT}, {"bvand", K::BITVECTOR_AND},   {"bvor", K::BITVECTOR_OR},
        {"bvxor", K::BITVECTOR_XOR},     {"bvnot", K::BITVECTOR_NOT},   {"bvneg", K::BITVECTOR_NEG},
        {"bvadd", K::BITVECTOR_ADD},     {"bvsub", K::BITVECTOR_SUB},   {"bvmul", K::BITVECTOR_MULT},
        {"bvudiv", K::BITVECTOR_UDIV},   {"bvurem", K::BITVECTOR_UREM}, {"bvsdiv", K::BITVECTOR_SDIV},
        {"bvsrem", K::BITVECTOR_SREM},   {"bvshl", K::BITVECTOR_SHL},   {"bvlshr", K::BITVECTOR_LSHR},
        {"bvashr", K::BITVECTOR_ASHR},   {"bvult", K::BITVECTOR_ULT},   {"bvule", K::BITVECTOR_ULE},
        {"bvugt", K::BITVECTOR_UGT},     {"bvuge", K::BITVECTOR_UGE},   {"bvslt", K::BITVECTOR_SLT},
        {"bvsle", K::BITVECTOR_SLE},     {"bvsgt", K::BITVECTOR_SGT},   {"bvsge", K::BITVECTOR_SGE},
    };
    if (auto it = bv.find(n); it != bv.end()) return mk(it->second, args);
    throw ReaderError(e, "unknown function '" + n + "'");
  }

  cvc5::Solver& s_;
  bool squareFacts_ = true;
  int binders_ = 0;  // > 0 inside a define-fun body or a quantifier: terms may hold bound variables
  std::vector<cvc5::Term> squares_;  // closed terms (* a a), in order of first use
  std::set<std::string> squareKeys_;
  bool realNumerals_ = false;
  std::map<std::string, cvc5::Term> globals_;
  std::vector<std::map<std::string, cvc5::Term>> locals_;
  std::vector<std::pair<std::string, cvc5::Term>> declared_;
};

// --- model values -------------------------------------------------------------------------------

// A float's value from its IEEE bits (sign, exponent, significand without the hidden bit).
std::string floatText(uint32_t eb, uint32_t sb, const std::string& bits, std::optional<double>& approx) {
  if (bits.size() != eb + sb || eb > 15 || sb > 113) return "#b" + bits;
  bool neg = bits[0] == '1';
  std::string ebits = bits.substr(1, eb), mbits = bits.substr(1 + eb);
  bool expOnes = ebits.find('0') == std::string::npos, expZero = ebits.find('1') == std::string::npos;
  bool manZero = mbits.find('1') == std::string::npos;
  if (expOnes) return manZero ? (neg ? "-inf" : "+inf") : "NaN";
  long double m = 0;
  for (char c : mbits) m = m * 2 + (c == '1');
  m = std::ldexp(m, -static_cast<int>(sb - 1));
  long e = 0;
  for (char c : ebits) e = e * 2 + (c == '1');
  long bias = (1L << (eb - 1)) - 1;
  long double v = expZero ? std::ldexp(m, static_cast<int>(1 - bias)) : std::ldexp(1 + m, static_cast<int>(e - bias));
  if (neg) v = -v;
  if (expZero && manZero) return neg ? "-0.0" : "0.0";
  approx = static_cast<double>(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*Lg", sb <= 24 ? 9 : 17, v);
  return buf;
}

ModelValue modelValue(cvc5::Solver& s, const std::string& name, const cvc5::Term& t) {
  ModelValue m;
  m.name = name;
  m.sort = t.getSort().toString();
  cvc5::Term v = s.getValue(t);
  if (v.isBooleanValue()) {
    m.value = v.getBooleanValue() ? "true" : "false";
  } else if (v.isIntegerValue()) {
    m.value = v.getIntegerValue();
    m.approx = std::strtod(m.value.c_str(), nullptr);
  } else if (v.isRealValue()) {
    m.value = v.getRealValue();
    size_t slash = m.value.find('/');
    if (slash != std::string::npos && m.value.substr(slash + 1) == "1") m.value = m.value.substr(0, slash);
    slash = m.value.find('/');
    long double num = std::strtold(m.value.substr(0, slash).c_str(), nullptr);
    long double den = slash == std::string::npos ? 1.0L : std::strtold(m.value.substr(slash + 1).c_str(), nullptr);
    m.approx = static_cast<double>(num / den);
  } else if (v.isFloatingPointValue()) {
    auto [eb, sb, bits] = v.getFloatingPointValue();
    m.value = floatText(eb, sb, bits.getBitVectorValue(2), m.approx);
  } else if (v.isBitVectorValue()) {
    m.value = "#b" + v.getBitVectorValue(2);
  } else {
    m.value = v.toString();
  }
  return m;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}


// --- one query, in this process -----------------------------------------------------------------

}  // namespace

Result solveInProcess(const std::string& smt2, const Options& opt) {
  auto start = std::chrono::steady_clock::now();
  Result r;
  try {
    std::vector<SExpr> cmds = parseSExprs(smt2);
    cvc5::Solver s;
    long long ms = std::max(1LL, std::llround(opt.timeoutSeconds * 1000));
    s.setOption("tlimit-per", std::to_string(ms));
    s.setOption("produce-models", "true");
    // Formats other than Float32 and Float64 are "experimental" in cvc5 1.0.3.
    if (smt2.find("FloatingPoint") != std::string::npos || smt2.find("Float16") != std::string::npos ||
        smt2.find("Float128") != std::string::npos || smt2.find("to_fp") != std::string::npos)
      s.setOption("fp-exp", "true");
    // Nonlinear real arithmetic without CAD (this build has no libpoly): splitting on zero and
    // always checking relevance let cvc5 build models where it otherwise refines forever
    // (bench/README.md has the figures). Harmless in linear logics.
    s.setOption("nl-ext-split-zero", "true");
    s.setOption("nl-rlv", "always");
    for (const auto& [name, value] : opt.solverOptions) s.setOption(name, value);
    Reader reader(s, opt.squareFacts);
    cvc5::Result res;
    if (!reader.run(cmds, res)) {
      r.answer = Answer::Error;
      r.reason = "the script has no check-sat";
    } else if (res.isSat()) {
      r.answer = Answer::Sat;
      for (const auto& [name, t] : reader.declared()) r.model.push_back(modelValue(s, name, t));
    } else if (res.isUnsat()) {
      r.answer = Answer::Unsat;
    } else {
      cvc5::UnknownExplanation why = res.getUnknownExplanation();
      if (why == cvc5::UnknownExplanation::TIMEOUT) {
        r.answer = Answer::Timeout;
        r.reason = "time limit of " + secondsText(opt.timeoutSeconds) + " s";
      } else if (why == cvc5::UnknownExplanation::RESOURCEOUT) {
        r.answer = Answer::Timeout;
        r.reason = "resource limit";
      } else if (why == cvc5::UnknownExplanation::MEMOUT) {
        r.answer = Answer::Error;
        r.reason = "out of memory";
      } else {
        std::ostringstream o;
        o << why;
        r.answer = Answer::Unknown;
        r.reason = lower(o.str());
      }
    }
  } catch (const SExprError& e) {
    r.answer = Answer::Error;
    r.reason = e.what();
  } catch (const ReaderError& e) {
    r.answer = Answer::Error;
    r.reason = std::string("cannot read the script: ") + e.what();
  } catch (const std::bad_alloc&) {
    r.answer = Answer::Error;
    r.reason = "out of memory";
  } catch (const std::exception& e) {
    r.answer = Answer::Error;
    r.reason = std::string("cvc5: ") + e.what();
  }
  r.seconds = secondsSince(start);
  return r;
}


std::string solverVersion() {
  cvc5::Solver s;
  std::string v = s.getVersion();
  return v.rfind("cvc5", 0) == 0 ? v : "cvc5 " + v;
}

std::string readableValue(const ModelValue& v) {
  size_t slash = v.value.find('/');
  if (slash == std::string::npos) return v.value;
  std::string ns = v.value.substr(0, slash), ds = v.value.substr(slash + 1);
  // A terminating decimal when numerator and denominator fit and the denominator is 2^a 5^b.
  errno = 0;
  char* end = nullptr;
  long long num = std::strtoll(ns.c_str(), &end, 10);
  bool okNum = errno == 0 && *end == 0;
  long long den = std::strtoll(ds.c_str(), &end, 10);
  bool okDen = errno == 0 && *end == 0 && den > 0;
  if (okNum && okDen) {
    long long d = den;
    int twos = 0, fives = 0;
    while (d % 2 == 0) d /= 2, ++twos;
    while (d % 5 == 0) d /= 5, ++fives;
    int k = std::max(twos, fives);
    if (d == 1 && k <= 12) {
      __int128 scale = 1;
      for (int i = 0; i < k; ++i) scale *= 10;
      __int128 scaled = static_cast<__int128>(num) * (scale / den);
      bool neg = scaled < 0;
      if (neg) scaled = -scaled;
      auto digits = [](__int128 x) {
        std::string s;
        do {
          s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(x % 10)));
          x /= 10;
        } while (x > 0);
        return s;
      };
      std::string whole = digits(scaled / scale), frac = digits(scaled % scale);
      frac.insert(frac.begin(), static_cast<size_t>(k) - frac.size(), '0');
      while (!frac.empty() && frac.back() == '0') frac.pop_back();
      std::string out = (neg ? "-" : "") + whole + (frac.empty() ? "" : "." + frac);
      if (out.size() <= 20) return out;
    }
  }
  char buf[48];
  if (v.value.size() > 32) {  // a fraction of hundreds of digits helps nobody: its value, roughly
    std::snprintf(buf, sizeof buf, "~%.9g", v.approx.value_or(std::nan("")));
    return buf;
  }
  std::snprintf(buf, sizeof buf, " (~%.7g)", v.approx.value_or(std::nan("")));
  return v.value + buf;
}

}  // namespace kc::smt

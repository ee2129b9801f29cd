// The lowering of oracle and tolerance definitions to C++ (lower.h): hoisting first, then one
// cell function and one kernel per computed tensor, then the entry point (lower_program.cpp).
#include "checker/device_oracle/lower.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "checker/device_oracle/hoist.h"
#include "checker/device_oracle/lower_program.h"
#include "stdlib/numerics/error_bounds.h"

namespace kc::device_oracle {

using ir::Op;
using ir::Type;

namespace {

struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// --- emission ------------------------------------------------------------------------------

std::string hexReal(double d) {
  if (std::isnan(d)) return "NAN";
  if (std::isinf(d)) return d > 0 ? "INFINITY" : "(-INFINITY)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return std::string("(") + buf + ")";
}

std::string intLit(int64_t v) {
  if (v == INT64_MIN) return "INT64_MIN";
  return "((int64_t)" + std::to_string(v) + "LL)";
}

struct Emitter {
  const std::map<std::string, numerics::DType>& dtypes;
  Lowered& low;
  const std::vector<ir::Node*>& values;  // per computed tensor
  size_t self = 0;                       // the tensor whose cell function is emitted
  size_t visibleDefs = 0;                // definitions (not hoisted) computed before self
  std::string body;
  int depth = 1;
  int tmp = 0;
  std::vector<std::pair<std::string, std::string>> scope;  // index variable -> C name

  void line(const std::string& s) { body += std::string(2 * static_cast<size_t>(depth), ' ') + s + "\n"; }
  std::string fresh(const char* prefix) { return prefix + std::to_string(tmp++); }

  std::string var(const std::string& name) const {
    for (size_t k = scope.size(); k-- > 0;)
      if (scope[k].first == name) return scope[k].second;
    throw Refused("index variable '" + name + "' is not bound");
  }

  numerics::DType dtypeOf(const ir::Node& n) const {
    if (n.op == Op::DTypeConst) {
      auto t = numerics::parseDType(n.name);
      if (!t) throw Refused("unknown dtype '" + n.name + "'");
      return *t;
    }
    if (n.op == Op::DTypeVar) {
      auto it = dtypes.find(n.name);
      if (it == dtypes.end()) throw Refused("dtype variable '" + n.name + "' is not bound");
      return it->second;
    }
    throw Refused("expected a dtype");
  }

  size_t dimSlot(const std::string& name) {
    auto it = std::find(low.dims.begin(), low.dims.end(), name);
    if (it != low.dims.end()) return static_cast<size_t>(it - low.dims.begin());
    low.dims.push_back(name);
    return low.dims.size() - 1;
  }

  // rank -1: read whole by a statistic, any rank.
  size_t readSlot(const std::string& name, ir::Role role, size_t rank) {
    const size_t any = static_cast<size_t>(-1);
    for (size_t k = 0; k < low.reads.size(); ++k)
      if (low.reads[k].name == name && low.reads[k].role == role) {
        if (low.reads[k].rank == any) low.reads[k].rank = rank;
        else if (rank != any && low.reads[k].rank != rank) throw Refused("'" + name + "' is read with two ranks");
        return k;
      }
    low.reads.push_back({name, role, rank});
    return low.reads.size() - 1;
  }

  // The computed tensor a definition read names (the interpreter's rule, prepare.cpp: an oracle
  // read y* names the oracle section; a plain name the tolerance section first, then the
  // oracle's; only definitions before the one being computed).
  size_t defSlot(const ir::Node& n) const {
    if (n.name.rfind("hoist.", 0) == 0) {
      for (size_t k = 0; k < low.computed.size(); ++k)
        if (low.computed[k].name == n.name) return k;
      throw Refused("no hoisted tensor " + n.name);
    }
    auto search = [&](bool tolerance) -> long {
      size_t defs = 0;
      for (size_t k = 0; k < low.computed.size() && defs < visibleDefs; ++k) {
        if (low.computed[k].hoisted) continue;
        ++defs;
        if (low.computed[k].tolerance == tolerance && low.computed[k].name == n.name) return static_cast<long>(k);
      }
      return -1;
    };
    long k = n.role == ir::Role::Oracle ? search(false) : search(true);
    if (k < 0 && n.role != ir::Role::Oracle) k = search(false);
    if (k < 0) throw Refused("'" + n.name + "' reads a definition that is not defined before it");
    return static_cast<size_t>(k);
  }

  // --- integers ---
  std::string integer(const ir::Node& n) {
    switch (n.op) {
      case Op::ConstInt: return intLit(n.i);
      case Op::Dim: return "c.dims[" + std::to_string(dimSlot(n.name)) + "]";
      case Op::IndexVar: return var(n.name);
      case Op::Neg: return "kc_neg(" + integer(*n.kids[0]) + ", e)";
      case Op::Abs: return "kc_iabs(" + integer(*n.kids[0]) + ", e)";
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Mod: case Op::Pow: {
        std::string a = integer(*n.kids[0]);
        std::string b = integer(*n.kids[1]);
        const char* f = n.op == Op::Add ? "kc_add" : n.op == Op::Sub ? "kc_sub" : n.op == Op::Mul ? "kc_mul"
                        : n.op == Op::Div ? "kc_floordiv" : n.op == Op::Mod ? "kc_mod" : "kc_ipow";
        std::string t = fresh("i");
        line("const int64_t " + t + " = " + f + "(" + a + ", " + b + ", e);");
        return t;
      }
      case Op::Select: {
        std::string c = truth(*n.kids[0]);
        std::string t = fresh("i");
        line("int64_t " + t + " = 0;");
        line("if (" + c + ") {");
        ++depth;
        line(t + " = " + integer(*n.kids[1]) + ";");
        --depth;
        line("} else {");
        ++depth;
        line(t + " = " + integer(*n.kids[2]) + ";");
        --depth;
        line("}");
        return t;
      }
      case Op::Reduce: return reduction(n, true);
      default: throw Refused(std::string("no lowering of '") + ir::opName(n.op) + "' as an integer");
    }
  }

  // --- reals ---
  std::string real(const ir::Node& n) {
    if (n.type == Type::Int) {
      if (n.op == Op::Select) return "(double)(" + integer(n) + ")";
      return "(double)(" + integer(n) + ")";
    }
    if (n.type == Type::Bool) return "(" + truth(n) + " ? 1.0 : 0.0)";
    switch (n.op) {
      case Op::ConstReal: return hexReal(n.d);
      case Op::ConstInt: return hexReal(static_cast<double>(n.i));
      case Op::TensorStat: return statistic(n);
      case Op::TensorRead: return read(n);
      case Op::Neg: return "(-" + real(*n.kids[0]) + ")";
      case Op::Abs: return "fabs(" + real(*n.kids[0]) + ")";
      case Op::Add: case Op::Sub: case Op::Mul: case Op::Div: case Op::Pow: {
        std::string a = real(*n.kids[0]);
        std::string b = real(*n.kids[1]);
        std::string t = fresh("r");
        // x^2 as x * x: the exact square correctly rounded, which is what the host's pow gives
        // (glibc's is within 0.52 ulp, so exact wherever the square is representable); CUDA's
        // pow is within 2 ulp and gave another last bit.
        const ir::Node& e = *n.kids[1];
        const bool square = n.op == Op::Pow && ((e.op == Op::ConstInt && e.i == 2) || (e.op == Op::ConstReal && e.d == 2.0));
        std::string v = square ? a + " * " + a
                        : n.op == Op::Pow ? "pow(" + a + ", " + b + ")"
                        : a + (n.op == Op::Add ? " + " : n.op == Op::Sub ? " - " : n.op == Op::Mul ? " * " : " / ") + b;
        line("const double " + t + " = " + v + ";");
        return t;
      }
      case Op::Select: {
        std::string c = truth(*n.kids[0]);
        std::string t = fresh("r");
        line("double " + t + " = 0.0;");
        line("if (" + c + ") {");
        ++depth;
        line(t + " = " + real(*n.kids[1]) + ";");
        --depth;
        line("} else {");
        ++depth;
        line(t + " = " + real(*n.kids[2]) + ";");
        --depth;
        line("}");
        return t;
      }
      case Op::Call: return call(n);
      case Op::DTypeQuery: return query(n);
      case Op::RoundTo: {
        numerics::DType t = dtypeOf(*n.kids[0]);
        std::string x = real(*n.kids[1]);
        if (t == numerics::DType::Bool) return "kc_round_bool(" + x + ")";
        if (numerics::isInteger(t))
          return "kc_round_int(" + x + ", " + hexReal(static_cast<double>(numerics::intMin(t))) + ", " +
                 hexReal(static_cast<double>(numerics::intMax(t))) + ", " + (t == numerics::DType::I64 ? "true" : "false") + ")";
        const numerics::FloatFormat& f = numerics::floatFormat(t);
        return "kc_round_float(" + x + ", " + std::to_string(f.precision) + ", " + std::to_string(f.emin) + ", " +
               hexReal(numerics::maxFinite(t)) + ", " + (f.finiteOnly ? "true" : "false") + ")";
      }
      case Op::Reduce: return reduction(n, false);
      default: throw Refused(std::string("no lowering of '") + ir::opName(n.op) + "' as a real");
    }
  }

  std::string statistic(const ir::Node& n) {
    const ir::Node& w = *n.kids.at(0);
    if (w.role != ir::Role::Input && w.role != ir::Role::Output)
      throw Refused("a statistic of the definition '" + w.name + "'");
    if (n.name != "max" && n.name != "min" && n.name != "sum") throw Refused("unknown statistic '" + n.name + "'");
    size_t r = readSlot(w.name, w.role, static_cast<size_t>(-1));
    low.stats.push_back({n.name, r});
    return "c.stats[" + std::to_string(low.stats.size() - 1) + "]";
  }

  std::string read(const ir::Node& n) {
    const bool input = n.role == ir::Role::Input || n.role == ir::Role::Output;
    size_t slot = input ? readSlot(n.name, n.role, n.kids.size()) : defSlot(n);
    if (!input && low.computed[slot].extents.size() != n.kids.size())
      throw Refused("'" + n.name + "' is read with " + std::to_string(n.kids.size()) + " indices");
    const std::string s = std::to_string(slot);
    const std::string data = input ? "c.in[" + s + "]" : "c.t[" + s + "]";
    const std::string shape = input ? "c.inShape[" + s + "]" : "c.tShape[" + s + "]";
    std::vector<std::string> idx;
    for (const auto& k : n.kids) idx.push_back(integer(*k));
    std::string off = fresh("o");
    std::string ok = fresh("k");
    line("int64_t " + off + " = 0;");
    line("bool " + ok + " = true;");
    // Row-major: the offset by Horner's rule over the extents.
    for (size_t k = 0; k < idx.size(); ++k) {
      const std::string ext = shape + "[" + std::to_string(k) + "]";
      line(ok + " = " + ok + " && " + idx[k] + " >= 0 && " + idx[k] + " < " + ext + ";");
      line(off + " = " + off + " * " + ext + " + " + idx[k] + ";");
    }
    std::string t = fresh("r");
    line("double " + t + " = NAN;");
    line("if (" + ok + ") {");
    ++depth;
    if (!input && low.computed[slot].hoisted) line("if (c.terr[" + s + "][" + off + "] && !e) e = c.terr[" + s + "][" + off + "];");
    line(t + " = " + data + "[" + off + "];");
    --depth;
    line("} else if (!e) {");
    ++depth;
    line("e = KC_ERR_READ;");
    --depth;
    line("}");
    return t;
  }

  std::string call(const ir::Node& n) {
    const std::string& f = n.name;
    std::string x = real(*n.kids[0]);
    if (f == "fmax" || f == "fmin") {
      std::string y = real(*n.kids[1]);
      return "kc_" + f + "(" + x + ", " + y + ")";
    }
    static const std::map<std::string, std::string> plain = {
        {"exp", "exp"},     {"exp2", "exp2"}, {"log", "log"},     {"log2", "log2"}, {"log10", "log10"},
        {"sqrt", "sqrt"},   {"tanh", "tanh"}, {"erf", "erf"},     {"sin", "sin"},   {"cos", "cos"},
        {"floor", "floor"}, {"ceil", "ceil"},
    };
    if (auto it = plain.find(f); it != plain.end()) return it->second + "(" + x + ")";
    if (f == "rsqrt") return "(1.0 / sqrt(" + x + "))";
    if (f == "sigmoid") return "(1.0 / (1.0 + exp(-" + x + ")))";
    throw Refused("no lowering of the function '" + f + "'");
  }

  std::string query(const ir::Node& n) {
    const bool gamma = n.name == "gamma";
    numerics::DType t = dtypeOf(*n.kids.at(gamma ? 1 : 0));
    if (!numerics::isFloat(t)) throw Refused(n.name + " of a dtype that is not a float format");
    if (n.name == "eps") return hexReal(numerics::eps(t));
    if (n.name == "unit_roundoff") return hexReal(numerics::unitRoundoff(t));
    if (n.name == "min_normal") return hexReal(numerics::minNormal(t));
    if (n.name == "max_finite") return hexReal(numerics::maxFinite(t));
    if (gamma) return "kc_gamma(" + integer(*n.kids[0]) + ", " + hexReal(numerics::unitRoundoff(t)) + ", e)";
    if (n.name == "ulp") {
      const numerics::FloatFormat& f = numerics::floatFormat(t);
      return "kc_ulp(" + real(*n.kids[1]) + ", " + std::to_string(f.precision) + ", " + std::to_string(f.emax) + ", " +
             hexReal(numerics::minNormal(t)) + ", " + hexReal(numerics::minSubnormal(t)) + ")";
    }
    throw Refused("no lowering of the dtype query '" + n.name + "'");
  }

  std::string reduction(const ir::Node& n, bool isInt) {
    const std::string& f = n.name;
    if (f != "sum" && f != "prod" && f != "max" && f != "min") throw Refused("unknown reducer '" + f + "'");
    std::string lo = integer(*n.kids[0]);
    std::string hi = integer(*n.kids[1]);
    std::string acc = fresh(isInt ? "i" : "r");
    std::string init = isInt ? (f == "sum" ? "0" : f == "prod" ? "1" : f == "max" ? "INT64_MIN" : "INT64_MAX")
                             : (f == "sum" ? "0.0" : f == "prod" ? "1.0" : f == "max" ? "(-INFINITY)" : "INFINITY");
    line(std::string(isInt ? "int64_t " : "double ") + acc + " = " + init + ";");
    std::string v = fresh("v");
    line("for (int64_t " + v + " = " + lo + "; " + v + " <= " + hi + " && !e; ++" + v + ") {");
    ++depth;
    scope.emplace_back(n.vars[0], v);
    std::string x = isInt ? integer(*n.kids[2]) : real(*n.kids[2]);
    scope.pop_back();
    if (isInt) {
      if (f == "sum") line(acc + " = kc_add(" + acc + ", " + x + ", e);");
      else if (f == "prod") line(acc + " = kc_mul(" + acc + ", " + x + ", e);");
      else if (f == "max") line("if (" + x + " > " + acc + ") " + acc + " = " + x + ";");
      else line("if (" + x + " < " + acc + ") " + acc + " = " + x + ";");
    } else {
      if (f == "sum") line(acc + " += " + x + ";");
      else if (f == "prod") line(acc + " *= " + x + ";");
      else line(acc + " = kc_f" + f + "(" + acc + ", " + x + ");");
    }
    --depth;
    line("}");
    return acc;
  }

  // --- conditions ---
  std::string truth(const ir::Node& n) {
    switch (n.op) {
      case Op::ConstBool: return n.b ? "true" : "false";
      case Op::Lt: case Op::Le: case Op::Gt: case Op::Ge: case Op::Eq: case Op::Ne: {
        const char* op = n.op == Op::Lt ? " < " : n.op == Op::Le ? " <= " : n.op == Op::Gt ? " > "
                         : n.op == Op::Ge ? " >= " : n.op == Op::Eq ? " == " : " != ";
        Type a = n.kids[0]->type, b = n.kids[1]->type;
        if (a == Type::DType) {
          // The interpreter's holds() of "equal" (0) or "unordered" (2).
          bool same = dtypeOf(*n.kids[0]) == dtypeOf(*n.kids[1]);
          bool v = n.op == Op::Ne ? !same : (n.op == Op::Lt || n.op == Op::Gt) ? false : same;
          return v ? "true" : "false";
        }
        std::string x, y;
        if (a == Type::Int && b == Type::Int) {
          x = integer(*n.kids[0]);
          y = integer(*n.kids[1]);
        } else if (a == Type::Bool) {
          x = truth(*n.kids[0]);
          y = truth(*n.kids[1]);
        } else {
          x = real(*n.kids[0]);
          y = real(*n.kids[1]);
        }
        std::string t = fresh("b");
        line("const bool " + t + " = " + x + op + y + ";");
        return t;
      }
      case Op::Not: return "(!" + truth(*n.kids[0]) + ")";
      case Op::And: case Op::Or: case Op::Implies: {
        std::string a = truth(*n.kids[0]);
        std::string t = fresh("b");
        line("bool " + t + " = " + (n.op == Op::Implies ? "!" + a : a) + ";");
        line(std::string("if (") + (n.op == Op::And ? "" : "!") + t + ") {");
        ++depth;
        line(t + " = " + truth(*n.kids[1]) + ";");
        --depth;
        line("}");
        return t;
      }
      case Op::Select: {
        std::string c = truth(*n.kids[0]);
        std::string t = fresh("b");
        line("bool " + t + " = false;");
        line("if (" + c + ") {");
        ++depth;
        line(t + " = " + truth(*n.kids[1]) + ";");
        --depth;
        line("} else {");
        ++depth;
        line(t + " = " + truth(*n.kids[2]) + ";");
        --depth;
        line("}");
        return t;
      }
      case Op::Call: {
        std::string x = real(*n.kids[0]);
        if (n.name == "isnan") return "(bool)isnan(" + x + ")";
        if (n.name == "isinf") return "(bool)isinf(" + x + ")";
        if (n.name == "isfinite") return "(bool)isfinite(" + x + ")";
        throw Refused("no lowering of the condition '" + n.name + "'");
      }
      case Op::Quantifier: {
        std::string t = fresh("b");
        const std::string forall = n.b ? "true" : "false";
        line("bool " + t + " = " + forall + ";");
        size_t nv = n.vars.size();
        for (size_t k = 0; k < nv; ++k) {
          std::string lo = integer(*n.kids[2 * k]);
          std::string hi = integer(*n.kids[2 * k + 1]);
          std::string v = fresh("v");
          line("for (int64_t " + v + " = " + lo + "; " + v + " <= " + hi + " && " + t + " == " + forall + " && !e; ++" + v + ") {");
          ++depth;
          scope.emplace_back(n.vars[k], v);
        }
        std::string b = truth(*n.kids.back());
        line("if (" + b + " != " + forall + ") " + t + " = !" + forall + ";");
        for (size_t k = 0; k < nv; ++k) {
          scope.pop_back();
          --depth;
          line("}");
        }
        return t;
      }
      default: throw Refused(std::string("no lowering of '") + ir::opName(n.op) + "' as a condition");
    }
  }
};

}  // namespace

LowerResult lower(const sema::ContractInfo& ct, const std::map<std::string, numerics::DType>& dtypes) {
  LowerResult res;
  try {
    if (ct.oraclePrecision != "f64")
      throw Refused("the oracle's precision is " + ct.oraclePrecision + ", not f64");
    Lowered& low = res.lowered;
    std::vector<ir::NodePtr> values;  // parallel to low.computed
    Hoister h{low.computed, values, {}, 0};
    auto add = [&](const sema::Definition& d, bool tolerance) {
      if (d.indices.size() > static_cast<size_t>(kMaxRank))
        throw Refused("definition '" + d.name + "' has more than " + std::to_string(kMaxRank) + " indices");
      ir::NodePtr value = d.value->clone();
      std::vector<const ir::Node*> extents;
      for (const auto& e : d.extents) extents.push_back(e.get());
      std::vector<std::string> binders;
      h.walk(value, d.indices, extents, binders);
      Computed c;
      c.name = d.name;
      c.tolerance = tolerance;
      for (const auto& e : d.extents) c.extents.push_back(e->clone());
      low.computed.push_back(std::move(c));
      values.push_back(std::move(value));
    };
    for (const auto& d : ct.oracle) add(d, false);
    for (const auto& d : ct.tolerance) add(d, true);
    if (low.computed.empty()) throw Refused("the contract has no oracle definitions");

    // The indices of each computed tensor: a definition's own; a hoisted reduction's are the
    // free variables it was hoisted with, in its definition's order (its extents say how many).
    std::vector<std::vector<std::string>> indices(low.computed.size());
    {
      std::vector<const sema::Definition*> defs;
      for (const auto& d : ct.oracle) defs.push_back(&d);
      for (const auto& d : ct.tolerance) defs.push_back(&d);
      size_t def = 0;
      for (size_t k = 0; k < low.computed.size(); ++k) {
        if (!low.computed[k].hoisted) {
          indices[k] = defs[def++]->indices;
          continue;
        }
        std::vector<std::string> none;
        std::set<std::string> fv;
        freeVars(*values[k], none, fv);
        // The order of the definition that hoisted it: the next definition after k.
        size_t owner = def;
        for (const auto& v : defs.at(owner)->indices)
          if (fv.count(v)) indices[k].push_back(v);
        if (indices[k].size() != low.computed[k].extents.size()) throw Refused("a hoisted reduction lost its indices");
      }
    }

    std::vector<std::string> cells;
    std::vector<ir::Node*> raw;
    for (auto& v : values) raw.push_back(v.get());
    size_t defsBefore = 0;
    for (size_t k = 0; k < low.computed.size(); ++k) {
      Emitter em{dtypes, low, raw, k, defsBefore, "", 1, 0, {}};
      for (size_t i = 0; i < indices[k].size(); ++i) em.scope.emplace_back(indices[k][i], "ix[" + std::to_string(i) + "]");
      std::string v = em.real(*values[k]);
      em.line("return " + v + ";");
      cells.push_back(std::move(em.body));
      if (!low.computed[k].hoisted) ++defsBefore;
    }
    for (auto& r : low.reads)
      if (r.rank == static_cast<size_t>(-1)) {  // read only whole, by a statistic: never indexed
        r.rank = 0;
        r.wholeOnly = true;
      }
    res.lowered.source = programSource(low, cells);
    res.ok = true;
  } catch (const Refused& e) {
    res.ok = false;
    res.reason = e.what();
    res.lowered = {};
  } catch (const std::invalid_argument& e) {
    res.ok = false;
    res.reason = e.what();
    res.lowered = {};
  }
  return res;
}

}  // namespace kc::device_oracle

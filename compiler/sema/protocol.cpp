#include "compiler/sema/protocol.h"

#include <algorithm>
#include <cmath>

#include "backends/perturbations.h"
#include "compiler/sema/lower_expr.h"

namespace kc::sema {

namespace {

using V = ProtocolValue;

const std::vector<std::string> kDistributions = {
    "normal", "uniform", "integers", "small_ints", "index_mod", "exact", "const_rows", "large_mean_rows",
    "small_variance_rows", "cancel_rows", "special",
    // Structured inputs that meet a precondition by construction (docs/language.md §11.2).
    "triangular", "one_hot", "sorted", "symmetric", "positive_definite", "valid_indices"};
const std::vector<std::string> kSpecialKinds = {"nan", "neg_nan", "inf", "neg_inf", "zero", "neg_zero", "subnormal", "max_finite"};
const std::vector<std::string> kLayouts = {"contiguous", "transposed", "padded", "offset", "step"};
const std::vector<std::string> kScopeLayouts = {"contiguous", "strided", "transposed", "any"};
const std::vector<std::string> kDimGenerators = {"boundary"};
const std::vector<std::string> kCells = {"all", "sample", "boundary"};
// The perturbation kinds: backends/perturbations.h.
const std::vector<std::string> kPerturb = backend::perturb::perturbationNames();

bool known(const std::vector<std::string>& names, const std::string& n) {
  return std::find(names.begin(), names.end(), n) != names.end();
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + names[i];
  return s;
}

class ProtocolLowering {
 public:
  ProtocolLowering(const KernelInfo& k, DiagnosticEngine& d) : kernel_(k), diags_(d) {}

  // Flattens unions, alternatives and literal sets into a list of alternatives. Long on purpose:
  // one case per set kind, in the grammar's order.
  void flatten(const ast::SetExpr& s, std::vector<V>& out) {
    switch (s.kind) {
      case ast::SetKind::Chain:
      case ast::SetKind::Literal:
        for (const auto& item : s.items) flatten(*item, out);
        return;
      case ast::SetKind::Range: {
        std::vector<V> lo, hi;
        flatten(*s.items[0], lo);
        flatten(*s.items[1], hi);
        if (lo.size() != 1 || hi.size() != 1 || lo[0].kind != V::Kind::Int || hi[0].kind != V::Kind::Int) {
          diags_.report(DiagCode::BadProtocolValue, s.range, "a range takes two integers: LO..HI");
          return;
        }
        V v;
        v.kind = V::Kind::Range;
        v.i = lo[0].i;
        v.hi = hi[0].i;
        v.range = s.range;
        out.push_back(v);
        return;
      }
      case ast::SetKind::Call: {
        V v;
        v.kind = V::Kind::Call;
        v.name = s.text;
        v.range = s.range;
        // The arguments of a value generator may use dims: integers(0, C - 1).
        bool outer = inGeneratorArgs_;
        std::string outerName = generator_;
        inGeneratorArgs_ = inValues_;
        generator_ = s.text;
        for (size_t k = 0; k < s.items.size(); ++k) {
          std::vector<V> values;
          flatten(*s.items[k], values);
          v.args.emplace_back(s.argNames[k], std::move(values));
        }
        inGeneratorArgs_ = outer;
        generator_ = outerName;
        out.push_back(std::move(v));
        return;
      }
      case ast::SetKind::Number: {
        V v;
        v.range = s.range;
        v.percent = s.percent;
        double d = std::strtod(s.text.c_str(), nullptr);
        bool integral = s.text.find_first_of(".eEpP") == std::string::npos || s.text.rfind("0x", 0) == 0;
        if (s.text.rfind("0x", 0) == 0 && s.text.find_first_of("pP") == std::string::npos)
          d = static_cast<double>(std::strtoull(s.text.c_str(), nullptr, 16));
        if (s.negative) d = -d;
        if (integral && !s.percent && std::fabs(d) < 9.0e18) {
          v.kind = V::Kind::Int;
          v.i = static_cast<int64_t>(d);
        } else {
          v.kind = V::Kind::Real;
          v.d = d;
        }
        out.push_back(v);
        return;
      }
      case ast::SetKind::Power: {
        V v;
        v.range = s.range;
        int64_t base = std::strtoll(s.text.c_str(), nullptr, 0), exp = std::strtoll(s.text2.c_str(), nullptr, 0);
        std::optional<int64_t> r = ir::intPow(base, exp);
        if (!r) {
          diags_.report(DiagCode::BadProtocolValue, s.range, "this power does not fit in 64 bits");
          return;
        }
        v.kind = V::Kind::Int;
        v.i = *r;
        out.push_back(v);
        return;
      }
      case ast::SetKind::Name:
        if (inGeneratorArgs_ && generator_ == "triangular" && (s.text == "lower" || s.text == "upper")) {
          V v;
          v.kind = V::Kind::Name;
          v.name = s.text;
          v.range = s.range;
          out.push_back(std::move(v));
          return;
        }
        if (inGeneratorArgs_) {  // a bound: a dim, as the expression `C`
          generatorBoundName(s, out);
          return;
        }
        [[fallthrough]];
      case ast::SetKind::String: {
        V v;
        v.kind = s.kind == ast::SetKind::Name ? V::Kind::Name : V::Kind::String;
        v.name = s.text;
        v.range = s.range;
        out.push_back(v);
        return;
      }
      case ast::SetKind::Arith: {
        LoweringContext ctx{&kernel_, Part::Shape, nullptr, nullptr, false};
        ExprLowering lower(diags_, ctx);
        ir::NodePtr n = lower.lower(*s.arith);
        if (!n) return;
        n = ir::fold(std::move(n));
        V v;
        v.range = s.range;
        if (n->op == ir::Op::ConstInt) {
          v.kind = V::Kind::Int;
          v.i = n->i;
        } else if (n->op == ir::Op::ConstReal) {
          v.kind = V::Kind::Real;
          v.d = n->d;
          if (std::fabs(n->d) < 9.0e18 && n->d == std::floor(n->d)) v.kind = V::Kind::Int, v.i = static_cast<int64_t>(n->d);
        } else if (inGeneratorArgs_ && overDimsOnly(*n)) {
          v.kind = V::Kind::Expr;
          v.expr = std::shared_ptr<const ir::Node>(std::move(n));
        } else {
          diags_.report(DiagCode::BadProtocolValue, s.range,
                        inGeneratorArgs_ ? "a bound of a value generator must be a number or an expression over dims"
                                         : "a protocol value must be a constant; dims may appear only in the bounds of a "
                                           "value generator, as in integers(0, C - 1)");
          return;
        }
        out.push_back(v);
        return;
      }
    }
  }

  // A name as a generator's bound: one of the kernel's dims, kept as an expression.
  void generatorBoundName(const ast::SetExpr& s, std::vector<V>& out) {
    const DimInfo* dim = kernel_.dim(s.text);
    if (!dim) {
      diags_.report(DiagCode::BadProtocolValue, s.range,
                    "'" + s.text + "' is not a dimension of kernel '" + kernel_.name +
                        "'; a bound of a value generator is a number or an expression over dims");
      return;
    }
    V v;
    v.kind = V::Kind::Expr;
    v.range = s.range;
    v.expr = std::shared_ptr<const ir::Node>(ir::makeLeaf(ir::Op::Dim, ir::Type::Int, dim->name, s.range));
    out.push_back(std::move(v));
  }

  // A number-valued expression whose only leaves are constants and the kernel's dims.
  static bool overDimsOnly(const ir::Node& n) {
    if (n.type != ir::Type::Int && n.type != ir::Type::Real) return false;
    bool ok = true;
    ir::walk(n, [&](const ir::Node& x) {
      if (x.op == ir::Op::IndexVar || x.op == ir::Op::TensorRead || x.op == ir::Op::TensorWhole ||
          x.op == ir::Op::TensorStat || x.op == ir::Op::Reduce || x.op == ir::Op::Quantifier)
        ok = false;
    });
    return ok;
  }

  // Every argument of a value generator is one number: not a set (`{1, 2}`, `1..8`), not a
  // generator (a call that no expression reads: `normal(0, 1)` as an argument).
  void checkGeneratorArguments(const std::vector<V>& values) {
    for (const auto& v : values) {
      if (v.kind != V::Kind::Call) continue;
      for (const auto& [name, args] : v.args) {
        if (args.size() > 1) {
          diags_.report(DiagCode::BadProtocolValue, args[1].range,
                        "an argument of " + v.name + "() takes one value, not a set of them");
          continue;
        }
        for (const auto& a : args) {
          if (a.kind == V::Kind::Int || a.kind == V::Kind::Real || a.kind == V::Kind::Expr) continue;
          if (v.name == "triangular" && a.kind == V::Kind::Name) continue;
          diags_.report(DiagCode::BadProtocolValue, a.range,
                        a.kind == V::Kind::Call
                            ? "'" + a.str() + "' is a generator, not a number: an argument of " + v.name +
                                  "() is a number or an expression over dims"
                            : "an argument of " + v.name + "() is a number or an expression over dims");
        }
      }
    }
  }

  // The structured generators' arguments, and the ranks they need (`t` is null for `*`).
  void checkStructured(const std::vector<V>& values, const TensorInfo* t) {
    for (const auto& v : values) {
      bool call = v.kind == V::Kind::Call;
      if (v.kind != V::Kind::Name && !call) continue;
      const std::string& n = v.name;
      size_t given = 0;
      for (const auto& a : v.args) given += a.second.size();
      auto arity = [&](size_t want, const char* form) {
        if (given != want || (want && !v.args.empty() && !v.args[0].first.empty()))
          diags_.report(DiagCode::BadProtocolValue, v.range, "write " + std::string(form));
      };
      auto rank = [&](size_t least, const char* what) {
        if (t && t->rank() < least)
          diags_.report(DiagCode::BadProtocolValue, v.range,
                        n + " " + what + "; '" + t->name + "' has rank " + std::to_string(t->rank()));
      };
      if (n == "triangular") {
        bool side = given == 1 && v.args[0].first.empty() && v.args[0].second[0].kind == V::Kind::Name;
        if (!side) diags_.report(DiagCode::BadProtocolValue, v.range, "write triangular(lower) or triangular(upper)");
        rank(2, "zeroes one side of the diagonal of the last two dims: it needs rank >= 2");
      } else if (n == "one_hot" || n == "sorted" || n == "symmetric" || n == "positive_definite") {
        const bool square = n == "symmetric" || n == "positive_definite";
        if (call) arity(0, n.c_str());
        rank(square ? 2 : 1, square ? "needs square matrices in the last two dims: rank >= 2"
                                                                       : "works along the last dim: it needs rank >= 1");
      } else if (n == "valid_indices") {
        arity(1, "valid_indices(V): integers in 0..V - 1");
      }
    }
  }

  // Every name-like value must be one of `names`.
  bool checkNames(const std::vector<V>& values, const std::vector<std::string>& names, const char* what,
                  bool numbersAllowed) {
    bool ok = true;
    for (const auto& v : values) {
      bool isName = v.kind == V::Kind::Name || v.kind == V::Kind::Call;
      if (!isName) {
        if (!numbersAllowed) {
          diags_.report(DiagCode::BadProtocolValue, v.range, std::string("expected a ") + what + " here");
          ok = false;
        }
        continue;
      }
      if (!known(names, v.name)) {
        diags_.report(DiagCode::UnknownProtocolName, v.range,
                      std::string("unknown ") + what + " '" + v.name + "'; known: " + joined(names));
        ok = false;
      }
    }
    return ok;
  }

  bool tensorTarget(const ast::Target& t, bool inputsOnly) {
    if (t.name == "*") return true;
    const TensorInfo* info = kernel_.tensor(t.name);
    if (!info || (inputsOnly && info->output)) {
      diags_.report(DiagCode::BadProtocolTarget, t.range,
                    "'" + t.name + "' is not " + (inputsOnly ? "an input" : "a tensor") + " of kernel '" + kernel_.name + "'");
      return false;
    }
    return true;
  }

  void dims(const ast::ProtocolBinding& b, const Origin& origin, ProtocolInfo& out) {
    const DimInfo* dim = kernel_.dim(b.target.name);
    if (!dim) {
      diags_.report(DiagCode::BadProtocolTarget, b.target.range,
                    "'" + b.target.name + "' is not a dimension of kernel '" + kernel_.name + "'");
      return;
    }
    std::vector<V> values;
    flatten(*b.set, values);
    for (const auto& v : values) {
      if (v.kind == V::Kind::Call) {
        if (!known(kDimGenerators, v.name))
          diags_.report(DiagCode::UnknownProtocolName, v.range,
                        "unknown dimension generator '" + v.name + "'; known: " + joined(kDimGenerators));
        continue;
      }
      int64_t lo = v.kind == V::Kind::Int ? v.i : v.kind == V::Kind::Range ? v.i : -1;
      int64_t hi = v.kind == V::Kind::Range ? v.hi : lo;
      if (v.kind != V::Kind::Int && v.kind != V::Kind::Range) {
        diags_.report(DiagCode::BadProtocolValue, v.range, "a dimension takes integers, ranges or boundary(tiles: ...)");
        continue;
      }
      if (lo < dim->lo || hi > dim->hi)
        diags_.report(DiagCode::BadProtocolValue, v.range,
                      "'" + dim->name + "' is declared in " + std::to_string(dim->lo) + ".." + std::to_string(dim->hi) +
                          "; this value is outside");
      else if (v.kind == V::Kind::Int && !dim->admits(v.i))
        diags_.report(DiagCode::BadProtocolValue, v.range,
                      "'" + dim->name + "' is declared as a set of values; " + std::to_string(v.i) + " is not one of them");
    }
    out.dims.push_back(ProtocolBinding{dim->name, std::move(values), origin, b.range});
  }

  void values(const ast::ProtocolBinding& b, const Origin& origin, ProtocolInfo& out) {
    if (!tensorTarget(b.target, true)) return;
    std::vector<V> values;
    inValues_ = true;
    flatten(*b.set, values);
    inValues_ = false;
    if (!checkNames(values, kDistributions, "distribution", true)) return;
    checkGeneratorArguments(values);
    checkStructured(values, kernel_.tensor(b.target.name));
    for (const auto& v : values) {
      if (v.kind != V::Kind::Call || v.name != "special") continue;
      double total = 0;  // of the rates written as numbers (a rate may also use the dims)
      for (const auto& [name, args] : v.args) {
        if (!known(kSpecialKinds, name))
          diags_.report(DiagCode::UnknownProtocolName, v.range,
                        "special() takes rates of " + joined(kSpecialKinds) + (name.empty() ? "" : "; not '" + name + "'"));
        if (args.size() != 1 || (args[0].kind != V::Kind::Int && args[0].kind != V::Kind::Real)) continue;
        const V& r = args[0];
        double rate = (r.kind == V::Kind::Int ? static_cast<double>(r.i) : r.d) / (r.percent ? 100.0 : 1.0);
        if (!(rate >= 0 && rate <= 1))
          diags_.report(DiagCode::BadProtocolValue, r.range,
                        "a special() rate is a fraction of the cells, 0% to 100% (0 to 1); not " + r.str());
        else
          total += rate;
      }
      if (total > 1)
        diags_.report(DiagCode::BadProtocolValue, v.range, "the rates of special() add up to more than 100% of the cells");
    }
    out.values.push_back(ProtocolBinding{b.target.name, std::move(values), origin, b.range});
  }

  // A `case` item: its dims and inputs checked as a protocol's, each named once, dims given
  // integers (a range or boundary() would be many cases: `dims` covers those). A
  // special(...) there is placed over the input's first distribution, and the case tests
  // the contract's own postconditions (compiler/plan/plan_explicit.cpp).
  void explicitCase(const ast::ProtocolItem& item, const Origin& origin, ProtocolInfo& out) {
    ProtocolInfo one;
    std::vector<std::string> seen;
    for (const auto& b : item.bindings) {
      if (known(seen, b.target.name)) {
        diags_.report(DiagCode::BadProtocolTarget, b.target.range, "'" + b.target.name + "' is given twice in this case");
        continue;
      }
      seen.push_back(b.target.name);
      if (!b.tilde) {
        dims(b, origin, one);
        continue;
      }
      if (b.target.name == "*") {
        diags_.report(DiagCode::BadProtocolTarget, b.target.range, "a case names each input it sets; '*' belongs in values");
        continue;
      }
      values(b, origin, one);
    }
    for (const auto& d : one.dims)
      for (const auto& v : d.values)
        if (v.kind != V::Kind::Int)
          diags_.report(DiagCode::BadProtocolValue, v.range,
                        "a case gives '" + d.target + "' integers, as in case " + d.target + " in {4097}; ranges and boundary() belong in dims");
    out.cases.push_back(ExplicitCase{std::move(one.dims), std::move(one.values), origin, item.range});
  }

  void layouts(const ast::ProtocolBinding& b, const Origin& origin, ProtocolInfo& out) {
    if (!tensorTarget(b.target, false)) return;
    std::vector<V> values;
    flatten(*b.set, values);
    if (!checkNames(values, kLayouts, "layout", false)) return;
    out.layouts.push_back(ProtocolBinding{b.target.name, std::move(values), origin, b.range});
  }

  std::vector<V> single(const ast::SetExpr& s, const std::vector<std::string>& names, const char* what, bool numbers) {
    std::vector<V> values;
    flatten(s, values);
    checkNames(values, names, what, numbers);
    return values;
  }

  void counts(const ast::SetExpr& s, std::vector<V>& out, const char* what, int64_t min) {
    std::vector<V> values;
    flatten(s, values);
    for (const auto& v : values) {
      if (v.kind != V::Kind::Int || v.i < min)
        diags_.report(DiagCode::BadProtocolValue, v.range,
                      std::string(what) + " takes integers of at least " + std::to_string(min));
    }
    out = std::move(values);
  }

  const KernelInfo& kernel_;
  DiagnosticEngine& diags_;
  bool inValues_ = false;         // flattening a `values` binding
  bool inGeneratorArgs_ = false;  // ... and inside a generator's arguments
  std::string generator_;         // ... of this generator
};

}  // namespace

const std::vector<std::string>& knownDistributions() { return kDistributions; }
const std::vector<std::string>& knownLayouts() { return kLayouts; }

void lowerProtocol(const ast::ProtocolSection& section, const KernelInfo& kernel, const Origin& origin,
                   ProtocolInfo& out, DiagnosticEngine& diags) {
  ProtocolLowering p(kernel, diags);
  for (const auto& item : section.items) {
    switch (item.kind) {
      case ast::ProtocolItemKind::Seeds:
        p.counts(*item.value, out.seeds, "seeds", 0);
        out.caseWide.push_back(origin);
        break;
      case ast::ProtocolItemKind::Repeats:
        p.counts(*item.value, out.repeats, "repeats", 1);
        out.caseWide.push_back(origin);
        break;
      case ast::ProtocolItemKind::Cells:
        out.cells = p.single(*item.value, kCells, "cell selection", false);
        out.caseWide.push_back(origin);
        break;
      case ast::ProtocolItemKind::Perturb:
        out.perturb.push_back(ProtocolBinding{"", p.single(*item.value, kPerturb, "perturbation", false), origin, item.range});
        break;
      case ast::ProtocolItemKind::Dims:
        for (const auto& b : item.bindings) p.dims(b, origin, out);
        break;
      case ast::ProtocolItemKind::Values:
        for (const auto& b : item.bindings) p.values(b, origin, out);
        break;
      case ast::ProtocolItemKind::Layouts:
        for (const auto& b : item.bindings) p.layouts(b, origin, out);
        break;
      case ast::ProtocolItemKind::Case:
        p.explicitCase(item, origin, out);
        break;
    }
  }
}

ProtocolBinding lowerLayoutScope(const ast::LayoutBinding& b, const KernelInfo& kernel, const Origin& origin,
                                 DiagnosticEngine& diags) {
  ProtocolLowering p(kernel, diags);
  ProtocolBinding out{b.target.name, {}, origin, b.range};
  if (!p.tensorTarget(b.target, false)) return out;
  out.values = p.single(*b.layouts, kScopeLayouts, "scope layout", false);
  return out;
}

}  // namespace kc::sema

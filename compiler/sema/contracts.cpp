#include "compiler/sema/contracts.h"

#include <algorithm>
#include <set>

#include "backends/backend_names.h"
#include "compiler/sema/compose.h"
#include "compiler/sema/lower_expr.h"
#include "compiler/sema/protocol.h"

namespace kc::sema {

namespace {

// Which sections each kind of declaration may have.
bool allowed(ast::ItemKind kind, ast::SectionKind s) {
  using S = ast::SectionKind;
  switch (kind) {
    case ast::ItemKind::Class: return s == S::Post || s == S::Protocol || s == S::Signature;
    case ast::ItemKind::Op: return s == S::Pre || s == S::Oracle || s == S::Tolerance || s == S::Protocol;
    default: return true;
  }
}

const char* allowedList(ast::ItemKind kind) {
  switch (kind) {
    case ast::ItemKind::Class: return "post, protocol and signature (the applying contract supplies the rest)";
    case ast::ItemKind::Op: return "pre, oracle, tolerance and protocol";
    default: return "every section";
  }
}

// Reports sections a declaration may not have and repeated ones (signatures may repeat).
void checkSectionSet(ast::ItemKind kind, const std::vector<ast::SectionPtr>& sections, DiagnosticEngine& diags) {
  std::map<ast::SectionKind, const ast::Section*> seen;
  for (const auto& s : sections) {
    if (!allowed(kind, s->kind)) {
      diags.report(DiagCode::SectionNotAllowed, s->range,
                   std::string(kind == ast::ItemKind::Class ? "a class" : "an op") + " cannot have " +
                       (s->kind == ast::SectionKind::Oracle ? "an '" : "a '") + ast::sectionKeyword(s->kind) +
                       "' section; it may have " + allowedList(kind));
      continue;
    }
    if (s->kind == ast::SectionKind::Signature) continue;
    auto [it, fresh] = seen.emplace(s->kind, s.get());
    if (!fresh) {
      Diagnostic& d = diags.report(DiagCode::DuplicateSection, s->range,
                                   std::string("a second '") + ast::sectionKeyword(s->kind) + "' section");
      d.notes.push_back({it->second->range, "the first one is here"});
    }
  }
}

template <class T>
const T* findSection(const std::vector<ast::SectionPtr>& sections, ast::SectionKind kind) {
  for (const auto& s : sections)
    if (s->kind == kind) return static_cast<const T*>(s.get());
  return nullptr;
}

class ContractChecker {
 public:
  ContractChecker(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags)
      : symbols_(symbols), program_(program), diags_(diags) {}

  // `extra`: classes to apply after the contract's own (a suite entry's `classes:`).
  std::unique_ptr<ContractInfo> check(const ast::ContractDecl& decl, const std::vector<std::string>& extra = {}) {
    auto c = std::make_unique<ContractInfo>();
    failed_.clear();
    size_t errorsBefore = diags_.errorCount();
    c->id = decl.id.str();
    c->name = decl.id.name.text;
    c->version = decl.id.version;
    c->title = decl.title ? decl.title->value : "";
    c->decl = &decl;
    c->range = decl.range;
    c->isClass = decl.kind == ast::ItemKind::Class;
    checkSectionSet(decl.kind, decl.sections, diags_);
    if (c->isClass) return c;  // classes are checked where they are applied, against a kernel

    const auto* scope = findSection<ast::ScopeSection>(decl.sections, ast::SectionKind::Scope);
    if (!scope) {
      diags_.report(DiagCode::MissingSection, decl.id.range,
                    "contract '" + c->id + "' has no scope: say which kernel it holds, e.g. scope { kernel my_kernel }");
      return c;
    }
    checkScope(*c, *scope);
    if (!c->kernel) return c;
    const ast::OpDecl* op = symbols_.ops.count(c->kernel->name) ? symbols_.ops.at(c->kernel->name) : nullptr;

    Origin self{c->id, false};
    if (const auto* pre = findSection<ast::ExprSection>(decl.sections, ast::SectionKind::Pre)) conditions(*c, *pre, Part::Pre, self, c->pre);
    else if (op) if (const auto* pre = findSection<ast::ExprSection>(op->sections, ast::SectionKind::Pre)) conditions(*c, *pre, Part::Pre, self, c->pre);

    const auto* oracle = findSection<ast::DefSection>(decl.sections, ast::SectionKind::Oracle);
    if (!oracle && op) oracle = findSection<ast::DefSection>(op->sections, ast::SectionKind::Oracle);
    if (!oracle) {
      diags_.report(DiagCode::MissingSection, decl.id.range,
                    "contract '" + c->id + "' has no oracle: define each output, e.g. oracle f64 { y[i] = ... }");
    } else {
      checkOracle(*c, *oracle);
    }
    const auto* tol = findSection<ast::DefSection>(decl.sections, ast::SectionKind::Tolerance);
    if (!tol && op) tol = findSection<ast::DefSection>(op->sections, ast::SectionKind::Tolerance);
    if (tol) definitions(*c, *tol, Part::Tolerance, c->tolerance);

    if (const auto* post = findSection<ast::ExprSection>(decl.sections, ast::SectionKind::Post))
      conditions(*c, *post, Part::Post, self, c->post);
    for (const auto& s : decl.sections)
      if (s->kind == ast::SectionKind::Signature) signature(*c, static_cast<const ast::SignatureSection&>(*s), self, false);
    if (const auto* proto = findSection<ast::ProtocolSection>(decl.sections, ast::SectionKind::Protocol))
      lowerProtocol(*proto, *c->kernel, self, c->protocol, diags_);

    applyClasses(*c, decl);
    if (!extra.empty()) {
      applyExtraClasses(*c, decl, extra);
      c->id = withClassesId(c->id, extra);
    }
    if (diags_.errorCount() == errorsBefore) warnUnused(*c);  // after an error, "unused" may be wrong
    if (c->post.empty() && !writtenPost(decl))
      diags_.report(DiagCode::MissingSection, decl.id.range,
                    "contract '" + c->id + "' checks nothing: give it a post section or apply a class that has one");
    return c;
  }

 private:
  void checkScope(ContractInfo& c, const ast::ScopeSection& scope) {
    std::vector<const ast::Ident*> kernels;
    for (const auto& item : scope.items) {
      switch (item.kind) {
        case ast::ScopeItemKind::Kernels:
          for (const auto& n : item.names) {
            kernels.push_back(&n);
            c.scope.kernels.push_back(n.name);
          }
          break;
        case ast::ScopeItemKind::Ops:
          for (const auto& n : item.ops) {
            c.scope.ops.push_back(n.text);
            if (!symbols_.ops.count(n.text))
              diags_.report(DiagCode::UnknownKernel, n.range, "no op '" + n.text + "' is declared or imported");
          }
          break;
        case ast::ScopeItemKind::Backends:
          for (const auto& n : item.names) {
            if (!backend::isBackendName(n.name))
              diags_.report(DiagCode::UnknownBackend, n.range,
                            "unknown backend '" + n.name + "'; the backends are " + backend::backendNamesText());
            c.scope.backends.push_back(n.name);
          }
          break;
        case ast::ScopeItemKind::Layouts:
        case ast::ScopeItemKind::Domains:
          break;  // checked once the kernel is known
      }
    }
    if (kernels.empty() && c.scope.ops.size() == 1) {
      c.kernel = program_.kernel(c.scope.ops[0]);
    } else if (kernels.size() != 1) {
      diags_.report(DiagCode::UnknownKernel, scope.range,
                    kernels.empty() ? "the scope names no kernel: add 'kernel NAME'"
                                    : "a contract holds one kernel; this scope names " + std::to_string(kernels.size()));
      return;
    } else {
      c.kernel = program_.kernel(kernels[0]->name);
      if (!c.kernel || !symbols_.kernels.count(kernels[0]->name)) {
        c.kernel = nullptr;
        diags_.report(DiagCode::UnknownKernel, kernels[0]->range, "no kernel '" + kernels[0]->name + "' is declared");
        return;
      }
    }
    if (!c.kernel) return;
    for (const auto& item : scope.items) {
      if (item.kind == ast::ScopeItemKind::Layouts)
        for (const auto& b : item.layouts) c.scope.layouts.push_back(lowerLayoutScope(b, *c.kernel, {c.id, false}, diags_));
      if (item.kind == ast::ScopeItemKind::Domains)
        for (const auto& d : item.domains) narrow(c, d);
    }
  }

  // `where` inside a scope narrows a dimension's range or a dtype variable's set.
  void narrow(ContractInfo& c, const ast::DomainItem& d) {
    LoweringContext ctx{c.kernel, Part::Shape, nullptr, nullptr, false};
    ExprLowering lower(diags_, ctx);
    if (const DimInfo* dim = c.kernel->dim(d.name.name)) {
      if (!d.isRange) {
        diags_.report(DiagCode::BadDomain, d.range, "narrow a dimension with a range: " + d.name.name + " in LO..HI");
        return;
      }
      ir::NodePtr lo = lower.lower(*d.lo), hi = lower.lower(*d.hi);
      if (!lo || !hi) return;
      lo = ir::fold(std::move(lo));
      hi = ir::fold(std::move(hi));
      if (lo->op != ir::Op::ConstInt || hi->op != ir::Op::ConstInt) {
        diags_.report(DiagCode::BadDomain, d.range, "a scope range must be made of integer constants");
        return;
      }
      if (lo->i < dim->lo || hi->i > dim->hi || lo->i > hi->i) {
        diags_.report(DiagCode::ScopeConflict, d.range,
                      "the scope may only narrow '" + d.name.name + "' within its declared range " +
                          std::to_string(dim->lo) + ".." + std::to_string(dim->hi));
        return;
      }
      DimInfo narrowed = *dim;
      narrowed.lo = lo->i;
      narrowed.hi = hi->i;
      narrowed.range = d.range;
      c.scope.dims.push_back(narrowed);
      return;
    }
    if (const DTypeVarInfo* v = c.kernel->dtypeVar(d.name.name)) {
      std::vector<std::string> kept;
      for (const auto& e : d.elements) {
        std::string n = e->kind == ast::ExprKind::Name ? static_cast<const ast::NameExpr&>(*e).name : "";
        if (std::find(v->allowed.begin(), v->allowed.end(), n) == v->allowed.end()) {
          diags_.report(DiagCode::ScopeConflict, e->range,
                        "'" + n + "' is not one of the dtypes the kernel declares for " + v->name);
          continue;
        }
        kept.push_back(n);
      }
      c.scope.dtypes[v->name] = kept;
      return;
    }
    diags_.report(DiagCode::UnknownName, d.name.range,
                  "'" + d.name.name + "' is neither a dimension nor a dtype variable of kernel '" + c.kernel->name + "'");
  }

  void conditions(ContractInfo& c, const ast::ExprSection& s, Part part, const Origin& origin,
                  std::vector<Condition>& out, bool inClass = false) {
    LoweringContext ctx{c.kernel, part, &c.oracle, &c.tolerance, inClass, &failed_};
    for (const auto& stmt : s.stmts) {
      ExprLowering lower(diags_, ctx);
      if (ir::NodePtr n = lower.lowerCondition(*stmt)) out.push_back(Condition{std::move(n), origin, stmt->range});
    }
  }

  // Definitions in order; each sees the ones before it.
  void definitions(ContractInfo& c, const ast::DefSection& s, Part part, std::vector<Definition>& out) {
    for (const auto& d : s.defs) {
      const TensorInfo* t = c.kernel->tensor(d.name.name);
      bool definesOutput = part == Part::Oracle && t && t->output;
      if ((t && !definesOutput) || c.kernel->dim(d.name.name) || c.kernel->dtypeVar(d.name.name)) {
        diags_.report(DiagCode::ShadowedName, d.name.range,
                      "'" + d.name.name + "' already names a " + (t ? "tensor" : "dimension or dtype") +
                          " of the kernel; choose another name");
        continue;
      }
      bool again = std::any_of(out.begin(), out.end(), [&](const Definition& x) { return x.name == d.name.name; }) ||
                   (part == Part::Tolerance &&
                    std::any_of(c.oracle.begin(), c.oracle.end(), [&](const Definition& x) { return x.name == d.name.name; }));
      if (again) {
        diags_.report(DiagCode::DuplicateSection, d.name.range, "'" + d.name.name + "' is defined twice");
        continue;
      }
      if (const auto* call = opApplication(*d.value)) {
        if (!applyOp(c, d, *call, part, out)) failed_.push_back(d.name.name);
        continue;
      }
      if (definesOutput && d.indices.size() != t->rank()) {
        diags_.report(DiagCode::OracleIncomplete, d.range,
                      "output '" + t->name + "' has rank " + std::to_string(t->rank()) + " but is defined with " +
                          std::to_string(d.indices.size()) + " indices");
        continue;
      }
      LoweringContext ctx{c.kernel, part, &c.oracle, part == Part::Tolerance ? &out : &c.tolerance, false, &failed_};
      if (part == Part::Oracle) ctx.oracle = &out;
      ExprLowering lower(diags_, ctx);
      bool badIndex = false;
      for (size_t k = 0; k < d.indices.size() && !badIndex; ++k) {
        const auto& idx = d.indices[k];
        bool twice = std::any_of(d.indices.begin(), d.indices.begin() + k,
                                 [&](const ast::Ident& other) { return other.name == idx.name; });
        if (twice || c.kernel->tensor(idx.name) || c.kernel->dim(idx.name) || c.kernel->dtypeVar(idx.name)) {
          diags_.report(DiagCode::ShadowedName, idx.range,
                        twice ? "the index '" + idx.name + "' appears twice in '" + d.name.name + "'"
                              : "the index '" + idx.name + "' reuses the name of a tensor, dimension or dtype");
          badIndex = true;
          break;
        }
        lower.pushIndex(idx.name, idx.range, definesOutput ? t->shape[k]->clone() : nullptr);
      }
      if (badIndex) {
        failed_.push_back(d.name.name);
        continue;  // the ExprLowering and its indices go with this iteration
      }
      ir::NodePtr value = lower.lower(*d.value);
      std::vector<ir::NodePtr> extents(d.indices.size());
      for (size_t k = d.indices.size(); k-- > 0;) extents[k] = lower.popIndex();
      if (!value) {
        failed_.push_back(d.name.name);
        continue;
      }
      if (value->type != ir::Type::Int && value->type != ir::Type::Real) {
        diags_.report(DiagCode::TypeMismatch, d.value->range, "a definition must be a number");
        continue;
      }
      bool ok = true;
      for (size_t k = 0; k < extents.size(); ++k) {
        if (!extents[k]) {
          diags_.report(DiagCode::CannotInferRange, d.indices[k].range,
                        "cannot tell the range of '" + d.indices[k].name + "': index a tensor with it in the right-hand side");
          ok = false;
        }
      }
      if (!ok) continue;
      Definition def;
      def.name = d.name.name;
      for (const auto& idx : d.indices) def.indices.push_back(idx.name);
      def.extents = std::move(extents);
      def.value = ir::fold(std::move(value));
      def.range = d.range;
      def.implicit = s.exact;
      out.push_back(std::move(def));
    }
  }

  // `h = std.ops.gelu(z)`: a definition whose whole value is a call with a dotted name.
  static const ast::CallExpr* opApplication(const ast::Expr& e) {
    if (e.kind != ast::ExprKind::Call) return nullptr;
    const auto& call = static_cast<const ast::CallExpr&>(e);
    return call.callee.name.find('.') != std::string::npos ? &call : nullptr;
  }

  // Inlines the applied op's oracle as definitions `h` and `h.NAME` (sema/compose.h).
  bool applyOp(ContractInfo& c, const ast::Definition& d, const ast::CallExpr& call, Part part,
               std::vector<Definition>& out) {
    const std::string& name = call.callee.name;
    auto report = [&](SourceRange r, const std::string& m) {
      diags_.report(DiagCode::BadOpApplication, r, m);
      return false;
    };
    if (part != Part::Oracle) return report(call.range, "an op is applied only in an oracle section: " + name + "(...) is the op's oracle");
    if (d.hasIndices)
      return report(d.range, "write '" + d.name.name + " = " + name + "(...)' without indices: '" + d.name.name +
                                 "' takes the indices of the op's output");
    auto op = symbols_.ops.find(name);
    const KernelInfo* callee = program_.kernel(name);
    if (op == symbols_.ops.end() || !callee) return report(call.callee.range, "unknown op '" + name + "': import the module that declares it");
    if (std::find(applying_.begin(), applying_.end(), name) != applying_.end())
      return report(call.callee.range, "the op '" + name + "' is applied inside its own oracle");
    std::vector<const TensorInfo*> inputs, outputs;
    for (const auto& t : callee->tensors) (t.output ? outputs : inputs).push_back(&t);
    if (outputs.size() != 1) return report(call.callee.range, "only an op with one output can be applied; '" + name + "' has " + std::to_string(outputs.size()));
    if (call.args.size() != inputs.size())
      return report(call.range, "'" + name + "' takes " + std::to_string(inputs.size()) + " inputs, but " +
                                    std::to_string(call.args.size()) + " arguments are given");
    std::vector<OpArgument> args;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const ast::Expr& e = *call.args[k];
      OpArgument a;
      a.range = e.range;
      if (inputs[k]->rank() == 0) {
        LoweringContext ctx{c.kernel, part, &out, &c.tolerance, false, &failed_};
        ExprLowering lower(diags_, ctx);
        a.kind = OpArgument::Kind::Scalar;
        a.value = lower.lower(e);
        if (!a.value) return false;
        if (a.value->type != ir::Type::Int && a.value->type != ir::Type::Real)
          return report(e.range, "the op's input '" + inputs[k]->name + "' is a number; this argument is not");
      } else {
        const std::string arg = e.kind == ast::ExprKind::Name ? static_cast<const ast::NameExpr&>(e).name : "";
        const TensorInfo* t = arg.empty() ? nullptr : c.kernel->tensor(arg);
        auto def = std::find_if(out.begin(), out.end(), [&](const Definition& x) { return x.name == arg; });
        if (t && !t->output) {
          a.name = t->name, a.role = ir::Role::Input, a.dtype = t->dtype, a.dtypeIsVar = t->dtypeIsVar;
          for (const auto& s : t->shape) a.extents.push_back(s.get());
        } else if (def != out.end()) {
          a.name = def->name, a.role = ir::Role::Local;
          for (const auto& x : def->extents) a.extents.push_back(x.get());
        } else {
          return report(e.range, "the op's input '" + inputs[k]->name + "' has rank " + std::to_string(inputs[k]->rank()) +
                                     ": give it a kernel input or an earlier definition of the oracle, by name");
        }
      }
      args.push_back(std::move(a));
    }
    const auto* oracle = findSection<ast::DefSection>(op->second->sections, ast::SectionKind::Oracle);
    if (!oracle) return report(call.callee.range, "the op '" + name + "' has no oracle to apply");
    ContractInfo inner;  // the op's oracle, lowered against the op's own signature
    inner.kernel = callee;
    size_t errors = diags_.errorCount();
    applying_.push_back(name);
    std::vector<std::string> outerFailed = std::move(failed_);  // the op's names are its own
    failed_.clear();
    definitions(inner, *oracle, Part::Oracle, inner.oracle);
    failed_ = std::move(outerFailed);
    applying_.pop_back();
    if (diags_.errorCount() != errors) return false;
    if (std::none_of(inner.oracle.begin(), inner.oracle.end(), [&](const Definition& x) { return x.name == outputs[0]->name; }))
      return report(call.callee.range, "the op '" + name + "' has no oracle definition of its output '" + outputs[0]->name + "' to apply");
    size_t first = out.size();
    if (!inlineOracle(*callee, inner.oracle, args, d.name.name, call.range, diags_, out)) return false;
    // An output defined by the application (y = std.ops.softmax(g)) must come out in its shape.
    const TensorInfo* t = c.kernel->tensor(d.name.name);
    if (!t) return true;
    auto def = std::find_if(out.begin() + first, out.end(), [&](const Definition& x) { return x.name == t->name; });
    bool same = def != out.end() && def->extents.size() == t->rank();
    for (size_t k = 0; same && k < t->rank(); ++k)
      same = def->extents[k] && ir::print(*def->extents[k]) == ir::print(*t->shape[k]);
    if (same) return true;
    std::string shape, declared;
    for (size_t k = 0; def != out.end() && k < def->extents.size(); ++k)
      shape += (k ? ", " : "") + (def->extents[k] ? ir::print(*def->extents[k]) : std::string("?"));
    for (size_t k = 0; k < t->rank(); ++k) declared += (k ? ", " : "") + ir::print(*t->shape[k]);
    out.erase(out.begin() + first, out.end());
    return report(d.range, "'" + name + "' gives '" + t->name + "' the shape [" + shape + "], but '" + t->name +
                               "' is declared [" + declared + "]; apply the op to a definition and define '" + t->name +
                               "' from it");
  }

  void checkOracle(ContractInfo& c, const ast::DefSection& s) {
    if (s.precision) {
      const std::string& p = s.precision->name.name;
      if (p == "f64" && !s.precision->bits) {
        c.oraclePrecision = "f64";
        c.oracleBits = 53;
      } else if (p == "mpfr" && s.precision->bits && *s.precision->bits >= 53 && *s.precision->bits <= 100000) {
        c.oraclePrecision = "mpfr";
        c.oracleBits = *s.precision->bits;
      } else {
        diags_.report(DiagCode::BadDomain, s.precision->range,
                      "the oracle is evaluated in f64 or in mpfr(BITS) with 53 <= BITS <= 100000");
      }
    }
    definitions(c, s, Part::Oracle, c.oracle);
    for (const auto& t : c.kernel->tensors) {
      if (!t.output) continue;
      bool defined = std::any_of(c.oracle.begin(), c.oracle.end(), [&](const Definition& d) { return d.name == t.name; });
      bool reported = std::any_of(s.defs.begin(), s.defs.end(), [&](const ast::Definition& d) { return d.name.name == t.name; });
      if (!defined && !reported)
        diags_.report(DiagCode::OracleIncomplete, s.range, "the oracle does not define the output '" + t.name + "'");
    }
  }

  void signature(ContractInfo& c, const ast::SignatureSection& s, const Origin& origin, bool inClass) {
    // A contract's own signature refines a class's of the same name.
    if (origin.fromClass && std::any_of(c.signatures.begin(), c.signatures.end(),
                                        [&](const SignatureInfo& x) { return x.name == s.name.text; }))
      return;
    SignatureInfo sig{s.name.text, origin, {}, s.range};
    for (const auto& cl : s.clauses) {
      LoweringContext ctx{c.kernel, Part::Signature, &c.oracle, &c.tolerance, inClass, &failed_};
      ExprLowering lower(diags_, ctx);
      SignatureClause out{cl.kind, nullptr, cl.dim.name, cl.compareOp, cl.range, {}};
      switch (cl.kind) {
        case ast::SignatureClauseKind::FailsWhen:
        case ast::SignatureClauseKind::FailsOnlyWhen:
          out.expr = lower.lowerCondition(*cl.expr);
          if (!out.expr) continue;
          break;
        case ast::SignatureClauseKind::WrongCells: {
          // One predicate per output cell; kernels with several outputs get one per output.
          bool any = false;
          for (const auto& t : c.kernel->tensors) {
            if (!t.output) continue;
            std::vector<std::string> vars;
            for (size_t k = 0; k < t.rank(); ++k) vars.push_back("cell_" + std::to_string(k));
            if (!cl.cells.empty()) {  // wrong cells [r, c]: the cell's indices by name
              if (cl.cells.size() != t.rank()) {
                diags_.report(DiagCode::BadSignature, cl.cells.front().range,
                              "'wrong cells' names " + std::to_string(cl.cells.size()) + " indices, but output '" +
                                  t.name + "' has rank " + std::to_string(t.rank()));
                break;
              }
              for (size_t k = 0; k < t.rank(); ++k) vars[k] = cl.cells[k].name;
            }
            ExprLowering cellLower(diags_, ctx);
            ir::NodePtr p = cellLower.lowerInCells(*cl.expr, t, vars);
            if (!p) break;
            if (p->type != ir::Type::Bool) {
              diags_.report(DiagCode::NonBoolCondition, cl.expr->range, "'wrong cells:' needs a condition on one cell");
              break;
            }
            SignatureClause perOutput{cl.kind, std::move(p), t.name, "", cl.range, vars};
            sig.clauses.push_back(std::move(perOutput));
            any = true;
          }
          (void)any;
          continue;
        }
        case ast::SignatureClauseKind::ErrorGrows:
          if (!c.kernel->dim(cl.dim.name)) {
            diags_.report(DiagCode::BadSignature, cl.dim.range,
                          "'error grows with' needs a dimension of kernel '" + c.kernel->name + "'");
            continue;
          }
          break;
        case ast::SignatureClauseKind::DiffersRunToRun: break;
        case ast::SignatureClauseKind::ErrorBound:
          out.expr = lower.lower(*cl.expr);
          if (!out.expr) continue;
          if (out.expr->type != ir::Type::Int && out.expr->type != ir::Type::Real) {
            diags_.report(DiagCode::TypeMismatch, cl.expr->range, "an error bound must be a number (in ulps)");
            continue;
          }
          out.expr = ir::fold(std::move(out.expr));
          break;
      }
      sig.clauses.push_back(std::move(out));
    }
    c.signatures.push_back(std::move(sig));
  }

  // A class contributes its postconditions, protocol and signatures, checked against this
  // contract's kernel; `y` in the class stands for each output.
  void applyClasses(ContractInfo& c, const ast::ContractDecl& decl) {
    std::set<std::string> applied;
    for (const auto& id : decl.applies) {
      if (!applied.insert(id.str()).second) {
        diags_.report(DiagCode::DuplicateDefinition, id.range, "'" + id.str() + "' is applied twice");
        continue;
      }
      auto it = symbols_.contracts.find(id.str());
      if (it == symbols_.contracts.end()) {
        diags_.report(DiagCode::UnknownClass, id.range,
                      "no class '" + id.str() + "' is declared or imported (import std.classes for the standard ones)");
        continue;
      }
      const ast::ContractDecl& cls = *it->second;
      if (cls.kind != ast::ItemKind::Class) {
        Diagnostic& d = diags_.report(DiagCode::NotAClass, id.range, "'" + id.str() + "' is a contract; only classes can be applied");
        d.notes.push_back({cls.id.range, "declared here"});
        continue;
      }
      c.applies.push_back(id.str());
      Origin origin{id.str(), true};
      size_t before = diags_.count();
      for (const auto& s : cls.sections) {
        if (s->kind == ast::SectionKind::Post)
          conditions(c, static_cast<const ast::ExprSection&>(*s), Part::Post, origin, c.post, true);
        else if (s->kind == ast::SectionKind::Signature)
          signature(c, static_cast<const ast::SignatureSection&>(*s), origin, true);
        else if (s->kind == ast::SectionKind::Protocol)
          lowerProtocol(static_cast<const ast::ProtocolSection&>(*s), *c.kernel, origin, c.protocol, diags_);
      }
      // Errors inside the class are about this contract: say which one applied it.
      for (size_t k = before; k < diags_.count(); ++k)
        diags_.at(k).notes.push_back({id.range, "while applying '" + id.str() + "' to contract '" + c.id + "' here"});
    }
  }

  // Classes a suite entry adds to the contract; one the contract applies already is not
  // applied twice. Errors name the contract, since the suite has no source range here.
  void applyExtraClasses(ContractInfo& c, const ast::ContractDecl& decl, const std::vector<std::string>& extra) {
    for (const std::string& id : extra) {
      if (std::find(c.applies.begin(), c.applies.end(), id) != c.applies.end()) continue;
      auto it = symbols_.contracts.find(id);
      if (it == symbols_.contracts.end() || it->second->kind != ast::ItemKind::Class) {
        diags_.report(it == symbols_.contracts.end() ? DiagCode::UnknownClass : DiagCode::NotAClass, decl.id.range,
                      "cannot add '" + id + "' to contract '" + c.id + "': " +
                          (it == symbols_.contracts.end() ? "no class of that name is declared or imported where the contract is"
                                                          : "it is a contract; only classes can be added"));
        continue;
      }
      c.applies.push_back(id);
      Origin origin{id, true};
      size_t before = diags_.count();
      for (const auto& s : it->second->sections) {
        if (s->kind == ast::SectionKind::Post)
          conditions(c, static_cast<const ast::ExprSection&>(*s), Part::Post, origin, c.post, true);
        else if (s->kind == ast::SectionKind::Signature)
          signature(c, static_cast<const ast::SignatureSection&>(*s), origin, true);
        else if (s->kind == ast::SectionKind::Protocol)
          lowerProtocol(static_cast<const ast::ProtocolSection&>(*s), *c.kernel, origin, c.protocol, diags_);
      }
      for (size_t k = before; k < diags_.count(); ++k)
        diags_.at(k).notes.push_back({decl.id.range, "while adding '" + id + "' to contract '" + c.id + "'"});
    }
  }

  // A definition nothing reads: no postcondition, signature, or other definition. An
  // oracle definition of an output is always used (it is the reference).
  void warnUnused(const ContractInfo& c) {
    std::set<std::string> read;
    auto collect = [&](const ir::Node& n) {
      ir::walk(n, [&](const ir::Node& x) {
        if (x.op == ir::Op::TensorRead || x.op == ir::Op::TensorWhole) read.insert(x.name);
      });
    };
    for (const auto* defs : {&c.oracle, &c.tolerance})
      for (const auto& d : *defs) collect(*d.value);
    for (const auto& p : c.post) collect(*p.expr);
    for (const auto& sig : c.signatures)
      for (const auto& cl : sig.clauses)
        if (cl.expr) collect(*cl.expr);
    for (const auto* defs : {&c.oracle, &c.tolerance})
      for (const auto& d : *defs)
        if (!read.count(d.name) && !c.kernel->tensor(d.name) && !d.implicit)
          diags_.report(DiagCode::UnusedDefinition, d.range, "'" + d.name + "' is defined but nothing reads it");
  }

  // Did the contract or a class it applies write any postcondition (even a failing one)?
  bool writtenPost(const ast::ContractDecl& decl) const {
    auto hasPost = [](const std::vector<ast::SectionPtr>& sections) {
      const auto* post = findSection<ast::ExprSection>(sections, ast::SectionKind::Post);
      return post && !post->stmts.empty();
    };
    if (hasPost(decl.sections)) return true;
    for (const auto& id : decl.applies) {
      auto it = symbols_.contracts.find(id.str());
      if (it != symbols_.contracts.end() && hasPost(it->second->sections)) return true;
    }
    return false;
  }

  const SymbolTable& symbols_;
  Program& program_;
  DiagnosticEngine& diags_;
  std::vector<std::string> failed_;  // definitions of the current contract that failed
  std::vector<std::string> applying_;  // the ops whose oracles are being inlined, outermost first
};

}  // namespace

std::string withClassesId(const std::string& contractId, const std::vector<std::string>& classes) {
  std::string id = contractId;
  for (const auto& cls : classes) id += "+" + cls;
  return id;
}

void checkContracts(const SymbolTable& symbols, Program& program, DiagnosticEngine& diags,
                    const std::vector<ExtraClasses>& extra) {
  for (const auto* o : symbols.opOrder) checkSectionSet(ast::ItemKind::Op, o->sections, diags);
  ContractChecker checker(symbols, program, diags);
  for (const auto* decl : symbols.contractOrder) program.contracts.push_back(checker.check(*decl));
  std::set<std::string> done;
  for (const ExtraClasses& e : extra) {
    if (e.classes.empty() || !done.insert(withClassesId(e.contract, e.classes)).second) continue;
    for (const auto* decl : symbols.contractOrder) {
      if (decl->kind == ast::ItemKind::Class) continue;
      const std::string id = decl->id.str();
      if (id == e.contract || id.substr(0, id.find('@')) == e.contract) program.contracts.push_back(checker.check(*decl, e.classes));
    }
  }
}

}  // namespace kc::sema

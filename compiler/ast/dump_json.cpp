#include "compiler/ast/dump.h"

namespace kc::ast {

namespace {

using nlohmann::json;

class JsonDumper {
 public:
  explicit JsonDumper(bool withRanges) : withRanges_(withRanges) {}

  json file(const File& f) {
    json j = node("file", f.range);
    j["version"] = f.version;
    j["items"] = json::array();
    for (const auto& item : f.items) j["items"].push_back(this->item(*item));
    j["comments"] = json::array();
    for (const auto& c : f.comments) {
      json cj = node("comment", c.range);
      cj["text"] = c.text;
      j["comments"].push_back(cj);
    }
    return j;
  }

 private:
  json node(const char* kind, const SourceRange& r) {
    json j = json::object();
    j["node"] = kind;
    if (withRanges_)
      j["range"] = {{"begin", {{"line", r.begin.line}, {"column", r.begin.column}}},
                    {"end", {{"line", r.end.line}, {"column", r.end.column}}}};
    return j;
  }

  json ident(const Ident& i) {
    json j = node("ident", i.range);
    j["name"] = i.name;
    return j;
  }

  json qname(const QualifiedName& q) {
    json j = node("qualified_name", q.range);
    j["text"] = q.text;
    return j;
  }

  json contractId(const ContractId& c) {
    json j = node("contract_id", c.range);
    j["name"] = c.name.text;
    j["version"] = c.version;
    return j;
  }

  template <class T, class F>
  json array(const std::vector<T>& v, F f) {
    json a = json::array();
    for (const auto& x : v) a.push_back(f(x));
    return a;
  }

  json binder(const Binder& b) {
    json j = node("binder", b.range);
    j["name"] = ident(b.name);
    if (b.lo) {
      j["lo"] = expr(*b.lo);
      j["hi"] = expr(*b.hi);
    }
    return j;
  }

  json exprs(const std::vector<ExprPtr>& v) {
    return array(v, [&](const ExprPtr& e) { return expr(*e); });
  }

  json expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Number: {
        const auto& x = static_cast<const NumberExpr&>(e);
        json j = node("number", e.range);
        j["text"] = x.text;
        j["kind"] = x.numberKind == NumberKind::Int ? "int" : x.numberKind == NumberKind::Float ? "float" : "hexfloat";
        return j;
      }
      case ExprKind::Name: {
        json j = node("name", e.range);
        j["name"] = static_cast<const NameExpr&>(e).name;
        return j;
      }
      case ExprKind::Ref: {
        json j = node("ref", e.range);
        j["name"] = static_cast<const RefExpr&>(e).name;
        return j;
      }
      case ExprKind::Index: {
        const auto& x = static_cast<const IndexExpr&>(e);
        json j = node("index", e.range);
        j["base"] = expr(*x.base);
        j["indices"] = exprs(x.indices);
        return j;
      }
      case ExprKind::Call: {
        const auto& x = static_cast<const CallExpr&>(e);
        json j = node("call", e.range);
        j["callee"] = ident(x.callee);
        j["args"] = exprs(x.args);
        return j;
      }
      case ExprKind::Reduction: {
        const auto& x = static_cast<const ReductionExpr&>(e);
        json j = node("reduction", e.range);
        j["op"] = x.op;
        j["var"] = binder(x.var);
        j["body"] = expr(*x.body);
        return j;
      }
      case ExprKind::Unary: {
        const auto& x = static_cast<const UnaryExpr&>(e);
        json j = node("unary", e.range);
        j["op"] = x.op;
        j["operand"] = expr(*x.operand);
        return j;
      }
      case ExprKind::Binary: {
        const auto& x = static_cast<const BinaryExpr&>(e);
        json j = node("binary", e.range);
        j["op"] = x.op;
        j["lhs"] = expr(*x.lhs);
        j["rhs"] = expr(*x.rhs);
        return j;
      }
      case ExprKind::Compare: {
        const auto& x = static_cast<const CompareExpr&>(e);
        json j = node("compare", e.range);
        j["ops"] = x.ops;
        j["operands"] = exprs(x.operands);
        return j;
      }
      case ExprKind::Abs: {
        json j = node("abs", e.range);
        j["operand"] = expr(*static_cast<const AbsExpr&>(e).operand);
        return j;
      }
      case ExprKind::Paren: {
        json j = node("paren", e.range);
        j["inner"] = expr(*static_cast<const ParenExpr&>(e).inner);
        return j;
      }
      case ExprKind::Quantifier: {
        const auto& x = static_cast<const QuantifierExpr&>(e);
        json j = node(x.isForall ? "forall" : "exists", e.range);
        j["binders"] = array(x.binders, [&](const Binder& b) { return binder(b); });
        j["body"] = expr(*x.body);
        return j;
      }
      case ExprKind::Conditional: {
        const auto& x = static_cast<const ConditionalExpr&>(e);
        json j = node("if", e.range);
        j["cond"] = expr(*x.cond);
        j["then"] = expr(*x.thenExpr);
        j["else"] = expr(*x.elseExpr);
        return j;
      }
    }
    return json();
  }

  json set(const SetExpr& s) {
    static const char* kNames[] = {"literal", "range", "call", "number", "power", "name", "string", "arith", "chain"};
    json j = node("set", s.range);
    j["kind"] = kNames[static_cast<int>(s.kind)];
    if (!s.text.empty()) j["text"] = s.text;
    if (!s.text2.empty()) j["exponent"] = s.text2;
    if (s.negative) j["negative"] = true;
    if (s.percent) j["percent"] = true;
    if (s.bare) j["bare"] = true;
    if (!s.items.empty()) j["items"] = array(s.items, [&](const SetExprPtr& x) { return set(*x); });
    if (s.kind == SetKind::Call) j["arg_names"] = s.argNames;
    if (!s.ops.empty()) j["ops"] = array(s.ops, [](char c) { return std::string(1, c); });
    if (s.arith) j["expr"] = expr(*s.arith);
    return j;
  }

  json target(const Target& t) {
    json j = node("target", t.range);
    j["name"] = t.name;
    return j;
  }

  json domain(const DomainItem& d) {
    json j = node("domain", d.range);
    j["name"] = ident(d.name);
    if (d.isRange) {
      j["lo"] = expr(*d.lo);
      j["hi"] = expr(*d.hi);
    } else {
      j["elements"] = exprs(d.elements);
    }
    return j;
  }

  json signature(const Signature& s) {
    auto param = [&](const Param& p) {
      json j = node("param", p.range);
      j["name"] = ident(p.name);
      j["dtype"] = ident(p.dtype);
      if (p.hasShape) j["dims"] = exprs(p.dims);
      return j;
    };
    json j = node("signature", s.range);
    j["inputs"] = array(s.inputs, param);
    j["outputs"] = array(s.outputs, param);
    return j;
  }

  json item(const Item& item) {
    switch (item.kind) {
      case ItemKind::Import: {
        json j = node("import", item.range);
        j["module"] = qname(static_cast<const ImportDecl&>(item).module);
        return j;
      }
      case ItemKind::Kernel: {
        const auto& k = static_cast<const KernelDecl&>(item);
        json j = node("kernel", item.range);
        j["name"] = ident(k.name);
        j["signature"] = signature(k.signature);
        j["where"] = array(k.where, [&](const DomainItem& d) { return domain(d); });
        if (k.implements) j["implements"] = qname(*k.implements);
        return j;
      }
      case ItemKind::Op: {
        const auto& o = static_cast<const OpDecl&>(item);
        json j = node("op", item.range);
        j["name"] = qname(o.name);
        j["signature"] = signature(o.signature);
        j["where"] = array(o.where, [&](const DomainItem& d) { return domain(d); });
        j["sections"] = array(o.sections, [&](const SectionPtr& s) { return section(*s); });
        return j;
      }
      case ItemKind::Contract:
      case ItemKind::Class: {
        const auto& c = static_cast<const ContractDecl&>(item);
        json j = node(item.kind == ItemKind::Class ? "class" : "contract", item.range);
        j["id"] = contractId(c.id);
        if (c.title) {
          j["title"] = node("string", c.title->range);
          j["title"]["value"] = c.title->value;
        }
        j["applies"] = array(c.applies, [&](const ContractId& a) { return contractId(a); });
        j["sections"] = array(c.sections, [&](const SectionPtr& s) { return section(*s); });
        return j;
      }
    }
    return json();
  }

  json section(const Section& s) {
    json j = node(sectionKeyword(s.kind), s.range);
    switch (s.kind) {
      case SectionKind::Scope:
        j["items"] = array(static_cast<const ScopeSection&>(s).items, [&](const ScopeItem& it) { return scopeItem(it); });
        break;
      case SectionKind::Pre:
      case SectionKind::Post:
        j["stmts"] = exprs(static_cast<const ExprSection&>(s).stmts);
        break;
      case SectionKind::Oracle:
      case SectionKind::Tolerance: {
        const auto& d = static_cast<const DefSection&>(s);
        if (d.precision) {
          j["precision"] = node("precision", d.precision->range);
          j["precision"]["name"] = d.precision->name.name;
          if (d.precision->bits) j["precision"]["bits"] = *d.precision->bits;
        }
        if (d.exact) j["exact"] = true;
        j["defs"] = array(d.defs, [&](const Definition& def) {
          json dj = node("def", def.range);
          dj["name"] = ident(def.name);
          if (def.hasIndices) dj["indices"] = array(def.indices, [&](const Ident& i) { return ident(i); });
          dj["value"] = expr(*def.value);
          return dj;
        });
        break;
      }
      case SectionKind::Protocol:
        j["items"] = array(static_cast<const ProtocolSection&>(s).items, [&](const ProtocolItem& it) {
          json ij = node(protocolKeyword(it.kind), it.range);
          if (it.value) ij["value"] = set(*it.value);
          if (!it.bindings.empty())
            ij["bindings"] = array(it.bindings, [&](const ProtocolBinding& b) {
              json bj = node("binding", b.range);
              bj["target"] = target(b.target);
              bj["set"] = set(*b.set);
              if (it.kind == ProtocolItemKind::Case) bj["relation"] = b.tilde ? "~" : "in";
              return bj;
            });
          return ij;
        });
        break;
      case SectionKind::Signature: {
        const auto& sig = static_cast<const SignatureSection&>(s);
        j["name"] = qname(sig.name);
        j["clauses"] = array(sig.clauses, [&](const SignatureClause& c) { return clause(c); });
        break;
      }
    }
    return j;
  }

  json clause(const SignatureClause& c) {
    static const char* kNames[] = {"fails_when", "fails_only_when", "wrong_cells", "error_grows_with",
                                   "differs_run_to_run", "error_bound"};
    json j = node(kNames[static_cast<int>(c.kind)], c.range);
    if (c.expr) j["expr"] = expr(*c.expr);
    if (c.kind == SignatureClauseKind::ErrorGrows) j["dim"] = ident(c.dim);
    if (!c.cells.empty()) j["cells"] = array(c.cells, [&](const Ident& i) { return ident(i); });
    if (!c.compareOp.empty()) j["op"] = c.compareOp;
    return j;
  }

  json scopeItem(const ScopeItem& it) {
    static const char* kNames[] = {"kernels", "ops", "layouts", "backends", "domains"};
    json j = node(kNames[static_cast<int>(it.kind)], it.range);
    switch (it.kind) {
      case ScopeItemKind::Kernels:
      case ScopeItemKind::Backends:
        j["names"] = array(it.names, [&](const Ident& i) { return ident(i); });
        break;
      case ScopeItemKind::Ops:
        j["ops"] = array(it.ops, [&](const QualifiedName& q) { return qname(q); });
        break;
      case ScopeItemKind::Layouts:
        j["layouts"] = array(it.layouts, [&](const LayoutBinding& b) {
          json bj = node("layout_binding", b.range);
          bj["target"] = target(b.target);
          bj["layouts"] = set(*b.layouts);
          return bj;
        });
        break;
      case ScopeItemKind::Domains:
        j["domains"] = array(it.domains, [&](const DomainItem& d) { return domain(d); });
        break;
    }
    return j;
  }

  bool withRanges_;
};

}  // namespace

nlohmann::json dumpJson(const File& file, bool withRanges) { return JsonDumper(withRanges).file(file); }

}  // namespace kc::ast

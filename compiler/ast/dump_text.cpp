#include <sstream>

#include "compiler/ast/dump.h"
#include "compiler/ast/print_parts.h"
#include "compiler/ast/sexpr.h"

namespace kc::ast {

namespace {

// toSExpr for one kind each (print_parts.h takes printers as functions).
std::string exprSExpr(const Expr& e) { return toSExpr(e); }
std::string setSExpr(const SetExpr& s) { return toSExpr(s); }

class TextDumper {
 public:
  explicit TextDumper(bool withRanges) : withRanges_(withRanges) {}

  std::string run(const File& f) {
    line(0, "file version=" + std::to_string(f.version), f.range);
    for (const auto& item : f.items) dumpItem(*item);
    for (const auto& c : f.comments) line(1, "comment " + c.text, c.range);
    return out_.str();
  }

 private:
  void line(int depth, const std::string& text, const SourceRange& r) {
    out_ << std::string(depth * 2, ' ') << text;
    if (withRanges_) out_ << " @" << r.str();
    out_ << "\n";
  }

  static std::string domainText(const DomainItem& d) {
    if (d.isRange) return d.name.name + " in (range " + toSExpr(*d.lo) + " " + toSExpr(*d.hi) + ")";
    std::string s = d.name.name + " in (set";
    for (const auto& e : d.elements) s += " " + toSExpr(*e);
    return s + ")";
  }

  void dumpSignature(int depth, const Signature& sig) {
    auto param = [&](const char* dir, const Param& p) {
      std::string s = std::string(dir) + " " + p.name.name + ": " + p.dtype.name;
      if (p.hasShape) {
        s += "[";
        for (size_t i = 0; i < p.dims.size(); ++i) s += (i ? " " : "") + toSExpr(*p.dims[i]);
        s += "]";
      }
      line(depth, s, p.range);
    };
    for (const auto& p : sig.inputs) param("in", p);
    for (const auto& p : sig.outputs) param("out", p);
  }

  void dumpItem(const Item& item) {
    line(1, itemHead(item), item.range);
    switch (item.kind) {
      case ItemKind::Import: break;
      case ItemKind::Kernel: {
        const auto& k = static_cast<const KernelDecl&>(item);
        dumpSignature(2, k.signature);
        for (const auto& d : k.where) line(2, "where " + domainText(d), d.range);
        if (k.implements) line(2, "implements " + k.implements->text, k.implements->range);
        break;
      }
      case ItemKind::Op: {
        const auto& o = static_cast<const OpDecl&>(item);
        dumpSignature(2, o.signature);
        for (const auto& d : o.where) line(2, "where " + domainText(d), d.range);
        for (const auto& s : o.sections) dumpSection(2, *s);
        break;
      }
      case ItemKind::Contract:
      case ItemKind::Class: {
        const auto& c = static_cast<const ContractDecl&>(item);
        for (const auto& a : c.applies) line(2, "applies " + a.str(), a.range);
        for (const auto& s : c.sections) dumpSection(2, *s);
        break;
      }
    }
  }

  void dumpSection(int depth, const Section& s) {
    switch (s.kind) {
      case SectionKind::Scope: {
        line(depth, "scope", s.range);
        for (const auto& it : static_cast<const ScopeSection&>(s).items) dumpScopeItem(depth + 1, it);
        break;
      }
      case SectionKind::Pre:
      case SectionKind::Post: {
        line(depth, sectionKeyword(s.kind), s.range);
        for (const auto& e : static_cast<const ExprSection&>(s).stmts) line(depth + 1, toSExpr(*e), e->range);
        break;
      }
      case SectionKind::Oracle:
      case SectionKind::Tolerance: {
        const auto& d = static_cast<const DefSection&>(s);
        std::string head = sectionKeyword(s.kind);
        if (d.precision) head += " " + precisionText(*d.precision);
        if (d.exact) head += " exact";
        line(depth, head, s.range);
        for (const auto& def : d.defs)
          line(depth + 1, "def " + definitionLhs(def, Spelling::Tree) + " = " + toSExpr(*def.value), def.range);
        break;
      }
      case SectionKind::Protocol: {
        line(depth, "protocol", s.range);
        for (const auto& it : static_cast<const ProtocolSection&>(s).items) {
          std::string text = protocolKeyword(it.kind);
          if (it.value) text += " " + toSExpr(*it.value);
          for (const auto& b : it.bindings) text += " [" + bindingText(it, b, setSExpr) + "]";
          line(depth + 1, text, it.range);
        }
        break;
      }
      case SectionKind::Signature: {
        const auto& sig = static_cast<const SignatureSection&>(s);
        line(depth, "signature " + sig.name.text, s.range);
        for (const auto& c : sig.clauses) line(depth + 1, clauseText(c, Spelling::Tree, exprSExpr), c.range);
        break;
      }
    }
  }


  void dumpScopeItem(int depth, const ScopeItem& it) {
    std::string text;
    switch (it.kind) {
      case ScopeItemKind::Kernels:
      case ScopeItemKind::Backends:
        text = it.kind == ScopeItemKind::Kernels ? "kernel" : "backend";
        for (const auto& n : it.names) text += " " + n.name;
        break;
      case ScopeItemKind::Ops:
        text = "op";
        for (const auto& n : it.ops) text += " " + n.text;
        break;
      case ScopeItemKind::Layouts:
        text = "layout";
        for (const auto& b : it.layouts) text += " [" + b.target.name + ": " + toSExpr(*b.layouts) + "]";
        break;
      case ScopeItemKind::Domains:
        text = "where";
        for (const auto& d : it.domains) text += " [" + domainText(d) + "]";
        break;
    }
    line(depth, text, it.range);
  }

  bool withRanges_;
  std::ostringstream out_;
};

}  // namespace

std::string dumpText(const File& file, bool withRanges) { return TextDumper(withRanges).run(file); }

}  // namespace kc::ast

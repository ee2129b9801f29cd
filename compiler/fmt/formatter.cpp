#include "compiler/fmt/formatter.h"

#include <regex>

#include "compiler/ast/print_parts.h"
#include "compiler/fmt/print_expr.h"

namespace kc::fmt {

namespace {

using namespace ast;

// Walks the AST in source order, printing one canonical line per statement and placing
// every comment exactly once: own-line comments before the statement they precede (or that
// they sat inside), end-of-line comments after the line they ended.
class Formatter {
 public:
  Formatter(const File& file, const SourceFile& source) : file_(file), text_(source.text()) {}

  std::string run() {
    emitLine(0, "kcontract " + std::to_string(file_.version), file_.headerRange);
    const Item* prev = nullptr;
    for (const auto& item : file_.items) {
      bool importRun = prev && prev->kind == ItemKind::Import && item->kind == ItemKind::Import;
      if (!importRun || blankBetween(prev->range.end.offset, firstOffset(item->range))) blankLine();
      printItem(*item);
      prev = item.get();
    }
    // Comments after the last item.
    if (next_ < file_.comments.size()) blankLine();
    while (next_ < file_.comments.size()) emitComment(0, file_.comments[next_++]);
    return out_;
  }

 private:
  static std::string indent(int depth) { return std::string(depth * 2, ' '); }

  void blankLine() {
    if (!out_.empty() && out_.compare(out_.size() > 1 ? out_.size() - 2 : 0, 2, "\n\n") != 0) out_ += "\n";
  }

  // Is there an empty line in the source between two offsets?
  bool blankBetween(uint32_t from, uint32_t to) const {
    if (to <= from || to > text_.size()) return false;
    static const std::regex blank("\n[ \t\r]*\n");
    return std::regex_search(text_.begin() + from, text_.begin() + to, blank);
  }

  // Where a node's leading material starts: the first pending comment before it, or itself.
  uint32_t firstOffset(const SourceRange& r) const {
    if (next_ < file_.comments.size() && file_.comments[next_].range.begin.offset < r.begin.offset)
      return file_.comments[next_].range.begin.offset;
    return r.begin.offset;
  }

  void emitComment(int depth, const Comment& c) { out_ += indent(depth) + c.text + "\n"; }

  // Own-line comments that start before `limit`.
  void leadingComments(int depth, uint32_t limit) {
    while (next_ < file_.comments.size() && file_.comments[next_].range.begin.offset < limit)
      emitComment(depth, file_.comments[next_++]);
  }

  // An end-of-line comment right after `end` (only spaces or ';' between them).
  void trailingComment(uint32_t end) {
    if (next_ >= file_.comments.size()) return;
    const Comment& c = file_.comments[next_];
    if (c.range.begin.offset < end) return;
    for (uint32_t i = end; i < c.range.begin.offset; ++i)
      if (text_[i] != ' ' && text_[i] != '\t' && text_[i] != ';') return;
    out_ += " " + c.text;
    ++next_;
  }

  // A statement: comments before or inside it, the line, then an end-of-line comment.
  void emitLine(int depth, const std::string& line, const SourceRange& r) {
    leadingComments(depth, r.end.offset);
    out_ += indent(depth) + line;
    trailingComment(r.end.offset);
    out_ += "\n";
  }

  // A header line ending in '{': comments before the brace lead; one after it trails.
  void openBlock(int depth, const std::string& header, const SourceRange& body) {
    leadingComments(depth, body.begin.offset);
    out_ += indent(depth) + header + " {";
    trailingComment(body.begin.offset + 1);
    out_ += "\n";
  }

  void closeBlock(int depth, const SourceRange& body) {
    leadingComments(depth + 1, body.end.offset);
    out_ += indent(depth) + "}";
    trailingComment(body.end.offset);
    out_ += "\n";
  }

  // A block body is empty when it has no statements and no comments inside.
  bool emptyBody(const SourceRange& body, bool noStatements) const {
    if (!noStatements) return false;
    if (next_ >= file_.comments.size()) return true;
    uint32_t at = file_.comments[next_].range.begin.offset;
    return !(at > body.begin.offset && at < body.end.offset);
  }

  template <class T, class Print>
  void statements(int depth, const std::vector<T>& items, uint32_t blockStart, Print print) {
    uint32_t prevEnd = blockStart;
    for (const auto& it : items) {
      const SourceRange& r = rangeOf(it);
      if (prevEnd != blockStart && blankBetween(prevEnd, firstOffset(r))) blankLine();
      print(it);
      prevEnd = r.end.offset;
    }
  }

  static const SourceRange& rangeOf(const ExprPtr& e) { return e->range; }
  static const SourceRange& rangeOf(const SectionPtr& s) { return s->range; }
  template <class T>
  static const SourceRange& rangeOf(const T& t) { return t.range; }

  void printItem(const Item& item) {
    switch (item.kind) {
      case ItemKind::Import:
        emitLine(0, itemHead(item), item.range);
        break;
      case ItemKind::Kernel: {
        const auto& k = static_cast<const KernelDecl&>(item);
        std::string head = itemHead(item) + signature(k.signature);
        emitLine(0, head, k.where.empty() && !k.implements ? k.range : k.signature.range);
        if (!k.where.empty()) emitLine(1, whereText(k.where), SourceRange::span(k.where.front().range, k.where.back().range));
        if (k.implements) emitLine(1, "implements " + k.implements->text, k.implements->range);
        break;
      }
      case ItemKind::Op: {
        const auto& o = static_cast<const OpDecl&>(item);
        std::string head = itemHead(item) + signature(o.signature);
        if (o.where.empty()) {
          sectionsBlock(0, head, o.sections, o.bodyRange);
        } else {
          emitLine(0, head, o.signature.range);
          sectionsBlock(1, whereText(o.where), o.sections, o.bodyRange, 0);
        }
        break;
      }
      case ItemKind::Contract:
      case ItemKind::Class: {
        const auto& c = static_cast<const ContractDecl&>(item);
        std::string head = itemHead(item);
        if (c.applies.empty()) {
          sectionsBlock(0, head, c.sections, c.bodyRange);
        } else {
          emitLine(0, head, c.title ? c.title->range : c.id.range);
          std::string applies = "applies ";
          for (size_t i = 0; i < c.applies.size(); ++i) applies += (i ? ", " : "") + c.applies[i].str();
          sectionsBlock(1, applies, c.sections, c.bodyRange, 0);
        }
        break;
      }
    }
  }

  // `header {` sections `}` — the header at `headerDepth`, sections and `}` at `depth`.
  void sectionsBlock(int headerDepth, const std::string& header, const std::vector<SectionPtr>& sections,
                     const SourceRange& body, int depth = -1) {
    if (depth < 0) depth = headerDepth;
    if (emptyBody(body, sections.empty())) {
      emitLine(headerDepth, header + " {}", body);
      return;
    }
    openBlock(headerDepth, header, body);
    statements(depth + 1, sections, body.begin.offset, [&](const SectionPtr& s) { printSection(depth + 1, *s); });
    closeBlock(depth, body);
  }

  static std::string signature(const Signature& sig) {
    auto list = [](const std::vector<Param>& ps) {
      std::string s;
      for (size_t i = 0; i < ps.size(); ++i) s += (i ? ", " : "") + printParam(ps[i]);
      return s;
    };
    return "(" + list(sig.inputs) + ") -> (" + list(sig.outputs) + ")";
  }

  static std::string whereText(const std::vector<DomainItem>& items) {
    std::string s = "where ";
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + printDomain(items[i]);
    return s;
  }

  std::string sectionHeader(const Section& s) {
    std::string head = sectionKeyword(s.kind);
    if (s.kind == SectionKind::Oracle) {
      const auto& d = static_cast<const DefSection&>(s);
      if (d.precision) head += " " + precisionText(*d.precision);
    }
    if (s.kind == SectionKind::Signature) head += " " + static_cast<const SignatureSection&>(s).name.text;
    return head;
  }

  template <class T, class Print>
  void section(int depth, const Section& s, const std::vector<T>& items, Print print) {
    std::string head = sectionHeader(s);
    if (emptyBody(s.bodyRange, items.empty())) {
      emitLine(depth, head + " {}", s.range);
      return;
    }
    openBlock(depth, head, s.bodyRange);
    statements(depth + 1, items, s.bodyRange.begin.offset, [&](const T& it) { emitLine(depth + 1, print(it), rangeOf(it)); });
    closeBlock(depth, s.bodyRange);
  }

  void printSection(int depth, const Section& s) {
    switch (s.kind) {
      case SectionKind::Scope:
        section(depth, s, static_cast<const ScopeSection&>(s).items, [](const ScopeItem& it) { return scopeItem(it); });
        break;
      case SectionKind::Pre:
      case SectionKind::Post:
        section(depth, s, static_cast<const ExprSection&>(s).stmts, [](const ExprPtr& e) { return printExpr(*e); });
        break;
      case SectionKind::Oracle:
      case SectionKind::Tolerance:
        if (static_cast<const DefSection&>(s).exact) {
          emitLine(depth, "tolerance exact", s.range);
          break;
        }
        section(depth, s, static_cast<const DefSection&>(s).defs, [](const Definition& d) { return definition(d); });
        break;
      case SectionKind::Protocol:
        section(depth, s, static_cast<const ProtocolSection&>(s).items,
                [](const ProtocolItem& it) { return protocolItem(it); });
        break;
      case SectionKind::Signature:
        section(depth, s, static_cast<const SignatureSection&>(s).clauses,
                [](const SignatureClause& c) { return clause(c); });
        break;
    }
  }

  static std::string scopeItem(const ScopeItem& it) {
    std::string s;
    auto names = [&](const char* kw, const std::vector<Ident>& ids) {
      s = kw;
      for (size_t i = 0; i < ids.size(); ++i) s += std::string(i ? ", " : " ") + ids[i].name;
    };
    switch (it.kind) {
      case ScopeItemKind::Kernels: names("kernel", it.names); break;
      case ScopeItemKind::Backends: names("backend", it.names); break;
      case ScopeItemKind::Ops:
        s = "op";
        for (size_t i = 0; i < it.ops.size(); ++i) s += std::string(i ? ", " : " ") + it.ops[i].text;
        break;
      case ScopeItemKind::Layouts:
        s = "layout";
        for (size_t i = 0; i < it.layouts.size(); ++i)
          s += std::string(i ? ", " : " ") + it.layouts[i].target.name + ": " + printSet(*it.layouts[i].layouts);
        break;
      case ScopeItemKind::Domains: s = whereText(it.domains); break;
    }
    return s;
  }

  static std::string definition(const Definition& d) {
    return definitionLhs(d, Spelling::Source) + " = " + printExpr(*d.value);
  }

  static std::string protocolItem(const ProtocolItem& it) {
    std::string s = protocolKeyword(it.kind);
    if (it.value) return s + " " + printSet(*it.value);
    for (size_t i = 0; i < it.bindings.size(); ++i) s += std::string(i ? ", " : " ") + bindingText(it, it.bindings[i], printSet);
    return s;
  }

  static std::string clause(const SignatureClause& c) { return clauseText(c, Spelling::Source, printExpr); }

  const File& file_;
  const std::string& text_;
  size_t next_ = 0;  // next comment to place
  std::string out_;
};

}  // namespace

std::string format(const ast::File& file, const SourceFile& source) { return Formatter(file, source).run(); }

}  // namespace kc::fmt

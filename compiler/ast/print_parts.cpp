#include "compiler/ast/print_parts.h"

namespace kc::ast {

std::string itemHead(const Item& item) {
  switch (item.kind) {
    case ItemKind::Import: return "import " + static_cast<const ImportDecl&>(item).module.text;
    case ItemKind::Kernel: return "kernel " + static_cast<const KernelDecl&>(item).name.name;
    case ItemKind::Op: return "op " + static_cast<const OpDecl&>(item).name.text;
    case ItemKind::Contract:
    case ItemKind::Class: {
      const auto& c = static_cast<const ContractDecl&>(item);
      std::string head = std::string(item.kind == ItemKind::Class ? "class " : "contract ") + c.id.str();
      if (c.title) head += " \"" + c.title->value + "\"";
      return head;
    }
  }
  return "";
}

std::optional<std::string> leafText(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Number: return static_cast<const NumberExpr&>(e).text;
    case ExprKind::Name: return static_cast<const NameExpr&>(e).name;
    case ExprKind::Ref: return static_cast<const RefExpr&>(e).name + "*";
    default: return std::nullopt;
  }
}

std::string clauseText(const SignatureClause& c, Spelling spelling, const ExprText& expr) {
  const bool tree = spelling == Spelling::Tree;
  auto words = [&](const char* source, const char* dumped) { return std::string(tree ? dumped : source); };
  switch (c.kind) {
    case SignatureClauseKind::FailsWhen: return words("fails when ", "fails-when ") + expr(*c.expr);
    case SignatureClauseKind::FailsOnlyWhen: return words("fails only when ", "fails-only-when ") + expr(*c.expr);
    case SignatureClauseKind::WrongCells: {
      std::string names;
      for (size_t i = 0; i < c.cells.size(); ++i) names += (i ? (tree ? " " : ", ") : "") + c.cells[i].name;
      if (c.cells.empty()) return words("wrong cells: ", "wrong-cells ") + expr(*c.expr);
      return (tree ? "wrong-cells [" + names + "] " : "wrong cells [" + names + "]: ") + expr(*c.expr);
    }
    case SignatureClauseKind::ErrorGrows: return words("error grows with ", "error-grows-with ") + c.dim.name;
    case SignatureClauseKind::DiffersRunToRun: return words("differs run to run", "differs-run-to-run");
    case SignatureClauseKind::ErrorBound: return "error " + c.compareOp + " " + expr(*c.expr);
  }
  return tree ? "?" : "";
}

std::string definitionLhs(const Definition& d, Spelling spelling) {
  std::string s = d.name.name;
  if (d.hasIndices) {
    const char* separator = spelling == Spelling::Tree ? " " : ", ";
    s += "[";
    for (size_t i = 0; i < d.indices.size(); ++i) s += (i ? separator : "") + d.indices[i].name;
    s += "]";
  }
  return s;
}

std::string precisionText(const Precision& p) {
  std::string s = p.name.name;
  if (p.bits) s += "(" + std::to_string(*p.bits) + ")";
  return s;
}

std::string bindingText(const ProtocolItem& item, const ProtocolBinding& b, const SetText& set) {
  const char* rel = item.kind == ProtocolItemKind::Values || b.tilde ? " ~ " : " in ";
  return b.target.name + rel + set(*b.set);
}

}  // namespace kc::ast

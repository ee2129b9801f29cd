#pragma once
// Converts ANTLR parse contexts into the project's AST (Kuzu's Transformer). Internal to the
// parse step: nothing it includes escapes compiler/parse. It also reports the located errors
// a grammar cannot express: whitespace inside names, numbers out of range, the version.
#include "KContractParser.h"
#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/parse/locator.h"

namespace kc::parse {

class Transformer {
 public:
  Transformer(const Locator& locator, DiagnosticEngine& diags) : loc_(locator), diags_(diags) {}

  std::unique_ptr<ast::File> file(KContractParser::FileContext* ctx);

 private:
  using P = KContractParser;

  // declarations (transformer.cpp)
  ast::ItemPtr item(P::ItemContext* ctx);
  ast::ItemPtr kernel(P::KernelDeclContext* ctx);
  ast::ItemPtr op(P::OpDeclContext* ctx);
  ast::ItemPtr contract(P::ContractDeclContext* ctx);
  ast::ItemPtr contractClass(P::ClassDeclContext* ctx);
  ast::Signature signature(P::SignatureContext* ctx);
  ast::Param param(P::ParamContext* ctx);
  std::vector<ast::DomainItem> where(P::WhereClauseContext* ctx);
  ast::DomainItem domainItem(P::DomainItemContext* ctx);
  std::vector<ast::SectionPtr> block(P::BlockContext* ctx);
  ast::SectionPtr section(P::SectionContext* ctx);
  ast::ScopeItem scopeItem(P::ScopeItemContext* ctx);
  ast::ProtocolItem protocolItem(P::ProtocolItemContext* ctx);
  ast::SignatureClause signatureClause(P::SignatureClauseContext* ctx);
  ast::Definition definition(P::DefinitionContext* ctx);
  void warnIfEmpty(const ast::Section& section, bool empty);

  // names and literals
  ast::Ident ident(P::IdentContext* ctx);
  ast::QualifiedName qualifiedName(P::QualifiedNameContext* ctx);
  ast::ContractId contractId(P::ContractIdContext* ctx);
  ast::StringLit string(antlr4::tree::TerminalNode* node);
  ast::Target target(P::TargetContext* ctx);
  int smallInt(antlr4::tree::TerminalNode* node, const char* what);
  void requireTouching(antlr4::ParserRuleContext* ctx, const std::string& text, const char* what);

  // expressions (transformer_expr.cpp)
  ast::ExprPtr expr(P::ExprContext* ctx);
  ast::ExprPtr quantifier(P::QuantifierContext* ctx);
  ast::ExprPtr implication(P::ImplicationContext* ctx);
  ast::ExprPtr binaryChain(antlr4::ParserRuleContext* ctx);
  ast::ExprPtr operand(antlr4::tree::ParseTree* tree);
  ast::ExprPtr comparison(P::ComparisonContext* ctx);
  ast::ExprPtr unary(P::UnaryContext* ctx);
  ast::ExprPtr power(P::PowerContext* ctx);
  ast::ExprPtr postfix(P::PostfixContext* ctx);
  ast::ExprPtr primary(P::PrimaryContext* ctx);
  ast::ExprPtr number(P::NumberContext* ctx);
  ast::Binder binder(P::BinderContext* ctx);
  ast::SetExprPtr setExpr(P::SetExprContext* ctx);
  ast::SetExprPtr setTerm(P::SetTermContext* ctx);
  ast::SetExprPtr setAtom(P::SetAtomContext* ctx);

  const Locator& loc_;
  DiagnosticEngine& diags_;
};

}  // namespace kc::parse

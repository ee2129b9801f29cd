#include "compiler/parse/transformer.h"

#include <algorithm>

namespace kc::parse {

namespace {

constexpr int kLanguageVersion = 1;

template <class T>
std::unique_ptr<T> withRange(std::unique_ptr<T> node, SourceRange r) {
  node->range = r;
  return node;
}

}  // namespace

// --- names and literals ---------------------------------------------------------------------

// The text of a context, as RuleContext::getText() gives it (its tokens on the default
// channel, concatenated) without that function's stringstream.
std::string Transformer::text(antlr4::ParserRuleContext* ctx) const {
  const antlr4::Token* start = ctx->getStart();
  const antlr4::Token* stop = ctx->getStop();
  if (start == stop) return start->getText();
  std::string s;
  if (!stop || stop->getTokenIndex() < start->getTokenIndex()) return s;
  for (size_t i = start->getTokenIndex(); i <= stop->getTokenIndex(); ++i) {
    const antlr4::Token* t = tokens_.get(i);
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL) s += t->getText();
  }
  return s;
}

// ident is one token.
ast::Ident Transformer::ident(P::IdentContext* ctx) { return ast::Ident{ctx->getStart()->getText(), loc_.range(ctx)}; }

void Transformer::requireTouching(antlr4::ParserRuleContext* ctx, const std::string& text, const char* what) {
  // Any gap between consecutive parts is whitespace or a comment inside the name.
  const antlr4::Token* prev = nullptr;
  for (auto* child : ctx->children) {
    bool leaf = children::isToken(child);
    auto* rule = leaf ? nullptr : static_cast<antlr4::ParserRuleContext*>(child);
    const antlr4::Token* first = leaf ? children::symbol(child) : rule->getStart();
    const antlr4::Token* last = leaf ? children::symbol(child) : rule->getStop();
    if (!first) continue;
    if (prev && first->getStartIndex() != prev->getStopIndex() + 1) {
      diags_.report(DiagCode::SpaceInName, loc_.range(ctx),
                    std::string("the parts of ") + what + " '" + text + "' must touch: remove the spaces between them");
      return;
    }
    prev = last;
  }
}

ast::QualifiedName Transformer::qualifiedName(P::QualifiedNameContext* ctx) {
  std::string text = this->text(ctx);
  requireTouching(ctx, text, "the name");
  return ast::QualifiedName{text, loc_.range(ctx)};
}

// contractId : qualifiedName '@' INT
ast::ContractId Transformer::contractId(P::ContractIdContext* ctx) {
  ast::ContractId id;
  id.name = qualifiedName(static_cast<P::QualifiedNameContext*>(ctx->children[0]));
  id.version = smallInt(children::symbol(ctx->children[2]), "a contract version");
  id.range = loc_.range(ctx);
  requireTouching(ctx, text(ctx), "the contract identifier");
  return id;
}

ast::StringLit Transformer::string(antlr4::Token* token) {
  std::string text = token->getText();
  return ast::StringLit{text.substr(1, text.size() - 2), loc_.range(token)};
}

// target is one token: a name or `*`.
ast::Target Transformer::target(P::TargetContext* ctx) { return ast::Target{ctx->getStart()->getText(), loc_.range(ctx)}; }

int Transformer::smallInt(antlr4::Token* token, const char* what) {
  const std::string text = token->getText();
  try {
    // Decimal unless written 0x...: a leading zero is not octal here.
    bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    size_t used = 0;
    unsigned long long v = std::stoull(text, &used, hex ? 16 : 10);
    if (used == text.size() && v <= 1000000000ULL) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  diags_.report(DiagCode::BadNumber, loc_.range(token), std::string(what) + " must be at most 1000000000; found " + text);
  return 0;
}

// --- file and items ----------------------------------------------------------------------------

std::unique_ptr<ast::File> Transformer::file(P::FileContext* ctx) {
  auto f = std::make_unique<ast::File>();
  f->range = loc_.range(ctx);
  auto* header = children::rule<P::HeaderContext>(ctx, P::RuleHeader);  // 'kcontract' INT
  antlr4::Token* version = children::symbol(header->children[1]);
  f->headerRange = loc_.range(header);
  f->version = smallInt(version, "the language version");
  if (f->version != kLanguageVersion)
    diags_.report(DiagCode::UnsupportedVersion, loc_.range(version),
                  "unsupported language version " + version->getText() + "; this kcontract reads version " +
                      std::to_string(kLanguageVersion));
  std::vector<std::string> imported;
  for (auto* itemCtx : children::rules<P::ItemContext>(ctx, P::RuleItem)) {
    ast::ItemPtr item = this->item(itemCtx);
    if (item->kind == ast::ItemKind::Import) {
      const auto& imp = static_cast<const ast::ImportDecl&>(*item);
      if (std::count(imported.begin(), imported.end(), imp.module.text))
        diags_.report(DiagCode::DuplicateImport, imp.range, "module '" + imp.module.text + "' is already imported");
      imported.push_back(imp.module.text);
    }
    f->items.push_back(std::move(item));
  }
  return f;
}

// item : importDecl | kernelDecl | opDecl | contractDecl | classDecl (one child)
ast::ItemPtr Transformer::item(P::ItemContext* ctx) {
  auto* c = static_cast<antlr4::ParserRuleContext*>(ctx->children[0]);
  switch (c->getRuleIndex()) {
    case P::RuleImportDecl: {  // 'import' qualifiedName
      auto imp = std::make_unique<ast::ImportDecl>();
      imp->module = qualifiedName(static_cast<P::QualifiedNameContext*>(c->children[1]));
      return withRange(std::move(imp), loc_.range(c));
    }
    case P::RuleKernelDecl: return kernel(static_cast<P::KernelDeclContext*>(c));
    case P::RuleOpDecl: return op(static_cast<P::OpDeclContext*>(c));
    case P::RuleContractDecl: return contract(static_cast<P::ContractDeclContext*>(c));
    default: return contractClass(static_cast<P::ClassDeclContext*>(c));
  }
}

ast::ItemPtr Transformer::kernel(P::KernelDeclContext* ctx) {
  auto k = std::make_unique<ast::KernelDecl>();
  k->name = ident(children::rule<P::IdentContext>(ctx, P::RuleIdent));
  k->signature = signature(children::rule<P::SignatureContext>(ctx, P::RuleSignature));
  if (auto* w = children::rule<P::WhereClauseContext>(ctx, P::RuleWhereClause)) k->where = where(w);
  if (auto* q = children::rule<P::QualifiedNameContext>(ctx, P::RuleQualifiedName)) k->implements = qualifiedName(q);
  return withRange(std::move(k), loc_.range(ctx));
}

ast::ItemPtr Transformer::op(P::OpDeclContext* ctx) {
  auto o = std::make_unique<ast::OpDecl>();
  o->name = qualifiedName(children::rule<P::QualifiedNameContext>(ctx, P::RuleQualifiedName));
  o->signature = signature(children::rule<P::SignatureContext>(ctx, P::RuleSignature));
  if (auto* w = children::rule<P::WhereClauseContext>(ctx, P::RuleWhereClause)) o->where = where(w);
  auto* body = children::rule<P::BlockContext>(ctx, P::RuleBlock);
  o->sections = block(body);
  o->bodyRange = loc_.range(body);
  return withRange(std::move(o), loc_.range(ctx));
}

ast::ItemPtr Transformer::contract(P::ContractDeclContext* ctx) {
  auto c = std::make_unique<ast::ContractDecl>(false);
  auto ids = children::rules<P::ContractIdContext>(ctx, P::RuleContractId);
  c->id = contractId(ids[0]);
  if (antlr4::Token* title = children::token(ctx, P::STRING)) c->title = string(title);
  for (size_t i = 1; i < ids.size(); ++i) c->applies.push_back(contractId(ids[i]));
  auto* body = children::rule<P::BlockContext>(ctx, P::RuleBlock);
  c->sections = block(body);
  c->bodyRange = loc_.range(body);
  return withRange(std::move(c), loc_.range(ctx));
}

ast::ItemPtr Transformer::contractClass(P::ClassDeclContext* ctx) {
  auto c = std::make_unique<ast::ContractDecl>(true);
  c->id = contractId(children::rule<P::ContractIdContext>(ctx, P::RuleContractId));
  if (antlr4::Token* title = children::token(ctx, P::STRING)) c->title = string(title);
  auto* body = children::rule<P::BlockContext>(ctx, P::RuleBlock);
  c->sections = block(body);
  c->bodyRange = loc_.range(body);
  return withRange(std::move(c), loc_.range(ctx));
}

// signature : '(' paramList? ')' '->' '(' paramList? ')'
ast::Signature Transformer::signature(P::SignatureContext* ctx) {
  ast::Signature sig;
  sig.range = loc_.range(ctx);
  // Two optional lists: tell inputs from outputs by their position around '->'.
  size_t arrow = children::token(ctx, P::ARROW)->getTokenIndex();
  for (auto* list : children::rules<P::ParamListContext>(ctx, P::RuleParamList)) {
    auto& into = list->getStart()->getTokenIndex() < arrow ? sig.inputs : sig.outputs;
    for (auto* p : children::rules<P::ParamContext>(list, P::RuleParam)) into.push_back(param(p));
  }
  return sig;
}

// param : ident ':' ident ('[' (expr (',' expr)*)? ']')?
ast::Param Transformer::param(P::ParamContext* ctx) {
  ast::Param p;
  p.name = ident(static_cast<P::IdentContext*>(ctx->children[0]));
  p.dtype = ident(static_cast<P::IdentContext*>(ctx->children[2]));
  p.hasShape = ctx->children.size() > 3;
  for (auto* e : children::rules<P::ExprContext>(ctx, P::RuleExpr)) p.dims.push_back(expr(e));
  p.range = loc_.range(ctx);
  return p;
}

std::vector<ast::DomainItem> Transformer::where(P::WhereClauseContext* ctx) {
  std::vector<ast::DomainItem> items;
  for (auto* d : children::rules<P::DomainItemContext>(ctx, P::RuleDomainItem)) items.push_back(domainItem(d));
  return items;
}

// domainItem : ident 'in' domain;  domain : expr '..' expr  |  '{' (expr (',' expr)*)? '}'
ast::DomainItem Transformer::domainItem(P::DomainItemContext* ctx) {
  ast::DomainItem d;
  d.name = ident(static_cast<P::IdentContext*>(ctx->children[0]));
  d.range = loc_.range(ctx);
  auto* domain = static_cast<P::DomainContext*>(ctx->children[2]);
  auto exprs = children::rules<P::ExprContext>(domain, P::RuleExpr);
  if (domain->getStart()->getType() != P::LBRACE) {
    d.isRange = true;
    d.lo = expr(exprs[0]);
    d.hi = expr(exprs[1]);
  } else {
    for (auto* e : exprs) d.elements.push_back(expr(e));
  }
  return d;
}

// --- sections ----------------------------------------------------------------------------------

std::vector<ast::SectionPtr> Transformer::block(P::BlockContext* ctx) {
  std::vector<ast::SectionPtr> sections;
  for (auto* s : children::rules<P::SectionContext>(ctx, P::RuleSection)) sections.push_back(section(s));
  return sections;
}

void Transformer::warnIfEmpty(const ast::Section& section, bool empty) {
  if (empty)
    diags_.report(DiagCode::EmptyBlock, section.range,
                  std::string("the '") + ast::sectionKeyword(section.kind) + "' section is empty");
}

// `tolerance exact`: the section `tolerance { tol = 0 }`, written in one word. Any other word
// after `tolerance` is an error.
ast::SectionPtr Transformer::exactTolerance(P::IdentContext* word) {
  auto s = std::make_unique<ast::DefSection>(ast::SectionKind::Tolerance);
  ast::Ident name = ident(word);
  if (name.name != "exact") {
    diags_.report(DiagCode::UnexpectedToken, name.range,
                  "expected '{' or 'exact' after 'tolerance', found '" + name.name + "'");
    return s;
  }
  s->exact = true;
  ast::Definition tol;
  tol.name = ast::Ident{"tol", name.range};
  auto zero = std::make_unique<ast::NumberExpr>();
  zero->text = "0";
  zero->range = name.range;
  tol.value = std::move(zero);
  tol.range = name.range;
  s->defs.push_back(std::move(tol));
  return s;
}

// The sections are told apart by their keyword (an unknown section is an error, never here).
ast::SectionPtr Transformer::section(P::SectionContext* ctx) {
  ast::SectionPtr out;
  auto statements = [&](ast::SectionKind kind) {  // KW exprBlock
    auto s = std::make_unique<ast::ExprSection>(kind);
    auto* body = children::rule<P::ExprBlockContext>(ctx, P::RuleExprBlock);
    for (auto* e : children::rules<P::ExprContext>(body, P::RuleExpr)) s->stmts.push_back(expr(e));
    return s;
  };
  auto definitions = [&](ast::SectionKind kind) {  // KW precision? NL? defBlock
    auto s = std::make_unique<ast::DefSection>(kind);
    auto* body = children::rule<P::DefBlockContext>(ctx, P::RuleDefBlock);
    for (auto* d : children::rules<P::DefinitionContext>(body, P::RuleDefinition)) s->defs.push_back(definition(d));
    return s;
  };
  switch (ctx->getStart()->getType()) {
    case P::KW_SCOPE: {
      auto s = std::make_unique<ast::ScopeSection>();
      for (auto* it : children::rules<P::ScopeItemContext>(ctx, P::RuleScopeItem)) s->items.push_back(scopeItem(it));
      out = std::move(s);
      break;
    }
    case P::KW_PRE: out = statements(ast::SectionKind::Pre); break;
    case P::KW_POST: out = statements(ast::SectionKind::Post); break;
    case P::KW_ORACLE: {
      std::optional<ast::Precision> precision;
      if (auto* p = children::rule<P::PrecisionContext>(ctx, P::RulePrecision)) {  // ident ('(' INT ')')?
        ast::Precision prec{ident(static_cast<P::IdentContext*>(p->children[0])), std::nullopt, loc_.range(p)};
        if (p->children.size() > 1) prec.bits = smallInt(children::symbol(p->children[2]), "a precision in bits");
        precision = prec;
      }
      auto s = definitions(ast::SectionKind::Oracle);
      if (precision) s->precision = *precision;
      out = std::move(s);
      break;
    }
    case P::KW_TOLERANCE: {
      auto* word = children::rule<P::IdentContext>(ctx, P::RuleIdent);
      out = word ? exactTolerance(word) : definitions(ast::SectionKind::Tolerance);
      break;
    }
    case P::KW_PROTOCOL: {
      auto s = std::make_unique<ast::ProtocolSection>();
      for (auto* it : children::rules<P::ProtocolItemContext>(ctx, P::RuleProtocolItem)) s->items.push_back(protocolItem(it));
      out = std::move(s);
      break;
    }
    default: {  // signature
      auto s = std::make_unique<ast::SignatureSection>();
      s->name = qualifiedName(children::rule<P::QualifiedNameContext>(ctx, P::RuleQualifiedName));
      for (auto* cl : children::rules<P::SignatureClauseContext>(ctx, P::RuleSignatureClause))
        s->clauses.push_back(signatureClause(cl));
      out = std::move(s);
      break;
    }
  }
  out->range = loc_.range(ctx);
  // Every section form ends with its closing brace; find its opening one among the children.
  for (auto* child : ctx->children) {
    if (children::isToken(child)) {
      if (children::symbol(child)->getType() == P::LBRACE) out->bodyRange = loc_.span(children::symbol(child), ctx->getStop());
    } else {
      auto* rule = static_cast<antlr4::ParserRuleContext*>(child);
      if (rule->getRuleIndex() == P::RuleExprBlock || rule->getRuleIndex() == P::RuleDefBlock) out->bodyRange = loc_.range(rule);
    }
  }
  bool empty = false;
  switch (out->kind) {
    case ast::SectionKind::Scope: empty = static_cast<ast::ScopeSection&>(*out).items.empty(); break;
    case ast::SectionKind::Pre:
    case ast::SectionKind::Post: empty = static_cast<ast::ExprSection&>(*out).stmts.empty(); break;
    case ast::SectionKind::Oracle:
    case ast::SectionKind::Tolerance: empty = static_cast<ast::DefSection&>(*out).defs.empty(); break;
    case ast::SectionKind::Protocol: empty = static_cast<ast::ProtocolSection&>(*out).items.empty(); break;
    case ast::SectionKind::Signature: empty = static_cast<ast::SignatureSection&>(*out).clauses.empty(); break;
  }
  warnIfEmpty(*out, empty);
  return out;
}

// Scope items by their keyword (an item the grammar does not know is an error, never here).
ast::ScopeItem Transformer::scopeItem(P::ScopeItemContext* ctx) {
  ast::ScopeItem it;
  it.range = loc_.range(ctx);
  switch (ctx->getStart()->getType()) {
    case P::KW_KERNEL:
      it.kind = ast::ScopeItemKind::Kernels;
      for (auto* i : children::rules<P::IdentContext>(ctx, P::RuleIdent)) it.names.push_back(ident(i));
      break;
    case P::KW_OP:
      it.kind = ast::ScopeItemKind::Ops;
      for (auto* q : children::rules<P::QualifiedNameContext>(ctx, P::RuleQualifiedName)) it.ops.push_back(qualifiedName(q));
      break;
    case P::KW_LAYOUT:  // layoutBinding : target ':' setExpr
      it.kind = ast::ScopeItemKind::Layouts;
      for (auto* b : children::rules<P::LayoutBindingContext>(ctx, P::RuleLayoutBinding))
        it.layouts.push_back(ast::LayoutBinding{target(static_cast<P::TargetContext*>(b->children[0])),
                                                setExpr(static_cast<P::SetExprContext*>(b->children[2])), loc_.range(b)});
      break;
    case P::KW_BACKEND:
      it.kind = ast::ScopeItemKind::Backends;
      for (auto* i : children::rules<P::IdentContext>(ctx, P::RuleIdent)) it.names.push_back(ident(i));
      break;
    default:  // where
      it.kind = ast::ScopeItemKind::Domains;
      for (auto* d : children::rules<P::DomainItemContext>(ctx, P::RuleDomainItem)) it.domains.push_back(domainItem(d));
      break;
  }
  return it;
}

// Protocol items by their keyword (an item the grammar does not know is an error, never here).
ast::ProtocolItem Transformer::protocolItem(P::ProtocolItemContext* ctx) {
  ast::ProtocolItem it;
  it.range = loc_.range(ctx);
  // The three binding forms: dimBinding : ident 'in' setExpr;  valueBinding : target '~' setExpr;
  // layoutChoice : target 'in' setExpr.
  auto bindings = [&](size_t rule) {
    for (auto* b : children::rules<antlr4::ParserRuleContext>(ctx, rule)) {
      auto* name = static_cast<antlr4::ParserRuleContext*>(b->children[0]);
      it.bindings.push_back(ast::ProtocolBinding{ast::Target{name->getStart()->getText(), loc_.range(name)},
                                                 setExpr(static_cast<P::SetExprContext*>(b->children[2])), loc_.range(b)});
    }
  };
  switch (ctx->getStart()->getType()) {
    case P::KW_SEEDS: it.kind = ast::ProtocolItemKind::Seeds; break;
    case P::KW_REPEATS: it.kind = ast::ProtocolItemKind::Repeats; break;
    case P::KW_CELLS: it.kind = ast::ProtocolItemKind::Cells; break;
    case P::KW_PERTURB: it.kind = ast::ProtocolItemKind::Perturb; break;
    case P::KW_DIMS:
      it.kind = ast::ProtocolItemKind::Dims;
      bindings(P::RuleDimBinding);
      return it;
    case P::KW_VALUES:
      it.kind = ast::ProtocolItemKind::Values;
      bindings(P::RuleValueBinding);
      return it;
    case P::KW_CASE:
      // caseBinding : dimBinding | valueBinding, each in its own form.
      it.kind = ast::ProtocolItemKind::Case;
      for (auto* cb : children::rules<antlr4::ParserRuleContext>(ctx, P::RuleCaseBinding)) {
        auto* b = static_cast<antlr4::ParserRuleContext*>(cb->children[0]);
        auto* name = static_cast<antlr4::ParserRuleContext*>(b->children[0]);
        ast::ProtocolBinding pb{ast::Target{name->getStart()->getText(), loc_.range(name)},
                                setExpr(static_cast<P::SetExprContext*>(b->children[2])), loc_.range(b)};
        pb.tilde = b->getRuleIndex() == P::RuleValueBinding;
        it.bindings.push_back(std::move(pb));
      }
      return it;
    default:  // layouts
      it.kind = ast::ProtocolItemKind::Layouts;
      bindings(P::RuleLayoutChoice);
      return it;
  }
  it.value = setExpr(static_cast<P::SetExprContext*>(ctx->children[1]));  // KW setExpr
  return it;
}

ast::SignatureClause Transformer::signatureClause(P::SignatureClauseContext* ctx) {
  ast::SignatureClause c;
  c.range = loc_.range(ctx);
  const auto& kids = ctx->children;
  switch (ctx->getStart()->getType()) {
    case P::KW_FAILS:  // 'fails' 'only'? 'when' expr
      c.kind = kids.size() == 4 ? ast::SignatureClauseKind::FailsOnlyWhen : ast::SignatureClauseKind::FailsWhen;
      c.expr = expr(static_cast<P::ExprContext*>(kids.back()));
      break;
    case P::KW_WRONG:  // 'wrong' 'cells' ('[' ident (',' ident)* ']')? ':' expr
      c.kind = ast::SignatureClauseKind::WrongCells;
      for (auto* name : children::rules<P::IdentContext>(ctx, P::RuleIdent)) c.cells.push_back(ident(name));
      c.expr = expr(static_cast<P::ExprContext*>(kids.back()));
      break;
    case P::KW_DIFFERS:  // 'differs' 'run' 'to' 'run'
      c.kind = ast::SignatureClauseKind::DiffersRunToRun;
      break;
    default:
      if (children::isToken(kids[1])) {  // 'error' 'grows' 'with' ident
        c.kind = ast::SignatureClauseKind::ErrorGrows;
        c.dim = ident(static_cast<P::IdentContext*>(kids[3]));
      } else {  // 'error' compareOp expr
        c.kind = ast::SignatureClauseKind::ErrorBound;
        c.compareOp = static_cast<antlr4::ParserRuleContext*>(kids[1])->getStart()->getText();
        c.expr = expr(static_cast<P::ExprContext*>(kids[2]));
      }
      break;
  }
  return c;
}

// definition : ident ('[' ident (',' ident)* ']')? '=' expr
ast::Definition Transformer::definition(P::DefinitionContext* ctx) {
  ast::Definition d;
  auto ids = children::rules<P::IdentContext>(ctx, P::RuleIdent);
  d.name = ident(ids[0]);
  d.hasIndices = ctx->children.size() > 3;
  for (size_t i = 1; i < ids.size(); ++i) d.indices.push_back(ident(ids[i]));
  d.value = expr(static_cast<P::ExprContext*>(ctx->children.back()));
  d.range = loc_.range(ctx);
  return d;
}

}  // namespace kc::parse

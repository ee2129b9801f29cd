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

ast::Ident Transformer::ident(P::IdentContext* ctx) { return ast::Ident{ctx->getText(), loc_.range(ctx)}; }

void Transformer::requireTouching(antlr4::ParserRuleContext* ctx, const std::string& text, const char* what) {
  // Any gap between consecutive parts is whitespace or a comment inside the name.
  const antlr4::Token* prev = nullptr;
  for (auto* child : ctx->children) {
    auto* leaf = dynamic_cast<antlr4::tree::TerminalNode*>(child);
    auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child);
    const antlr4::Token* first = leaf ? leaf->getSymbol() : rule ? rule->getStart() : nullptr;
    const antlr4::Token* last = leaf ? leaf->getSymbol() : rule ? rule->getStop() : nullptr;
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
  std::string text;
  for (auto* child : ctx->children) text += child->getText();
  requireTouching(ctx, text, "the name");
  return ast::QualifiedName{text, loc_.range(ctx)};
}

ast::ContractId Transformer::contractId(P::ContractIdContext* ctx) {
  ast::ContractId id;
  id.name = qualifiedName(ctx->qualifiedName());
  id.version = smallInt(ctx->INT(), "a contract version");
  id.range = loc_.range(ctx);
  requireTouching(ctx, ctx->getText(), "the contract identifier");
  return id;
}

ast::StringLit Transformer::string(antlr4::tree::TerminalNode* node) {
  std::string text = node->getText();
  return ast::StringLit{text.substr(1, text.size() - 2), loc_.range(node)};
}

ast::Target Transformer::target(P::TargetContext* ctx) { return ast::Target{ctx->getText(), loc_.range(ctx)}; }

int Transformer::smallInt(antlr4::tree::TerminalNode* node, const char* what) {
  const std::string text = node->getText();
  try {
    // Decimal unless written 0x...: a leading zero is not octal here.
    bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    size_t used = 0;
    unsigned long long v = std::stoull(text, &used, hex ? 16 : 10);
    if (used == text.size() && v <= 1000000000ULL) return static_cast<int>(v);
  } catch (const std::exception&) {
  }
  diags_.report(DiagCode::BadNumber, loc_.range(node), std::string(what) + " must be at most 1000000000; found " + text);
  return 0;
}

// --- file and items ----------------------------------------------------------------------------

std::unique_ptr<ast::File> Transformer::file(P::FileContext* ctx) {
  auto f = std::make_unique<ast::File>();
  f->range = loc_.range(ctx);
  f->headerRange = loc_.range(ctx->header());
  f->version = smallInt(ctx->header()->INT(), "the language version");
  if (f->version != kLanguageVersion)
    diags_.report(DiagCode::UnsupportedVersion, loc_.range(ctx->header()->INT()),
                  "unsupported language version " + ctx->header()->INT()->getText() + "; this kcontract reads version " +
                      std::to_string(kLanguageVersion));
  std::vector<std::string> imported;
  for (auto* itemCtx : ctx->item()) {
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

ast::ItemPtr Transformer::item(P::ItemContext* ctx) {
  if (auto* c = ctx->importDecl()) {
    auto imp = std::make_unique<ast::ImportDecl>();
    imp->module = qualifiedName(c->qualifiedName());
    return withRange(std::move(imp), loc_.range(c));
  }
  if (auto* c = ctx->kernelDecl()) return kernel(c);
  if (auto* c = ctx->opDecl()) return op(c);
  if (auto* c = ctx->contractDecl()) return contract(c);
  return contractClass(ctx->classDecl());
}

ast::ItemPtr Transformer::kernel(P::KernelDeclContext* ctx) {
  auto k = std::make_unique<ast::KernelDecl>();
  k->name = ident(ctx->ident());
  k->signature = signature(ctx->signature());
  if (ctx->whereClause()) k->where = where(ctx->whereClause());
  if (ctx->qualifiedName()) k->implements = qualifiedName(ctx->qualifiedName());
  return withRange(std::move(k), loc_.range(ctx));
}

ast::ItemPtr Transformer::op(P::OpDeclContext* ctx) {
  auto o = std::make_unique<ast::OpDecl>();
  o->name = qualifiedName(ctx->qualifiedName());
  o->signature = signature(ctx->signature());
  if (ctx->whereClause()) o->where = where(ctx->whereClause());
  o->sections = block(ctx->block());
  o->bodyRange = loc_.range(ctx->block());
  return withRange(std::move(o), loc_.range(ctx));
}

ast::ItemPtr Transformer::contract(P::ContractDeclContext* ctx) {
  auto c = std::make_unique<ast::ContractDecl>(false);
  auto ids = ctx->contractId();
  c->id = contractId(ids[0]);
  if (ctx->STRING()) c->title = string(ctx->STRING());
  for (size_t i = 1; i < ids.size(); ++i) c->applies.push_back(contractId(ids[i]));
  c->sections = block(ctx->block());
  c->bodyRange = loc_.range(ctx->block());
  return withRange(std::move(c), loc_.range(ctx));
}

ast::ItemPtr Transformer::contractClass(P::ClassDeclContext* ctx) {
  auto c = std::make_unique<ast::ContractDecl>(true);
  c->id = contractId(ctx->contractId());
  if (ctx->STRING()) c->title = string(ctx->STRING());
  c->sections = block(ctx->block());
  c->bodyRange = loc_.range(ctx->block());
  return withRange(std::move(c), loc_.range(ctx));
}

ast::Signature Transformer::signature(P::SignatureContext* ctx) {
  ast::Signature sig;
  sig.range = loc_.range(ctx);
  auto lists = ctx->paramList();
  // Two optional lists: tell inputs from outputs by their position around '->'.
  size_t arrow = ctx->ARROW()->getSymbol()->getTokenIndex();
  for (auto* list : lists) {
    auto& into = list->getStart()->getTokenIndex() < arrow ? sig.inputs : sig.outputs;
    for (auto* p : list->param()) into.push_back(param(p));
  }
  return sig;
}

ast::Param Transformer::param(P::ParamContext* ctx) {
  ast::Param p;
  auto ids = ctx->ident();
  p.name = ident(ids[0]);
  p.dtype = ident(ids[1]);
  p.hasShape = ctx->LBRACK() != nullptr;
  for (auto* e : ctx->expr()) p.dims.push_back(expr(e));
  p.range = loc_.range(ctx);
  return p;
}

std::vector<ast::DomainItem> Transformer::where(P::WhereClauseContext* ctx) {
  std::vector<ast::DomainItem> items;
  for (auto* d : ctx->domainItem()) items.push_back(domainItem(d));
  return items;
}

ast::DomainItem Transformer::domainItem(P::DomainItemContext* ctx) {
  ast::DomainItem d;
  d.name = ident(ctx->ident());
  d.range = loc_.range(ctx);
  if (auto* r = dynamic_cast<P::RangeDomainContext*>(ctx->domain())) {
    d.isRange = true;
    d.lo = expr(r->expr(0));
    d.hi = expr(r->expr(1));
  } else {
    for (auto* e : static_cast<P::SetDomainContext*>(ctx->domain())->expr()) d.elements.push_back(expr(e));
  }
  return d;
}

// --- sections ----------------------------------------------------------------------------------

std::vector<ast::SectionPtr> Transformer::block(P::BlockContext* ctx) {
  std::vector<ast::SectionPtr> sections;
  for (auto* s : ctx->section()) sections.push_back(section(s));
  return sections;
}

void Transformer::warnIfEmpty(const ast::Section& section, bool empty) {
  if (empty)
    diags_.report(DiagCode::EmptyBlock, section.range,
                  std::string("the '") + ast::sectionKeyword(section.kind) + "' section is empty");
}

ast::SectionPtr Transformer::section(P::SectionContext* ctx) {
  ast::SectionPtr out;
  if (auto* c = dynamic_cast<P::ScopeSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::ScopeSection>();
    for (auto* it : c->scopeItem()) s->items.push_back(scopeItem(it));
    out = std::move(s);
  } else if (auto* c = dynamic_cast<P::PreSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::ExprSection>(ast::SectionKind::Pre);
    for (auto* e : c->exprBlock()->expr()) s->stmts.push_back(expr(e));
    out = std::move(s);
  } else if (auto* c = dynamic_cast<P::PostSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::ExprSection>(ast::SectionKind::Post);
    for (auto* e : c->exprBlock()->expr()) s->stmts.push_back(expr(e));
    out = std::move(s);
  } else if (auto* c = dynamic_cast<P::OracleSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::DefSection>(ast::SectionKind::Oracle);
    if (auto* p = c->precision()) {
      ast::Precision prec{ident(p->ident()), std::nullopt, loc_.range(p)};
      if (p->INT()) prec.bits = smallInt(p->INT(), "a precision in bits");
      s->precision = prec;
    }
    for (auto* d : c->defBlock()->definition()) s->defs.push_back(definition(d));
    out = std::move(s);
  } else if (auto* c = dynamic_cast<P::ToleranceSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::DefSection>(ast::SectionKind::Tolerance);
    for (auto* d : c->defBlock()->definition()) s->defs.push_back(definition(d));
    out = std::move(s);
  } else if (auto* c = dynamic_cast<P::ProtocolSectionContext*>(ctx)) {
    auto s = std::make_unique<ast::ProtocolSection>();
    for (auto* it : c->protocolItem()) s->items.push_back(protocolItem(it));
    out = std::move(s);
  } else {
    auto* sc = static_cast<P::SignatureSectionContext*>(ctx);
    auto s = std::make_unique<ast::SignatureSection>();
    s->name = qualifiedName(sc->qualifiedName());
    for (auto* cl : sc->signatureClause()) s->clauses.push_back(signatureClause(cl));
    out = std::move(s);
  }
  out->range = loc_.range(ctx);
  // Every section form ends with its closing brace; find its opening one among the children.
  for (auto* child : ctx->children) {
    auto* rule = dynamic_cast<antlr4::ParserRuleContext*>(child);
    auto* leaf = dynamic_cast<antlr4::tree::TerminalNode*>(child);
    if (leaf && leaf->getSymbol()->getType() == P::LBRACE) {
      out->bodyRange = loc_.span(leaf->getSymbol(), ctx->getStop());
    } else if (rule && (dynamic_cast<P::ExprBlockContext*>(rule) || dynamic_cast<P::DefBlockContext*>(rule))) {
      out->bodyRange = loc_.range(rule);
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

ast::ScopeItem Transformer::scopeItem(P::ScopeItemContext* ctx) {
  ast::ScopeItem it;
  it.range = loc_.range(ctx);
  if (auto* c = dynamic_cast<P::ScopeKernelsContext*>(ctx)) {
    it.kind = ast::ScopeItemKind::Kernels;
    for (auto* i : c->ident()) it.names.push_back(ident(i));
  } else if (auto* c = dynamic_cast<P::ScopeOpsContext*>(ctx)) {
    it.kind = ast::ScopeItemKind::Ops;
    for (auto* q : c->qualifiedName()) it.ops.push_back(qualifiedName(q));
  } else if (auto* c = dynamic_cast<P::ScopeLayoutsContext*>(ctx)) {
    it.kind = ast::ScopeItemKind::Layouts;
    for (auto* b : c->layoutBinding())
      it.layouts.push_back(ast::LayoutBinding{target(b->target()), setExpr(b->setExpr()), loc_.range(b)});
  } else if (auto* c = dynamic_cast<P::ScopeBackendsContext*>(ctx)) {
    it.kind = ast::ScopeItemKind::Backends;
    for (auto* i : c->ident()) it.names.push_back(ident(i));
  } else {
    it.kind = ast::ScopeItemKind::Domains;
    for (auto* d : static_cast<P::ScopeDomainsContext*>(ctx)->domainItem()) it.domains.push_back(domainItem(d));
  }
  return it;
}

ast::ProtocolItem Transformer::protocolItem(P::ProtocolItemContext* ctx) {
  ast::ProtocolItem it;
  it.range = loc_.range(ctx);
  if (auto* c = dynamic_cast<P::ProtoSeedsContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Seeds;
    it.value = setExpr(c->setExpr());
  } else if (auto* c = dynamic_cast<P::ProtoRepeatsContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Repeats;
    it.value = setExpr(c->setExpr());
  } else if (auto* c = dynamic_cast<P::ProtoCellsContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Cells;
    it.value = setExpr(c->setExpr());
  } else if (auto* c = dynamic_cast<P::ProtoPerturbContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Perturb;
    it.value = setExpr(c->setExpr());
  } else if (auto* c = dynamic_cast<P::ProtoDimsContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Dims;
    for (auto* b : c->dimBinding())
      it.bindings.push_back(
          ast::ProtocolBinding{ast::Target{b->ident()->getText(), loc_.range(b->ident())}, setExpr(b->setExpr()),
                               loc_.range(b)});
  } else if (auto* c = dynamic_cast<P::ProtoValuesContext*>(ctx)) {
    it.kind = ast::ProtocolItemKind::Values;
    for (auto* b : c->valueBinding())
      it.bindings.push_back(ast::ProtocolBinding{target(b->target()), setExpr(b->setExpr()), loc_.range(b)});
  } else {
    it.kind = ast::ProtocolItemKind::Layouts;
    for (auto* b : static_cast<P::ProtoLayoutsContext*>(ctx)->layoutChoice())
      it.bindings.push_back(ast::ProtocolBinding{target(b->target()), setExpr(b->setExpr()), loc_.range(b)});
  }
  return it;
}

ast::SignatureClause Transformer::signatureClause(P::SignatureClauseContext* ctx) {
  ast::SignatureClause c;
  c.range = loc_.range(ctx);
  if (auto* x = dynamic_cast<P::SigFailsWhenContext*>(ctx)) {
    c.kind = x->KW_ONLY() ? ast::SignatureClauseKind::FailsOnlyWhen : ast::SignatureClauseKind::FailsWhen;
    c.expr = expr(x->expr());
  } else if (auto* x = dynamic_cast<P::SigWrongCellsContext*>(ctx)) {
    c.kind = ast::SignatureClauseKind::WrongCells;
    c.expr = expr(x->expr());
  } else if (auto* x = dynamic_cast<P::SigErrorGrowsContext*>(ctx)) {
    c.kind = ast::SignatureClauseKind::ErrorGrows;
    c.dim = ident(x->ident());
  } else if (dynamic_cast<P::SigDiffersRunToRunContext*>(ctx)) {
    c.kind = ast::SignatureClauseKind::DiffersRunToRun;
  } else {
    auto* x = static_cast<P::SigErrorBoundContext*>(ctx);
    c.kind = ast::SignatureClauseKind::ErrorBound;
    c.compareOp = x->compareOp()->getText();
    c.expr = expr(x->expr());
  }
  return c;
}

ast::Definition Transformer::definition(P::DefinitionContext* ctx) {
  ast::Definition d;
  auto ids = ctx->ident();
  d.name = ident(ids[0]);
  d.hasIndices = ctx->LBRACK() != nullptr;
  for (size_t i = 1; i < ids.size(); ++i) d.indices.push_back(ident(ids[i]));
  d.value = expr(ctx->expr());
  d.range = loc_.range(ctx);
  return d;
}

}  // namespace kc::parse

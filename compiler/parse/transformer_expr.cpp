// Expressions and protocol sets: parse contexts -> ast::Expr / ast::SetExpr.
#include "compiler/parse/transformer.h"

namespace kc::parse {

namespace {

template <class T>
std::unique_ptr<T> make(SourceRange r) {
  auto node = std::make_unique<T>();
  node->range = r;
  return node;
}

}  // namespace

ast::ExprPtr Transformer::expr(P::ExprContext* ctx) { return quantifier(ctx->quantifier()); }

ast::ExprPtr Transformer::quantifier(P::QuantifierContext* ctx) {
  if (auto* u = dynamic_cast<P::UnquantifiedContext*>(ctx)) return implication(u->implication());
  auto* q = static_cast<P::QuantifiedContext*>(ctx);
  auto node = make<ast::QuantifierExpr>(loc_.range(ctx));
  node->isForall = q->KW_FORALL() != nullptr;
  for (auto* b : q->binder()) node->binders.push_back(binder(b));
  node->body = quantifier(q->quantifier());
  return node;
}

ast::Binder Transformer::binder(P::BinderContext* ctx) {
  ast::Binder b;
  b.name = ident(ctx->ident());
  if (ctx->KW_IN()) {
    b.lo = expr(ctx->expr(0));
    b.hi = expr(ctx->expr(1));
  }
  b.range = loc_.range(ctx);
  return b;
}

ast::ExprPtr Transformer::implication(P::ImplicationContext* ctx) {
  ast::ExprPtr lhs = binaryChain(ctx->disjunction());
  if (!ctx->ARROW()) return lhs;
  auto node = make<ast::BinaryExpr>(loc_.range(ctx));
  node->op = "->";
  node->lhs = std::move(lhs);
  node->rhs = implication(ctx->implication());
  return node;
}

// Any operand of a left-associative chain (disjunction, conjunction, additive, multiplicative).
ast::ExprPtr Transformer::operand(antlr4::tree::ParseTree* tree) {
  // Operands of the chains are always rule contexts: tell them apart by rule index, which
  // is far cheaper than dynamic_cast on this hot path.
  auto* rule = static_cast<antlr4::ParserRuleContext*>(tree);
  switch (rule->getRuleIndex()) {
    case P::RuleComparison: return comparison(static_cast<P::ComparisonContext*>(rule));
    case P::RuleUnary: return unary(static_cast<P::UnaryContext*>(rule));
    default: return binaryChain(rule);
  }
}

// `a op b op c` with operator tokens between operands -> ((a op b) op c).
ast::ExprPtr Transformer::binaryChain(antlr4::ParserRuleContext* ctx) {
  ast::ExprPtr acc = operand(ctx->children[0]);
  for (size_t i = 1; i + 1 < ctx->children.size(); i += 2) {
    ast::ExprPtr rhs = operand(ctx->children[i + 1]);
    auto node = make<ast::BinaryExpr>(SourceRange::span(acc->range, rhs->range));
    node->op = ctx->children[i]->getText();
    node->lhs = std::move(acc);
    node->rhs = std::move(rhs);
    acc = std::move(node);
  }
  return acc;
}

ast::ExprPtr Transformer::comparison(P::ComparisonContext* ctx) {
  auto operands = ctx->additive();
  if (operands.size() == 1) return binaryChain(operands[0]);
  auto node = make<ast::CompareExpr>(loc_.range(ctx));
  for (auto* a : operands) node->operands.push_back(binaryChain(a));
  for (auto* op : ctx->compareOp()) node->ops.push_back(op->getText());
  return node;
}

ast::ExprPtr Transformer::unary(P::UnaryContext* ctx) {
  if (auto* p = dynamic_cast<P::PlainUnaryContext*>(ctx)) return power(p->power());
  auto* u = static_cast<P::PrefixUnaryContext*>(ctx);
  auto node = make<ast::UnaryExpr>(loc_.range(ctx));
  node->op = u->MINUS() ? "-" : "!";
  node->operand = unary(u->unary());
  return node;
}

ast::ExprPtr Transformer::power(P::PowerContext* ctx) {
  ast::ExprPtr base = postfix(ctx->postfix());
  if (!ctx->CARET()) return base;
  auto node = make<ast::BinaryExpr>(loc_.range(ctx));
  node->op = "^";
  node->lhs = std::move(base);
  node->rhs = unary(ctx->unary());
  return node;
}

ast::ExprPtr Transformer::postfix(P::PostfixContext* ctx) {
  ast::ExprPtr base = primary(ctx->primary());
  if (!ctx->LBRACK()) return base;
  auto node = make<ast::IndexExpr>(loc_.range(ctx));
  node->base = std::move(base);
  for (auto* e : ctx->expr()) node->indices.push_back(expr(e));
  return node;
}

ast::ExprPtr Transformer::number(P::NumberContext* ctx) {
  auto node = make<ast::NumberExpr>(loc_.range(ctx));
  node->text = ctx->getText();
  node->numberKind = ctx->INT() ? ast::NumberKind::Int : ctx->FLOAT() ? ast::NumberKind::Float : ast::NumberKind::HexFloat;
  if (node->numberKind == ast::NumberKind::Int) {
    try {
      const std::string& t = node->text;
      bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
      std::stoull(t, nullptr, hex ? 16 : 10);
    } catch (const std::exception&) {
      diags_.report(DiagCode::BadNumber, node->range,
                    "integer literal " + node->text + " does not fit in 64 bits; write it as a power such as 2^64");
    }
  }
  return node;
}

ast::ExprPtr Transformer::primary(P::PrimaryContext* ctx) {
  SourceRange r = loc_.range(ctx);
  if (auto* c = dynamic_cast<P::NumberPrimaryContext*>(ctx)) return number(c->number());
  if (auto* c = dynamic_cast<P::RefPrimaryContext*>(ctx)) {
    auto node = make<ast::RefExpr>(r);
    std::string text = c->REF()->getText();
    node->name = text.substr(0, text.size() - 1);
    return node;
  }
  if (auto* c = dynamic_cast<P::ReductionPrimaryContext*>(ctx)) {
    auto node = make<ast::ReductionExpr>(r);
    node->op = c->reducer()->getText();
    node->var = binder(c->binder());
    node->body = expr(c->expr());
    return node;
  }
  if (auto* c = dynamic_cast<P::CallPrimaryContext*>(ctx)) {
    auto node = make<ast::CallExpr>(r);
    node->callee = ast::Ident{c->callee()->getText(), loc_.range(c->callee())};
    for (auto* e : c->expr()) node->args.push_back(expr(e));
    return node;
  }
  if (auto* c = dynamic_cast<P::NamePrimaryContext*>(ctx)) {
    auto node = make<ast::NameExpr>(r);
    node->name = c->getText();
    return node;
  }
  if (auto* c = dynamic_cast<P::ParenPrimaryContext*>(ctx)) {
    auto node = make<ast::ParenExpr>(r);
    node->inner = expr(c->expr());
    return node;
  }
  if (auto* c = dynamic_cast<P::AbsPrimaryContext*>(ctx)) {
    auto node = make<ast::AbsExpr>(r);
    node->operand = expr(c->expr());
    return node;
  }
  auto* c = static_cast<P::ConditionalPrimaryContext*>(ctx);
  auto node = make<ast::ConditionalExpr>(r);
  node->cond = expr(c->expr(0));
  node->thenExpr = expr(c->expr(1));
  node->elseExpr = expr(c->expr(2));
  return node;
}

// --- protocol sets --------------------------------------------------------------------------

ast::SetExprPtr Transformer::setExpr(P::SetExprContext* ctx) {
  auto terms = ctx->setTerm();
  if (terms.size() == 1) return setTerm(terms[0]);
  auto chain = std::make_unique<ast::SetExpr>();
  chain->kind = ast::SetKind::Chain;
  chain->range = loc_.range(ctx);
  for (size_t i = 0; i < ctx->children.size(); ++i) {
    if (i % 2 == 0) chain->items.push_back(setTerm(static_cast<P::SetTermContext*>(ctx->children[i])));
    else chain->ops.push_back(ctx->children[i]->getText()[0]);
  }
  return chain;
}

ast::SetExprPtr Transformer::setTerm(P::SetTermContext* ctx) {
  if (auto* a = dynamic_cast<P::SetAtomTermContext*>(ctx)) return setAtom(a->setAtom());
  auto s = std::make_unique<ast::SetExpr>();
  s->range = loc_.range(ctx);
  if (auto* c = dynamic_cast<P::SetLiteralContext*>(ctx)) {
    s->kind = ast::SetKind::Literal;
    for (auto* e : c->setExpr()) s->items.push_back(setExpr(e));
  } else if (auto* c = dynamic_cast<P::SetRangeContext*>(ctx)) {
    s->kind = ast::SetKind::Range;
    s->items.push_back(setAtom(c->setAtom(0)));
    s->items.push_back(setAtom(c->setAtom(1)));
  } else {
    auto* call = static_cast<P::SetCallContext*>(ctx);
    s->kind = ast::SetKind::Call;
    s->text = call->ident()->getText();
    // Positional values after a named argument extend its list: boundary(tiles: 32, 64).
    for (auto* arg : call->setArg()) {
      ast::SetExprPtr value = setExpr(arg->setExpr());
      if (!arg->ident() && !s->argNames.empty() && !s->argNames.back().empty()) {
        ast::SetExprPtr& named = s->items.back();
        if (!named->bare) {
          auto list = std::make_unique<ast::SetExpr>();
          list->kind = ast::SetKind::Literal;
          list->bare = true;
          list->range = named->range;
          list->items.push_back(std::move(named));
          named = std::move(list);
        }
        named->range = SourceRange::span(named->range, value->range);
        named->items.push_back(std::move(value));
        continue;
      }
      s->argNames.push_back(arg->ident() ? arg->ident()->getText() : "");
      s->items.push_back(std::move(value));
    }
  }
  return s;
}

ast::SetExprPtr Transformer::setAtom(P::SetAtomContext* ctx) {
  auto s = std::make_unique<ast::SetExpr>();
  s->range = loc_.range(ctx);
  if (auto* c = dynamic_cast<P::SetNumberContext*>(ctx)) {
    s->kind = ast::SetKind::Number;
    s->negative = c->MINUS() != nullptr;
    s->percent = c->PERCENT() != nullptr;
    s->text = c->number()->getText();
  } else if (auto* c = dynamic_cast<P::SetPowerContext*>(ctx)) {
    s->kind = ast::SetKind::Power;
    s->text = c->INT(0)->getText();
    s->text2 = c->INT(1)->getText();
  } else if (auto* c = dynamic_cast<P::SetNameContext*>(ctx)) {
    s->kind = ast::SetKind::Name;
    s->text = c->getText();
  } else if (auto* c = dynamic_cast<P::SetStringContext*>(ctx)) {
    s->kind = ast::SetKind::String;
    std::string text = c->STRING()->getText();
    s->text = text.substr(1, text.size() - 2);
  } else {
    s->kind = ast::SetKind::Arith;
    s->arith = expr(static_cast<P::SetArithContext*>(ctx)->expr());
  }
  return s;
}

}  // namespace kc::parse

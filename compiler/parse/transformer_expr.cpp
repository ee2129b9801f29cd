// Expressions and protocol sets: parse contexts -> ast::Expr / ast::SetExpr.
#include "compiler/parse/transformer.h"

#include <cmath>
#include <cstdlib>

namespace kc::parse {

namespace {

template <class T>
std::unique_ptr<T> make(SourceRange r) {
  auto node = std::make_unique<T>();
  node->range = r;
  return node;
}

}  // namespace

// The transformer runs only on trees without syntax errors, so each context's children
// follow its grammar alternative exactly: the code below tells alternatives and operands
// apart by position, child count and token type, never by dynamic_cast (the hot path).

namespace {

using P = KContractParser;

antlr4::Token* tokenOf(antlr4::tree::ParseTree* leaf) { return static_cast<antlr4::tree::TerminalNode*>(leaf)->getSymbol(); }

const char* operatorText(size_t type) {
  switch (type) {
    case P::CARET: return "^";
    case P::STAR: return "*";
    case P::SLASH: return "/";
    case P::PERCENT: return "%";
    case P::PLUS: return "+";
    case P::MINUS: return "-";
    case P::EQ: return "==";
    case P::NE: return "!=";
    case P::LT: return "<";
    case P::LE: return "<=";
    case P::GT: return ">";
    case P::GE: return ">=";
    case P::ANDAND: return "&&";
    case P::OROR: return "||";
    case P::ARROW: return "->";
    case P::BANG: return "!";
    default: return "?";
  }
}

bool isComparison(size_t type) {
  return type == P::EQ || type == P::NE || type == P::LT || type == P::LE || type == P::GT || type == P::GE;
}

// Left-associative operators (and comparison chains): their parse trees grow to the left
// without bound, so they are walked iteratively.
bool isLeftAssociative(size_t type) { return type != P::CARET && type != P::ARROW; }

// The operator of a binary opExpr (opExpr, operator, opExpr), or 0 for a prefix operator or
// an operand (which begin with a token).
size_t binaryOperator(P::OpExprContext* ctx) {
  return children::isToken(ctx->children[0]) ? 0 : tokenOf(ctx->children[1])->getType();
}

P::OpExprContext* opChild(antlr4::ParserRuleContext* ctx, size_t i) { return static_cast<P::OpExprContext*>(ctx->children[i]); }
P::ExprContext* exprChild(antlr4::ParserRuleContext* ctx, size_t i) { return static_cast<P::ExprContext*>(ctx->children[i]); }

// Adds `n` levels to the depth counter for as long as it lives.
class Deeper {
 public:
  Deeper(size_t& depth, size_t n) : depth_(depth), n_(n) { depth_ += n_; }
  ~Deeper() { depth_ -= n_; }
  Deeper(const Deeper&) = delete;
  Deeper& operator=(const Deeper&) = delete;

 private:
  size_t& depth_;
  size_t n_;
};

}  // namespace

bool Transformer::withinDepth(size_t more, antlr4::Token* at) {
  if (exprDepth_ + more <= kMaxExprDepth) return true;
  if (!saidTooDeep_)
    diags_.report(DiagCode::TooDeep, loc_.range(at),
                  "this expression nests more than " + std::to_string(kMaxExprDepth) +
                      " operators deep (each operator of a chain such as a + b + c counts); split it into definitions");
  saidTooDeep_ = true;
  return false;
}

// expr : (forall | exists) binder (',' binder)* ':' expr  |  opExpr
ast::ExprPtr Transformer::expr(P::ExprContext* ctx) {
  const auto& children = ctx->children;
  if (children.size() == 1) return opExpr(opChild(ctx, 0));
  Deeper deeper(exprDepth_, 1);
  auto node = make<ast::QuantifierExpr>(loc_.range(ctx));
  node->isForall = ctx->getStart()->getType() == P::KW_FORALL;
  for (size_t i = 1; i + 2 < children.size(); i += 2)
    node->binders.push_back(binder(static_cast<P::BinderContext*>(children[i])));
  node->body = expr(exprChild(ctx, children.size() - 1));
  return node;
}

// binder : ident ('in' expr '..' expr)?
ast::Binder Transformer::binder(P::BinderContext* ctx) {
  ast::Binder b;
  b.name = ident(static_cast<P::IdentContext*>(ctx->children[0]));
  if (ctx->children.size() == 5) {
    b.lo = expr(exprChild(ctx, 2));
    b.hi = expr(exprChild(ctx, 4));
  }
  b.range = loc_.range(ctx);
  return b;
}

ast::ExprPtr Transformer::opExpr(P::OpExprContext* ctx) {
  const auto& children = ctx->children;
  Deeper deeper(exprDepth_, 1);
  auto placeholder = [&] {  // in place of an expression too deep to build: the file fails
    auto node = make<ast::NumberExpr>(loc_.range(ctx->getStart()));
    node->text = "0";
    return node;
  };
  if (!withinDepth(0, ctx->getStart())) return placeholder();
  if (children.size() == 2) {  // prefix - or ! (an operand has one child, or three or more)
    auto node = make<ast::UnaryExpr>(loc_.range(ctx));
    node->op = tokenOf(children[0])->getType() == P::MINUS ? "-" : "!";
    node->operand = opExpr(opChild(ctx, 1));
    return node;
  }
  size_t op = binaryOperator(ctx);
  if (op == 0) return operand(ctx);
  if (!isLeftAssociative(op)) {  // ^ and ->: right-associative
    ast::ExprPtr lhs = opExpr(opChild(ctx, 0));
    ast::ExprPtr rhs = opExpr(opChild(ctx, 2));
    auto node = make<ast::BinaryExpr>(SourceRange::span(lhs->range, rhs->range));
    node->op = operatorText(op);
    node->lhs = std::move(lhs);
    node->rhs = std::move(rhs);
    return node;
  }
  // `a op b op c`: the left spine of left-associative operators, outermost first.
  std::vector<P::OpExprContext*> spine;
  P::OpExprContext* bottom = ctx;
  for (size_t t = op; t != 0 && isLeftAssociative(t); t = binaryOperator(bottom)) {
    spine.push_back(bottom);
    bottom = opChild(bottom, 0);
  }
  // The chain's operators nest their left operands (comparison chains aside) in the AST and
  // the IR: a level each, counted before any is built.
  if (!withinDepth(spine.size(), ctx->getStart())) return placeholder();
  Deeper chain(exprDepth_, spine.size());
  ast::ExprPtr acc = opExpr(bottom);
  bool chaining = false;  // acc is the comparison chain of the context just below
  for (auto it = spine.rbegin(); it != spine.rend(); ++it) {
    size_t type = tokenOf((*it)->children[1])->getType();
    ast::ExprPtr rhs = opExpr(opChild(*it, 2));
    SourceRange r = SourceRange::span(acc->range, rhs->range);
    if (isComparison(type)) {
      // `a < b <= c` is one comparison with two operators; `(a < b) <= c` is not.
      if (!chaining) {
        auto cmp = make<ast::CompareExpr>(r);
        cmp->operands.push_back(std::move(acc));
        acc = std::move(cmp);
      }
      auto& cmp = static_cast<ast::CompareExpr&>(*acc);
      cmp.range = r;
      cmp.operands.push_back(std::move(rhs));
      cmp.ops.push_back(operatorText(type));
      chaining = true;
      continue;
    }
    auto node = make<ast::BinaryExpr>(r);
    node->op = operatorText(type);
    node->lhs = std::move(acc);
    node->rhs = std::move(rhs);
    acc = std::move(node);
    chaining = false;
  }
  return acc;
}

// opExpr alternative operand: a primary, then at most one index list '[' expr (',' expr)* ']'.
ast::ExprPtr Transformer::operand(P::OpExprContext* ctx) {
  const auto& children = ctx->children;
  size_t end = 0;  // one past the primary's last child
  ast::ExprPtr base = primary(ctx, end);
  if (end == children.size()) return base;
  auto node = make<ast::IndexExpr>(loc_.range(ctx));
  node->base = std::move(base);
  for (size_t i = end + 1; i < children.size(); i += 2) node->indices.push_back(expr(exprChild(ctx, i)));
  return node;
}

// An INT, FLOAT or HEXFLOAT token.
ast::ExprPtr Transformer::number(antlr4::Token* token) {
  auto node = make<ast::NumberExpr>(loc_.range(token));
  node->text = token->getText();
  size_t type = token->getType();
  node->numberKind = type == P::INT ? ast::NumberKind::Int : type == P::FLOAT ? ast::NumberKind::Float : ast::NumberKind::HexFloat;
  if (node->numberKind == ast::NumberKind::Int) {
    try {
      const std::string& t = node->text;
      bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
      std::stoull(t, nullptr, hex ? 16 : 10);
    } catch (const std::exception&) {
      diags_.report(DiagCode::BadNumber, node->range,
                    "integer literal " + node->text + " does not fit in 64 bits; write it as a power such as 2^64");
    }
  } else {
    // A real literal is an f64: one beyond its range would be inf (a tolerance of 1e999 accepts
    // anything), one below it would be 0.
    const std::string& t = node->text;
    bool hex = node->numberKind == ast::NumberKind::HexFloat;
    double v = std::strtod(t.c_str(), nullptr);
    std::string mantissa = t.substr(0, t.find_first_of(hex ? "pP" : "eE"));
    bool nonzero = mantissa.find_first_of(hex ? "123456789abcdefABCDEF" : "123456789", hex ? 2 : 0) != std::string::npos;
    if (std::isinf(v))
      diags_.report(DiagCode::BadNumber, node->range,
                    "real literal " + t + " overflows to infinity (reals are f64: at most about 1.8e308)");
    else if (v == 0 && nonzero)
      diags_.report(DiagCode::BadNumber, node->range,
                    "real literal " + t + " is too small for an f64 and would be 0 (the smallest is about 4.9e-324)");
  }
  return node;
}

// The primary that begins the children of an operand; `end` is set one past its last child.
ast::ExprPtr Transformer::primary(P::OpExprContext* ctx, size_t& end) {
  const auto& children = ctx->children;
  antlr4::Token* first = ctx->getStart();
  size_t type = first->getType();
  auto tokenAt = [&](size_t k, size_t t) {
    return k < children.size() && children::isToken(children[k]) && children::symbol(children[k])->getType() == t;
  };
  // A dotted callee (an op applied in an oracle, std.ops.gelu(z)): '.' word pairs before '('.
  size_t open = 1;
  while (type != P::LPAREN && tokenAt(open, P::DOT)) open += 2;
  if (children.size() > open && tokenAt(open, P::LPAREN) && type != P::LPAREN) {
    // A call or a reduction: the name, '(' ... ')'.
    end = open + 1;
    while (!(children::isToken(children[end]) && children::symbol(children[end])->getType() == P::RPAREN)) ++end;
    ++end;
  } else {
    switch (type) {
      case P::LPAREN:
      case P::BAR: end = 3; break;
      case P::KW_IF: end = 6; break;
      default: end = 1; break;  // a number, y* or a name
    }
  }
  auto lastToken = [](antlr4::tree::ParseTree* c) {
    return children::isToken(c) ? children::symbol(c) : static_cast<antlr4::ParserRuleContext*>(c)->getStop();
  };
  SourceRange r = loc_.span(first, lastToken(children[end - 1]));
  switch (type) {
    case P::INT:
    case P::FLOAT:
    case P::HEXFLOAT: return number(first);
    case P::REF: {
      auto node = make<ast::RefExpr>(r);
      std::string text = first->getText();
      node->name = text.substr(0, text.size() - 1);
      return node;
    }
    case P::LPAREN: {  // '(' expr ')'
      auto node = make<ast::ParenExpr>(r);
      node->inner = expr(exprChild(ctx, 1));
      return node;
    }
    case P::BAR: {  // '|' expr '|'
      auto node = make<ast::AbsExpr>(r);
      node->operand = expr(exprChild(ctx, 1));
      return node;
    }
    case P::KW_IF: {  // 'if' expr 'then' expr 'else' expr
      auto node = make<ast::ConditionalExpr>(r);
      node->cond = expr(exprChild(ctx, 1));
      node->thenExpr = expr(exprChild(ctx, 3));
      node->elseExpr = expr(exprChild(ctx, 5));
      return node;
    }
    default: break;
  }
  if (end == 1) {  // a name
    auto node = make<ast::NameExpr>(r);
    node->name = first->getText();
    return node;
  }
  // A reduction, reducer '(' binder ',' expr ')', has a binder where a call has an argument.
  if (open == 1 && end == 6 && !children::isToken(children[2]) &&
      static_cast<antlr4::ParserRuleContext*>(children[2])->getRuleIndex() == P::RuleBinder) {
    auto node = make<ast::ReductionExpr>(r);
    node->op = first->getText();
    node->var = binder(static_cast<P::BinderContext*>(children[2]));
    node->body = expr(exprChild(ctx, 4));
    return node;
  }
  // callee '(' (expr (',' expr)*)? ')'
  auto node = make<ast::CallExpr>(r);
  std::string callee = first->getText();
  bool touching = true;
  for (size_t k = 1; k < open; ++k) {
    auto* rule = children::isToken(children[k]) ? nullptr : static_cast<antlr4::ParserRuleContext*>(children[k]);
    const antlr4::Token* start = rule ? rule->getStart() : children::symbol(children[k]);
    touching = touching && start->getStartIndex() == lastToken(children[k - 1])->getStopIndex() + 1;
    callee += children[k]->getText();
  }
  if (!touching)
    diags_.report(DiagCode::SpaceInName, loc_.span(first, lastToken(children[open - 1])),
                  "the parts of the op name '" + callee + "' must touch: remove the spaces between them");
  node->callee = ast::Ident{callee, open == 1 ? loc_.range(first) : loc_.span(first, lastToken(children[open - 1]))};
  for (size_t i = open + 1; i + 1 < end; i += 2) node->args.push_back(expr(exprChild(ctx, i)));
  return node;
}

// --- protocol sets --------------------------------------------------------------------------

// setExpr : setTerm (('+' | '|') setTerm)*
ast::SetExprPtr Transformer::setExpr(P::SetExprContext* ctx) {
  if (ctx->children.size() == 1) return setTerm(static_cast<P::SetTermContext*>(ctx->children[0]));
  auto chain = std::make_unique<ast::SetExpr>();
  chain->kind = ast::SetKind::Chain;
  chain->range = loc_.range(ctx);
  for (size_t i = 0; i < ctx->children.size(); ++i) {
    if (i % 2 == 0) chain->items.push_back(setTerm(static_cast<P::SetTermContext*>(ctx->children[i])));
    else chain->ops.push_back(children::symbol(ctx->children[i])->getText()[0]);
  }
  return chain;
}

// setTerm : '{' (setExpr (',' setExpr)*)? '}'  |  setAtom '..' setAtom
//         | ident '(' (setArg (',' setArg)*)? ')'  |  setAtom
ast::SetExprPtr Transformer::setTerm(P::SetTermContext* ctx) {
  const auto& kids = ctx->children;
  if (kids.size() == 1) return setAtom(static_cast<P::SetAtomContext*>(kids[0]));
  auto s = std::make_unique<ast::SetExpr>();
  s->range = loc_.range(ctx);
  if (ctx->getStart()->getType() == P::LBRACE) {
    s->kind = ast::SetKind::Literal;
    for (auto* e : children::rules<P::SetExprContext>(ctx, P::RuleSetExpr)) s->items.push_back(setExpr(e));
  } else if (children::symbol(kids[1])->getType() == P::DOTDOT) {
    s->kind = ast::SetKind::Range;
    s->items.push_back(setAtom(static_cast<P::SetAtomContext*>(kids[0])));
    s->items.push_back(setAtom(static_cast<P::SetAtomContext*>(kids[2])));
  } else {
    s->kind = ast::SetKind::Call;
    s->text = static_cast<antlr4::ParserRuleContext*>(kids[0])->getStart()->getText();  // ident
    // Positional values after a named argument extend its list: boundary(tiles: 32, 64).
    for (auto* arg : children::rules<P::SetArgContext>(ctx, P::RuleSetArg)) {  // (ident ':')? (expr | setExpr)
      bool named = arg->children.size() == 3;
      ast::SetExprPtr value = setArgValue(arg->children.back());
      if (!named && !s->argNames.empty() && !s->argNames.back().empty()) {
        ast::SetExprPtr& last = s->items.back();
        if (!last->bare) {
          auto list = std::make_unique<ast::SetExpr>();
          list->kind = ast::SetKind::Literal;
          list->bare = true;
          list->range = last->range;
          list->items.push_back(std::move(last));
          last = std::move(list);
        }
        last->range = SourceRange::span(last->range, value->range);
        last->items.push_back(std::move(value));
        continue;
      }
      s->argNames.push_back(named ? arg->getStart()->getText() : "");
      s->items.push_back(std::move(value));
    }
  }
  return s;
}

// The value of a setArg. An expression that is a set atom (a number, a negated number, a
// name, a power of two integers) becomes that atom, as a set argument always read; any other
// expression is kept as an Arith set.
ast::SetExprPtr Transformer::setArgValue(antlr4::tree::ParseTree* value) {
  if (auto* set = dynamic_cast<P::SetExprContext*>(value)) return setExpr(set);
  auto* ctx = static_cast<P::ExprContext*>(value);
  auto s = std::make_unique<ast::SetExpr>();
  s->range = loc_.range(ctx);
  ast::ExprPtr e = expr(ctx);
  if (!e) return s;
  const ast::Expr* number = e.get();
  if (e->kind == ast::ExprKind::Unary && static_cast<const ast::UnaryExpr&>(*e).op == "-") {
    number = static_cast<const ast::UnaryExpr&>(*e).operand.get();
    s->negative = true;
  }
  auto intLiteral = [](const ast::Expr* x) {
    return x->kind == ast::ExprKind::Number && static_cast<const ast::NumberExpr&>(*x).numberKind == ast::NumberKind::Int;
  };
  if (number->kind == ast::ExprKind::Number) {
    s->kind = ast::SetKind::Number;
    s->text = static_cast<const ast::NumberExpr&>(*number).text;
  } else if (!s->negative && e->kind == ast::ExprKind::Name) {
    s->kind = ast::SetKind::Name;
    s->text = static_cast<const ast::NameExpr&>(*e).name;
  } else if (!s->negative && e->kind == ast::ExprKind::Binary && static_cast<const ast::BinaryExpr&>(*e).op == "^" &&
             intLiteral(static_cast<const ast::BinaryExpr&>(*e).lhs.get()) &&
             intLiteral(static_cast<const ast::BinaryExpr&>(*e).rhs.get())) {
    const auto& b = static_cast<const ast::BinaryExpr&>(*e);
    s->kind = ast::SetKind::Power;
    s->text = static_cast<const ast::NumberExpr&>(*b.lhs).text;
    s->text2 = static_cast<const ast::NumberExpr&>(*b.rhs).text;
  } else {
    s->negative = false;
    s->kind = ast::SetKind::Arith;
    s->arith = std::move(e);
  }
  return s;
}

// setAtom : '-'? number '%'?  |  INT '^' INT  |  ident  |  STRING  |  '(' expr ')'
ast::SetExprPtr Transformer::setAtom(P::SetAtomContext* ctx) {
  auto s = std::make_unique<ast::SetExpr>();
  s->range = loc_.range(ctx);
  const auto& kids = ctx->children;
  size_t first = ctx->getStart()->getType();
  if (first == P::LPAREN) {
    s->kind = ast::SetKind::Arith;
    s->arith = expr(static_cast<P::ExprContext*>(kids[1]));
  } else if (first == P::STRING) {
    s->kind = ast::SetKind::String;
    std::string text = ctx->getStart()->getText();
    s->text = text.substr(1, text.size() - 2);
  } else if (first == P::INT && kids.size() == 3) {
    s->kind = ast::SetKind::Power;
    s->text = children::symbol(kids[0])->getText();
    s->text2 = children::symbol(kids[2])->getText();
  } else if (first == P::MINUS || first == P::INT || first == P::FLOAT || first == P::HEXFLOAT) {
    s->kind = ast::SetKind::Number;
    s->negative = first == P::MINUS;
    s->percent = children::isToken(kids.back()) && children::symbol(kids.back())->getType() == P::PERCENT;
    s->text = static_cast<antlr4::ParserRuleContext*>(kids[s->negative ? 1 : 0])->getStart()->getText();  // number
  } else {
    s->kind = ast::SetKind::Name;
    s->text = ctx->getStart()->getText();  // ident: one token
  }
  return s;
}

}  // namespace kc::parse

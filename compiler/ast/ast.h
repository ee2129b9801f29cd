#pragma once
// The kcontract AST: the project's own classes, produced from ANTLR parse contexts by the
// transformer in compiler/parse and never containing an ANTLR type. Every node carries a
// SourceRange; compound nodes span their children. Parentheses are kept (ParenExpr) so the
// formatter reproduces the author's grouping; semantic analysis looks through them.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"

namespace kc::ast {

struct Ident {
  std::string name;
  SourceRange range;
};

// std.exc.nan-propagation — the parts joined with their separators ('.' or '-').
struct QualifiedName {
  std::string text;
  SourceRange range;
};

// std.exc.nan-propagation@1
struct ContractId {
  QualifiedName name;
  int version = 0;
  SourceRange range;
  std::string str() const { return name.text + "@" + std::to_string(version); }
};

struct StringLit {
  std::string value;  // without quotes, escapes kept as written
  SourceRange range;
};

// ---------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------

enum class ExprKind {
  Number,       // 4, 1.5e-3, 0x1p-24
  Name,         // x, H, f32, inf
  Ref,          // y*  (the oracle's value of output y)
  Index,        // x[r, h]
  Call,         // exp(x), ulp(T, v)
  Reduction,    // sum(k, e), max(h in 0..H-1, e)
  Unary,        // -e, !e
  Binary,       // + - * / % ^ && || ->
  Compare,      // a < b <= c (chains)
  Abs,          // |e|
  Paren,        // (e)
  Quantifier,   // forall r, h: e
  Conditional,  // if c then a else b
};

enum class NumberKind { Int, Float, HexFloat };

struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  ExprKind kind;
  SourceRange range;
};
using ExprPtr = std::unique_ptr<Expr>;

struct NumberExpr : Expr {
  NumberExpr() : Expr(ExprKind::Number) {}
  NumberKind numberKind = NumberKind::Int;
  std::string text;  // as written
};

struct NameExpr : Expr {
  NameExpr() : Expr(ExprKind::Name) {}
  std::string name;
};

struct RefExpr : Expr {
  RefExpr() : Expr(ExprKind::Ref) {}
  std::string name;  // without the '*'
};

struct IndexExpr : Expr {
  IndexExpr() : Expr(ExprKind::Index) {}
  ExprPtr base;
  std::vector<ExprPtr> indices;
};

struct CallExpr : Expr {
  CallExpr() : Expr(ExprKind::Call) {}
  Ident callee;
  std::vector<ExprPtr> args;
};

// A binder of a reduction or quantifier: a name with an optional inclusive range.
struct Binder {
  Ident name;
  ExprPtr lo, hi;  // both null when the range is inferred from use
  SourceRange range;
};

struct ReductionExpr : Expr {
  ReductionExpr() : Expr(ExprKind::Reduction) {}
  std::string op;  // sum, prod, max, min
  Binder var;
  ExprPtr body;
};

struct UnaryExpr : Expr {
  UnaryExpr() : Expr(ExprKind::Unary) {}
  std::string op;  // "-" or "!"
  ExprPtr operand;
};

struct BinaryExpr : Expr {
  BinaryExpr() : Expr(ExprKind::Binary) {}
  std::string op;
  ExprPtr lhs, rhs;
};

struct CompareExpr : Expr {
  CompareExpr() : Expr(ExprKind::Compare) {}
  std::vector<ExprPtr> operands;  // n+1 operands
  std::vector<std::string> ops;   // n operators
};

struct AbsExpr : Expr {
  AbsExpr() : Expr(ExprKind::Abs) {}
  ExprPtr operand;
};

struct ParenExpr : Expr {
  ParenExpr() : Expr(ExprKind::Paren) {}
  ExprPtr inner;
};

struct QuantifierExpr : Expr {
  QuantifierExpr() : Expr(ExprKind::Quantifier) {}
  bool isForall = true;
  std::vector<Binder> binders;
  ExprPtr body;
};

struct ConditionalExpr : Expr {
  ConditionalExpr() : Expr(ExprKind::Conditional) {}
  ExprPtr cond, thenExpr, elseExpr;
};

// ---------------------------------------------------------------------------------------
// Protocol set expressions: {1, 3}, 1..8, boundary(tiles: 32, 64) + {1}, normal(0, 1) | nan
// ---------------------------------------------------------------------------------------

enum class SetKind {
  Literal,  // { items }
  Range,    // items[0] .. items[1]
  Call,     // text(argNames[i]: items[i], ...)
  Number,   // text, optionally negative and/or a percentage
  Power,    // text ^ text2  (2^31)
  Name,     // text
  String,   // text
  Arith,    // ( expr )
  Chain,    // items[0] ops[0] items[1] ...   ops are '+' (union) or '|' (alternatives)
};

struct SetExpr;
using SetExprPtr = std::unique_ptr<SetExpr>;

struct SetExpr {
  SetKind kind = SetKind::Name;
  SourceRange range;
  std::string text;
  std::string text2;                 // Power exponent
  bool negative = false;             // Number
  bool percent = false;              // Number
  bool bare = false;                 // Literal written without braces: `tiles: 32, 64`
  std::vector<SetExprPtr> items;
  std::vector<std::string> argNames;  // Call: "" for a positional argument
  std::vector<char> ops;              // Chain
  ExprPtr arith;                      // Arith
};

// A name, or `*` for every tensor.
struct Target {
  std::string name;  // "*" for all
  SourceRange range;
};

// ---------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------

struct Param {
  Ident name;
  Ident dtype;
  bool hasShape = false;        // `T[]` (rank 0, explicit) vs `T` (scalar)
  std::vector<ExprPtr> dims;
  SourceRange range;
};

struct Signature {
  std::vector<Param> inputs;
  std::vector<Param> outputs;
  SourceRange range;
};

// `H in 1..262144` or `T in {f32, bf16}`
struct DomainItem {
  Ident name;
  bool isRange = false;
  ExprPtr lo, hi;                  // range
  std::vector<ExprPtr> elements;   // set
  SourceRange range;
};

// --- sections -----------------------------------------------------------------------------

enum class SectionKind { Scope, Pre, Post, Oracle, Tolerance, Protocol, Signature };
const char* sectionKeyword(SectionKind kind);

struct Section {
  explicit Section(SectionKind k) : kind(k) {}
  virtual ~Section() = default;
  SectionKind kind;
  SourceRange range;
  SourceRange bodyRange;  // the braces and what is between them
};
using SectionPtr = std::unique_ptr<Section>;

enum class ScopeItemKind { Kernels, Ops, Layouts, Backends, Domains };

struct LayoutBinding {
  Target target;
  SetExprPtr layouts;
  SourceRange range;
};

struct ScopeItem {
  ScopeItemKind kind = ScopeItemKind::Kernels;
  std::vector<Ident> names;             // Kernels, Backends
  std::vector<QualifiedName> ops;       // Ops
  std::vector<LayoutBinding> layouts;   // Layouts
  std::vector<DomainItem> domains;      // Domains
  SourceRange range;
};

struct ScopeSection : Section {
  ScopeSection() : Section(SectionKind::Scope) {}
  std::vector<ScopeItem> items;
};

// pre { ... } and post { ... }: one boolean expression per statement.
struct ExprSection : Section {
  explicit ExprSection(SectionKind k) : Section(k) {}
  std::vector<ExprPtr> stmts;
};

// name[i, j] = expr    or    name = expr
struct Definition {
  Ident name;
  bool hasIndices = false;
  std::vector<Ident> indices;
  ExprPtr value;
  SourceRange range;
};

struct Precision {
  Ident name;             // f64, mpfr
  std::optional<int> bits;  // mpfr(256)
  SourceRange range;
};

// oracle [precision] { defs } and tolerance { defs }
struct DefSection : Section {
  explicit DefSection(SectionKind k) : Section(k) {}
  std::optional<Precision> precision;  // oracle only
  std::vector<Definition> defs;
  // tolerance exact: one word for `tolerance { tol = 0 }` (defs holds that definition).
  bool exact = false;
};

enum class ProtocolItemKind { Seeds, Repeats, Dims, Values, Layouts, Cells, Perturb, Case };
const char* protocolKeyword(ProtocolItemKind kind);

// `R in {1, 3}`, `x ~ normal(0, 1)`, `x in {contiguous}`
struct ProtocolBinding {
  Target target;
  SetExprPtr set;
  SourceRange range;
  bool tilde = false;  // `x ~ ...` (in a `case`, where both forms mix)
};

struct ProtocolItem {
  ProtocolItemKind kind = ProtocolItemKind::Seeds;
  SetExprPtr value;                       // Seeds, Repeats, Cells, Perturb
  std::vector<ProtocolBinding> bindings;  // Dims, Values, Layouts, Case
  SourceRange range;
};

struct ProtocolSection : Section {
  ProtocolSection() : Section(SectionKind::Protocol) {}
  std::vector<ProtocolItem> items;
};

enum class SignatureClauseKind { FailsWhen, FailsOnlyWhen, WrongCells, ErrorGrows, DiffersRunToRun, ErrorBound };

struct SignatureClause {
  SignatureClauseKind kind = SignatureClauseKind::FailsWhen;
  ExprPtr expr;        // FailsWhen, FailsOnlyWhen, WrongCells, ErrorBound
  Ident dim;           // ErrorGrows
  std::vector<Ident> cells;  // WrongCells: `wrong cells [r, c]:` names the cell's indices
  std::string compareOp;  // ErrorBound
  SourceRange range;
};

struct SignatureSection : Section {
  SignatureSection() : Section(SectionKind::Signature) {}
  QualifiedName name;
  std::vector<SignatureClause> clauses;
};

// --- top-level items ----------------------------------------------------------------------

enum class ItemKind { Import, Kernel, Op, Contract, Class };

struct Item {
  explicit Item(ItemKind k) : kind(k) {}
  virtual ~Item() = default;
  ItemKind kind;
  SourceRange range;
};
using ItemPtr = std::unique_ptr<Item>;

struct ImportDecl : Item {
  ImportDecl() : Item(ItemKind::Import) {}
  QualifiedName module;
};

struct KernelDecl : Item {
  KernelDecl() : Item(ItemKind::Kernel) {}
  Ident name;
  Signature signature;
  std::vector<DomainItem> where;
  std::optional<QualifiedName> implements;
};

struct OpDecl : Item {
  OpDecl() : Item(ItemKind::Op) {}
  QualifiedName name;
  Signature signature;
  std::vector<DomainItem> where;
  std::vector<SectionPtr> sections;
  SourceRange bodyRange;
};

// A contract, or (isClass) a standard contract class that contracts apply.
struct ContractDecl : Item {
  explicit ContractDecl(bool cls) : Item(cls ? ItemKind::Class : ItemKind::Contract) {}
  ContractId id;
  std::optional<StringLit> title;
  std::vector<ContractId> applies;
  std::vector<SectionPtr> sections;
  SourceRange bodyRange;
};

struct Comment {
  std::string text;  // including the // or /* */ markers
  SourceRange range;
};

struct File {
  uint32_t fileId = 0;
  int version = 0;
  SourceRange headerRange;
  std::vector<ItemPtr> items;
  std::vector<Comment> comments;  // in source order
  SourceRange range;
};

}  // namespace kc::ast

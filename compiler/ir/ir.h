#pragma once
// The expression IR: one typed, shape-checked form for oracles, tolerances, pre- and
// postconditions and signatures (docs/design.md §3). Sema builds it from the AST; the f64 and
// MPFR evaluators, the SMT backend and the planner consume it. Every node keeps the source
// range of the AST it came from.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/diag/source.h"

namespace kc::ir {

enum class Type : uint8_t {
  Bool,
  Int,     // exact integers: dims, indices, counts
  Real,    // mathematical reals (evaluated in f64 or MPFR; reals in SMT)
  DType,   // an element type: f32, or a dtype variable such as T
  Tensor,  // a whole tensor, only as the argument of a whole-tensor statistic (max(x))
};
const char* typeName(Type t);

enum class Op : uint8_t {
  // leaves
  ConstInt,     // i
  ConstReal,    // d (text keeps the literal as written)
  ConstBool,    // b
  DTypeConst,   // name: f32, bf16, ...
  DTypeVar,     // name: T (one of the kernel's dtype variables)
  Dim,          // name: a symbolic dimension of the kernel
  IndexVar,     // name: bound by a quantifier, reduction or definition
  TensorRead,   // name, role; kids: indices (Int), as many as the tensor's rank
  TensorWhole,  // name, role: the whole tensor (argument of TensorStat)
  // arithmetic (Int or Real)
  Neg, Add, Sub, Mul, Div, Mod, Pow, Abs,
  // comparison (Bool)
  Lt, Le, Gt, Ge, Eq, Ne,
  // logic (Bool)
  Not, And, Or, Implies,
  Select,       // kids: cond, then, else
  Call,         // name: an elementwise builtin (exp, log, sqrt, fmax, isnan, ...)
  DTypeQuery,   // name: ulp, eps, unit_roundoff, min_normal, max_finite, gamma; kids: dtype first
  RoundTo,      // kids: dtype, value: the value rounded to nearest-even in that dtype
  TensorStat,   // name: max, min, sum over every cell; kids: one TensorWhole
  Reduce,       // name: sum, prod, max, min; vars[0]; kids: lo, hi, body
  Quantifier,   // b: forall (true) / exists; vars; kids: lo0, hi0, lo1, hi1, ..., body
};
const char* opName(Op op);

// What a tensor name refers to.
enum class Role : uint8_t {
  Input,   // a kernel input
  Output,  // a kernel output, as the kernel wrote it
  Oracle,  // y*: the oracle's value of an output
  Local,   // a definition of the oracle or tolerance section (m[r], tol[r, h])
};
const char* roleName(Role r);

struct Node;
using NodePtr = std::unique_ptr<Node>;

struct Node {
  Op op;
  Type type;
  SourceRange range;
  std::vector<NodePtr> kids;
  int64_t i = 0;
  double d = 0;
  bool b = false;
  std::string name;               // dtype, variable, dim, tensor, function or reducer name
  std::string text;               // ConstReal: the literal as written
  Role role = Role::Input;        // TensorRead, TensorWhole
  std::vector<std::string> vars;  // Reduce, Quantifier

  Node(Op o, Type t, SourceRange r) : op(o), type(t), range(r) {}
  NodePtr clone() const;
};

// --- construction -------------------------------------------------------------------------
NodePtr makeInt(int64_t v, SourceRange r);
NodePtr makeReal(double v, SourceRange r, std::string text = "");
NodePtr makeBool(bool v, SourceRange r);
NodePtr makeLeaf(Op op, Type t, std::string name, SourceRange r);
NodePtr makeNode(Op op, Type t, SourceRange r, std::vector<NodePtr> kids);

bool isArithmetic(Op op);
// base^exponent for exponent >= 0, by squaring; nullopt on int64 overflow.
std::optional<int64_t> intPow(int64_t base, int64_t exponent);
// floor(a / b) for integers (Op::Div typed Int); nullopt for b == 0 and INT64_MIN / -1.
std::optional<int64_t> floorDiv(int64_t a, int64_t b);
// a % b for integers (Op::Mod): the floored remainder a - b * floor(a / b), with b's sign
// (Python's %, so -7 % 4 == 1); nullopt for b == 0.
std::optional<int64_t> floorMod(int64_t a, int64_t b);
bool isComparison(Op op);
bool isLogic(Op op);

// --- printers ------------------------------------------------------------------------------
// Infix, close to the source language: `|y[r, h] - y*[r, h]| <= tol[r, h]`.
std::string print(const Node& n);
// S-expression with types: (<= :bool (abs :real (- :real ...)) ...).
std::string printSExpr(const Node& n);

// --- passes ----------------------------------------------------------------------------------
// Folds constant subtrees: integer arithmetic (exact, overflow left unfolded), real
// arithmetic, comparisons, logic, powers of integers, and dtype queries of known dtypes.
NodePtr fold(NodePtr n);

// Calls f on every node, parents before children.
template <class F>
void walk(const Node& n, F&& f) {
  f(n);
  for (const auto& k : n.kids) walk(*k, f);
}

}  // namespace kc::ir

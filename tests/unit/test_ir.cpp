// The expression IR (compiler/ir): constant folding, the infix and S-expression printers,
// clone, and the integer evaluator, on trees built by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "compiler/ir/eval.h"
#include "compiler/ir/ir.h"

using namespace kc;
using namespace kc::ir;

namespace {

SourceRange at(uint32_t line, uint32_t column) {
  SourceRange r;
  r.file = 1;
  r.begin = SourcePos{line, column, 0};
  r.end = SourcePos{line, column + 1, 1};
  return r;
}

const SourceRange R = at(1, 1);

NodePtr i64(int64_t v) { return makeInt(v, R); }
NodePtr real(double v, std::string text = "") { return makeReal(v, R, std::move(text)); }
NodePtr boolean(bool v) { return makeBool(v, R); }
NodePtr dim(const char* n) { return makeLeaf(Op::Dim, Type::Int, n, R); }
NodePtr idx(const char* n) { return makeLeaf(Op::IndexVar, Type::Int, n, R); }
NodePtr dtype(const char* n) { return makeLeaf(Op::DTypeConst, Type::DType, n, R); }
NodePtr dtypeVar(const char* n) { return makeLeaf(Op::DTypeVar, Type::DType, n, R); }

std::vector<NodePtr> list(NodePtr a) {
  std::vector<NodePtr> v;
  v.push_back(std::move(a));
  return v;
}
std::vector<NodePtr> list(NodePtr a, NodePtr b) {
  std::vector<NodePtr> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  return v;
}
std::vector<NodePtr> list(NodePtr a, NodePtr b, NodePtr c) {
  std::vector<NodePtr> v;
  v.push_back(std::move(a));
  v.push_back(std::move(b));
  v.push_back(std::move(c));
  return v;
}

NodePtr bin(Op op, Type t, NodePtr a, NodePtr b) { return makeNode(op, t, R, list(std::move(a), std::move(b))); }
NodePtr un(Op op, Type t, NodePtr a) { return makeNode(op, t, R, list(std::move(a))); }

// An unfoldable boolean: i < N.
NodePtr opaqueBool() { return bin(Op::Lt, Type::Bool, idx("i"), dim("N")); }

NodePtr read(const char* name, Role role, std::vector<NodePtr> indices) {
  auto n = std::make_unique<Node>(Op::TensorRead, Type::Real, R);
  n->name = name;
  n->role = role;
  n->kids = std::move(indices);
  return n;
}

NodePtr query(const char* name, std::vector<NodePtr> kids) {
  auto n = makeNode(Op::DTypeQuery, Type::Real, R, std::move(kids));
  n->name = name;
  return n;
}

NodePtr call(const char* name, Type t, std::vector<NodePtr> kids) {
  auto n = makeNode(Op::Call, t, R, std::move(kids));
  n->name = name;
  return n;
}

// |y[r, h] - y*[r, h]| <= tol[r, h]
NodePtr toleranceCheck() {
  auto diff = bin(Op::Sub, Type::Real, read("y", Role::Output, list(idx("r"), idx("h"))),
                  read("y", Role::Oracle, list(idx("r"), idx("h"))));
  return bin(Op::Le, Type::Bool, un(Op::Abs, Type::Real, std::move(diff)),
             read("tol", Role::Local, list(idx("r"), idx("h"))));
}

const int64_t kMax = std::numeric_limits<int64_t>::max();
const int64_t kMin = std::numeric_limits<int64_t>::min();

}  // namespace

// --- fold: integers ------------------------------------------------------------------------

TEST_CASE("fold computes exact integer arithmetic", "[ir][fold]") {
  auto n = fold(bin(Op::Add, Type::Int, i64(2), bin(Op::Mul, Type::Int, i64(3), i64(4))));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->type == Type::Int);
  CHECK(n->i == 14);

  n = fold(bin(Op::Sub, Type::Int, i64(2), i64(5)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == -3);

  n = fold(bin(Op::Mod, Type::Int, i64(17), i64(5)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == 2);

  n = fold(bin(Op::Pow, Type::Int, i64(2), i64(31)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == 2147483648LL);

  n = fold(bin(Op::Pow, Type::Int, i64(7), i64(0)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == 1);

  n = fold(un(Op::Neg, Type::Int, i64(5)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == -5);

  n = fold(un(Op::Abs, Type::Int, i64(-5)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == 5);
}

TEST_CASE("fold leaves integer overflow unfolded instead of wrapping", "[ir][fold]") {
  SECTION("addition") {
    auto n = fold(bin(Op::Add, Type::Int, i64(kMax), i64(1)));
    REQUIRE(n->op == Op::Add);
    REQUIRE(n->kids.size() == 2);
    CHECK(n->kids[0]->i == kMax);
    CHECK(n->kids[1]->i == 1);
  }
  SECTION("subtraction") {
    auto n = fold(bin(Op::Sub, Type::Int, i64(kMin), i64(1)));
    CHECK(n->op == Op::Sub);
  }
  SECTION("multiplication") {
    auto n = fold(bin(Op::Mul, Type::Int, i64(int64_t{1} << 62), i64(4)));
    CHECK(n->op == Op::Mul);
  }
  SECTION("powers: 2^62 folds, 2^63 does not") {
    auto ok = fold(bin(Op::Pow, Type::Int, i64(2), i64(62)));
    REQUIRE(ok->op == Op::ConstInt);
    CHECK(ok->i == int64_t{1} << 62);
    auto over = fold(bin(Op::Pow, Type::Int, i64(2), i64(63)));
    CHECK(over->op == Op::Pow);
    CHECK(print(*over) == "2^63");
  }
  SECTION("the overflowing part stays, the parts around it fold") {
    // (2^62 * 4) + (1 + 1): the product overflows, the sum of ones folds.
    auto n = fold(bin(Op::Add, Type::Int, bin(Op::Mul, Type::Int, bin(Op::Pow, Type::Int, i64(2), i64(62)), i64(4)),
                      bin(Op::Add, Type::Int, i64(1), i64(1))));
    CHECK(n->op == Op::Add);
    CHECK(print(*n) == "4611686018427387904 * 4 + 2");
  }
  SECTION("negating or taking |.| of INT64_MIN") {
    CHECK(fold(un(Op::Neg, Type::Int, i64(kMin)))->op == Op::Neg);
    CHECK(fold(un(Op::Abs, Type::Int, i64(kMin)))->op == Op::Abs);
  }
  SECTION("modulo by zero and negative powers are not folded") {
    CHECK(fold(bin(Op::Mod, Type::Int, i64(3), i64(0)))->op == Op::Mod);
    CHECK(fold(bin(Op::Pow, Type::Int, i64(2), i64(-1)))->op == Op::Pow);
  }
}

TEST_CASE("fold does not touch integers with free dimensions or indices", "[ir][fold]") {
  auto n = fold(bin(Op::Sub, Type::Int, dim("N"), i64(1)));
  CHECK(n->op == Op::Sub);
  CHECK(print(*n) == "N - 1");
  // Only the constant operand folds.
  n = fold(bin(Op::Add, Type::Int, idx("i"), bin(Op::Mul, Type::Int, i64(2), i64(3))));
  CHECK(print(*n) == "i + 6");
}

// --- fold: reals -------------------------------------------------------------------------

TEST_CASE("fold computes real arithmetic, mixing ints and reals", "[ir][fold]") {
  auto n = fold(bin(Op::Mul, Type::Real, real(1.5), i64(2)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->type == Type::Real);
  CHECK(n->d == 3.0);

  n = fold(bin(Op::Div, Type::Real, i64(1), i64(4)));  // '/' is real even on integers
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 0.25);

  n = fold(bin(Op::Pow, Type::Real, real(2.0), i64(-1)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 0.5);

  n = fold(bin(Op::Sub, Type::Real, real(0.5), real(2.0)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == -1.5);

  n = fold(un(Op::Neg, Type::Real, real(2.5)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == -2.5);

  n = fold(un(Op::Abs, Type::Real, real(-0.75)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 0.75);
}

TEST_CASE("fold leaves division by zero and sqrt of a negative alone", "[ir][fold]") {
  CHECK(fold(bin(Op::Div, Type::Real, i64(1), i64(0)))->op == Op::Div);
  CHECK(fold(bin(Op::Div, Type::Real, real(1.0), real(0.0)))->op == Op::Div);
  CHECK(fold(call("sqrt", Type::Real, list(real(-1.0))))->op == Op::Call);

  auto n = fold(call("sqrt", Type::Real, list(i64(16))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 4.0);
  // Other calls are never folded.
  CHECK(fold(call("exp", Type::Real, list(real(0.0))))->op == Op::Call);
}

TEST_CASE("fold drops the literal text of a computed real", "[ir][fold]") {
  auto lit = real(0.1, "0.1");
  CHECK(print(*lit) == "0.1");
  auto n = fold(bin(Op::Mul, Type::Real, real(0.1, "0.1"), i64(1)));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->text.empty());
  CHECK(print(*n) == "0.10000000000000001");
}

// --- fold: comparisons and logic -------------------------------------------------------------

TEST_CASE("fold decides comparisons of constants", "[ir][fold]") {
  auto n = fold(bin(Op::Lt, Type::Bool, i64(3), i64(4)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  n = fold(bin(Op::Eq, Type::Bool, i64(2), real(2.0)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  n = fold(bin(Op::Ge, Type::Bool, real(0.5), i64(1)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK_FALSE(n->b);
  n = fold(bin(Op::Ne, Type::Bool, i64(3), i64(4)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  CHECK(fold(opaqueBool())->op == Op::Lt);
}

TEST_CASE("fold short-circuits && with a constant operand", "[ir][fold]") {
  CHECK(fold(bin(Op::And, Type::Bool, boolean(false), opaqueBool()))->op == Op::ConstBool);
  CHECK_FALSE(fold(bin(Op::And, Type::Bool, opaqueBool(), boolean(false)))->b);
  auto n = fold(bin(Op::And, Type::Bool, boolean(true), opaqueBool()));
  CHECK(n->op == Op::Lt);  // true && p is p
  n = fold(bin(Op::And, Type::Bool, opaqueBool(), boolean(true)));
  CHECK(n->op == Op::Lt);
  CHECK(fold(bin(Op::And, Type::Bool, opaqueBool(), opaqueBool()))->op == Op::And);
}

TEST_CASE("fold short-circuits || with a constant operand", "[ir][fold]") {
  auto n = fold(bin(Op::Or, Type::Bool, boolean(true), opaqueBool()));
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  n = fold(bin(Op::Or, Type::Bool, opaqueBool(), boolean(true)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  CHECK(fold(bin(Op::Or, Type::Bool, boolean(false), opaqueBool()))->op == Op::Lt);
  CHECK(fold(bin(Op::Or, Type::Bool, opaqueBool(), boolean(false)))->op == Op::Lt);
}

TEST_CASE("fold simplifies -> with a constant operand", "[ir][fold]") {
  auto n = fold(bin(Op::Implies, Type::Bool, boolean(false), opaqueBool()));  // false -> p
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  n = fold(bin(Op::Implies, Type::Bool, opaqueBool(), boolean(true)));  // p -> true
  REQUIRE(n->op == Op::ConstBool);
  CHECK(n->b);
  CHECK(fold(bin(Op::Implies, Type::Bool, boolean(true), opaqueBool()))->op == Op::Lt);  // true -> p is p
  // p -> false is !p; fold keeps the implication.
  CHECK(fold(bin(Op::Implies, Type::Bool, opaqueBool(), boolean(false)))->op == Op::Implies);
}

TEST_CASE("fold evaluates ! and if with constant conditions", "[ir][fold]") {
  auto n = fold(un(Op::Not, Type::Bool, boolean(true)));
  REQUIRE(n->op == Op::ConstBool);
  CHECK_FALSE(n->b);
  // !(1 < 2) folds bottom-up.
  n = fold(un(Op::Not, Type::Bool, bin(Op::Lt, Type::Bool, i64(1), i64(2))));
  REQUIRE(n->op == Op::ConstBool);
  CHECK_FALSE(n->b);

  n = fold(makeNode(Op::Select, Type::Real, R, list(boolean(false), dim("N"), real(2.5))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 2.5);
  n = fold(makeNode(Op::Select, Type::Int, R, list(boolean(true), dim("N"), i64(2))));
  CHECK(n->op == Op::Dim);
  CHECK(fold(makeNode(Op::Select, Type::Int, R, list(opaqueBool(), dim("N"), i64(2))))->op == Op::Select);
}

// --- fold: dtype queries -------------------------------------------------------------------

TEST_CASE("fold evaluates dtype queries of known float dtypes", "[ir][fold]") {
  auto n = fold(query("eps", list(dtype("f32"))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -23));

  n = fold(query("eps", list(dtype("bf16"))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -7));

  n = fold(query("unit_roundoff", list(dtype("f64"))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -53));

  n = fold(query("min_normal", list(dtype("f32"))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -126));

  n = fold(query("max_finite", list(dtype("f16"))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == 65504.0);

  n = fold(query("ulp", list(dtype("f32"), real(1.0))));
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -23));

  n = fold(query("ulp", list(dtype("f32"), i64(3))));  // an integer argument is a number too
  REQUIRE(n->op == Op::ConstReal);
  CHECK(n->d == std::ldexp(1.0, -22));
}

TEST_CASE("fold evaluates gamma(n, T) for a constant count and a known dtype", "[ir][fold]") {
  auto n = fold(query("gamma", list(i64(4), dtype("f32"))));
  REQUIRE(n->op == Op::ConstReal);
  const double u = std::ldexp(1.0, -24);
  CHECK(n->d == Approx(4 * u / (1 - 4 * u)).epsilon(1e-15));
  CHECK(n->d > 4 * u);

  // The count folds first: gamma(2 * 2, f32) is gamma(4, f32).
  auto m = fold(query("gamma", list(bin(Op::Mul, Type::Int, i64(2), i64(2)), dtype("f32"))));
  REQUIRE(m->op == Op::ConstReal);
  CHECK(m->d == n->d);

  CHECK(fold(query("gamma", list(dim("K"), dtype("f32"))))->op == Op::DTypeQuery);
  CHECK(fold(query("gamma", list(i64(-1), dtype("f32"))))->op == Op::DTypeQuery);
  CHECK(fold(query("gamma", list(i64(4), dtypeVar("T"))))->op == Op::DTypeQuery);
}

TEST_CASE("fold leaves dtype queries of variables, integer dtypes and free values", "[ir][fold]") {
  CHECK(fold(query("eps", list(dtypeVar("T"))))->op == Op::DTypeQuery);
  CHECK(fold(query("eps", list(dtype("i32"))))->op == Op::DTypeQuery);
  auto n = fold(query("ulp", list(dtype("f32"), read("y", Role::Oracle, list(idx("i"))))));
  CHECK(n->op == Op::DTypeQuery);
  CHECK(print(*n) == "ulp(f32, y*[i])");
}

TEST_CASE("fold keeps the source range of the node it replaces", "[ir][fold]") {
  auto n = makeNode(Op::Add, Type::Int, at(3, 7), list(i64(1), i64(2)));
  auto f = fold(std::move(n));
  REQUIRE(f->op == Op::ConstInt);
  CHECK(f->range.begin.line == 3);
  CHECK(f->range.begin.column == 7);
}

// --- printers --------------------------------------------------------------------------------

TEST_CASE("print writes a tolerance check as it would be written", "[ir][print]") {
  auto n = toleranceCheck();
  CHECK(print(*n) == "|y[r, h] - y*[r, h]| <= tol[r, h]");
  CHECK(printSExpr(*n) ==
        "(<= :bool (abs :real (- :real (read output y :real r h) (read oracle y :real r h))) "
        "(read local tol :real r h))");
}

TEST_CASE("print parenthesises by precedence and associativity", "[ir][print]") {
  auto sum = [] { return bin(Op::Add, Type::Int, idx("a"), idx("b")); };
  CHECK(print(*bin(Op::Mul, Type::Int, sum(), idx("c"))) == "(a + b) * c");
  CHECK(print(*bin(Op::Add, Type::Int, idx("c"), bin(Op::Mul, Type::Int, idx("a"), idx("b")))) == "c + a * b");
  CHECK(print(*bin(Op::Sub, Type::Int, bin(Op::Sub, Type::Int, idx("a"), idx("b")), idx("c"))) == "a - b - c");
  CHECK(print(*bin(Op::Sub, Type::Int, idx("a"), bin(Op::Sub, Type::Int, idx("b"), idx("c")))) == "a - (b - c)");
  // ^ is right-associative and binds tighter than prefix minus.
  CHECK(print(*bin(Op::Pow, Type::Int, i64(2), bin(Op::Pow, Type::Int, i64(3), i64(2)))) == "2^3^2");
  CHECK(print(*bin(Op::Pow, Type::Int, bin(Op::Pow, Type::Int, i64(2), i64(3)), i64(2))) == "(2^3)^2");
  CHECK(print(*un(Op::Neg, Type::Int, bin(Op::Pow, Type::Int, i64(2), i64(2)))) == "-2^2");
  CHECK(print(*bin(Op::Pow, Type::Int, un(Op::Neg, Type::Int, i64(2)), i64(2))) == "(-2)^2");
  // -> is right-associative.
  CHECK(print(*bin(Op::Implies, Type::Bool, opaqueBool(), bin(Op::Implies, Type::Bool, opaqueBool(), opaqueBool()))) ==
        "i < N -> i < N -> i < N");
  CHECK(print(*bin(Op::Implies, Type::Bool, bin(Op::Implies, Type::Bool, opaqueBool(), opaqueBool()), opaqueBool())) ==
        "(i < N -> i < N) -> i < N");
  CHECK(print(*bin(Op::And, Type::Bool, bin(Op::Or, Type::Bool, opaqueBool(), opaqueBool()), opaqueBool())) ==
        "(i < N || i < N) && i < N");
  CHECK(print(*un(Op::Not, Type::Bool, opaqueBool())) == "!(i < N)");
}

TEST_CASE("print writes quantifiers, reductions, statistics and conditionals", "[ir][print]") {
  // forall i in 0..N - 1: x[i] >= 0
  auto q = std::make_unique<Node>(Op::Quantifier, Type::Bool, R);
  q->b = true;
  q->vars = {"i"};
  q->kids.push_back(i64(0));
  q->kids.push_back(bin(Op::Sub, Type::Int, dim("N"), i64(1)));
  q->kids.push_back(bin(Op::Ge, Type::Bool, read("x", Role::Input, list(idx("i"))), i64(0)));
  CHECK(print(*q) == "forall i in 0..N - 1: x[i] >= 0");
  CHECK(printSExpr(*q) == "(forall (i) :bool 0 (- :int N 1) (>= :bool (read input x :real i) 0))");

  // A quantifier as an operand is parenthesised.
  auto both = bin(Op::And, Type::Bool, q->clone(), opaqueBool());
  CHECK(print(*both) == "(forall i in 0..N - 1: x[i] >= 0) && i < N");

  // exists with two binders
  auto e = std::make_unique<Node>(Op::Quantifier, Type::Bool, R);
  e->b = false;
  e->vars = {"r", "h"};
  e->kids.push_back(i64(0));
  e->kids.push_back(dim("R"));
  e->kids.push_back(i64(1));
  e->kids.push_back(dim("H"));
  e->kids.push_back(boolean(true));
  CHECK(print(*e) == "exists r in 0..R, h in 1..H: true");
  CHECK(printSExpr(*e) == "(exists (r h) :bool 0 R 1 H true)");

  // sum(k in 0..K - 1, a[k])
  auto s = makeNode(Op::Reduce, Type::Real, R,
                    list(i64(0), bin(Op::Sub, Type::Int, dim("K"), i64(1)), read("a", Role::Input, list(idx("k")))));
  s->name = "sum";
  s->vars = {"k"};
  CHECK(print(*s) == "sum(k in 0..K - 1, a[k])");
  CHECK(printSExpr(*s) == "(sum k :real 0 (- :int K 1) (read input a :real k))");

  // max(x) over a whole tensor
  auto whole = std::make_unique<Node>(Op::TensorWhole, Type::Tensor, R);
  whole->name = "y";
  whole->role = Role::Oracle;
  auto stat = makeNode(Op::TensorStat, Type::Real, R, list(std::move(whole)));
  stat->name = "max";
  CHECK(print(*stat) == "max(y*)");
  CHECK(printSExpr(*stat) == "(max :real (tensor oracle y))");

  // if as an operand is parenthesised
  auto sel = makeNode(Op::Select, Type::Real, R, list(opaqueBool(), real(1.5, "1.5"), i64(0)));
  CHECK(print(*sel) == "if i < N then 1.5 else 0");
  CHECK(print(*bin(Op::Add, Type::Real, sel->clone(), i64(1))) == "(if i < N then 1.5 else 0) + 1");
  CHECK(printSExpr(*sel) == "(if :real (< :bool i N) 1.5 0)");

  // calls, dtype queries and rounding
  auto u = query("ulp", list(dtypeVar("T"), real(1.0, "1.0")));
  CHECK(print(*u) == "ulp(T, 1.0)");
  CHECK(printSExpr(*u) == "(ulp :real T 1.0)");
  auto rnd = makeNode(Op::RoundTo, Type::Real, R, list(dtype("bf16"), read("x", Role::Input, list(idx("i")))));
  CHECK(print(*rnd) == "round(bf16, x[i])");
  CHECK(printSExpr(*rnd) == "(round :real bf16 (read input x :real i))");
  CHECK(print(*call("fmax", Type::Real, list(idx("i"), real(0.5, "0.5")))) == "fmax(i, 0.5)");
}

TEST_CASE("print writes scalar reads and leaves", "[ir][print]") {
  CHECK(print(*read("eps", Role::Input, {})) == "eps");
  CHECK(print(*read("t", Role::Oracle, {})) == "t*");
  CHECK(printSExpr(*read("t", Role::Oracle, {})) == "(read oracle t :real)");
  CHECK(print(*boolean(false)) == "false");
  CHECK(print(*i64(-7)) == "-7");
  CHECK(print(*real(0.25)) == "0.25");
  CHECK(print(*dtype("f32")) == "f32");
}

// --- clone -----------------------------------------------------------------------------------

TEST_CASE("clone copies a tree deeply", "[ir][clone]") {
  auto q = std::make_unique<Node>(Op::Quantifier, Type::Bool, at(4, 5));
  q->b = true;
  q->vars = {"r", "h"};
  q->kids.push_back(i64(0));
  q->kids.push_back(bin(Op::Sub, Type::Int, dim("R"), i64(1)));
  q->kids.push_back(i64(0));
  q->kids.push_back(bin(Op::Sub, Type::Int, dim("H"), i64(1)));
  q->kids.push_back(toleranceCheck());
  q->kids[4]->kids[1]->text = "kept";

  auto c = q->clone();
  CHECK(print(*c) == print(*q));
  CHECK(printSExpr(*c) == printSExpr(*q));
  CHECK(c->range.begin.line == 4);
  CHECK(c->range.begin.column == 5);
  CHECK(c->vars == q->vars);
  CHECK(c->b);
  CHECK(c->kids[4]->kids[1]->text == "kept");
  CHECK(c->kids[4]->kids[1]->role == Role::Local);
  CHECK(c.get() != q.get());
  CHECK(c->kids[4].get() != q->kids[4].get());

  // Changing the copy leaves the original alone.
  c->kids[4]->kids[1]->name = "other";
  c->kids[1]->kids[1]->i = 2;
  c->vars[0] = "z";
  CHECK(q->kids[4]->kids[1]->name == "tol");
  CHECK(q->kids[1]->kids[1]->i == 1);
  CHECK(q->vars[0] == "r");
}

TEST_CASE("clone copies every scalar field", "[ir][clone]") {
  auto r = real(0.1, "0.1");
  auto c = r->clone();
  CHECK(c->op == Op::ConstReal);
  CHECK(c->type == Type::Real);
  CHECK(c->d == 0.1);
  CHECK(c->text == "0.1");
  auto b = boolean(true)->clone();
  CHECK(b->b);
  auto i = i64(kMin)->clone();
  CHECK(i->i == kMin);
}

// --- evalInt ---------------------------------------------------------------------------------

TEST_CASE("evalInt evaluates integer expressions over bound dims and indices", "[ir][eval]") {
  IntEnv env{{"N", 10}, {"i", 3}};
  // (N - 1) * 2 + i % 2
  auto n = bin(Op::Add, Type::Int, bin(Op::Mul, Type::Int, bin(Op::Sub, Type::Int, dim("N"), i64(1)), i64(2)),
               bin(Op::Mod, Type::Int, idx("i"), i64(2)));
  CHECK(evalInt(*n, env) == 19);
  CHECK(evalInt(*bin(Op::Pow, Type::Int, i64(2), dim("N")), env) == 1024);
  CHECK(evalInt(*un(Op::Neg, Type::Int, idx("i")), env) == -3);
  CHECK(evalInt(*un(Op::Abs, Type::Int, i64(-4)), env) == 4);
  CHECK(evalInt(*i64(kMax), env) == kMax);
}

TEST_CASE("evalInt gives nullopt for an unbound name", "[ir][eval]") {
  IntEnv env{{"N", 10}};
  CHECK_FALSE(evalInt(*dim("M"), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Add, Type::Int, dim("N"), idx("j")), env).has_value());
  CHECK_FALSE(evalInt(*dim("N"), {}).has_value());
}

TEST_CASE("evalInt gives nullopt on overflow, never a wrapped number", "[ir][eval]") {
  IntEnv env{{"N", kMax}, {"M", kMin}};
  CHECK_FALSE(evalInt(*bin(Op::Add, Type::Int, dim("N"), i64(1)), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Sub, Type::Int, dim("M"), i64(1)), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Mul, Type::Int, dim("N"), i64(2)), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Pow, Type::Int, i64(2), i64(63)), env).has_value());
  CHECK(evalInt(*bin(Op::Pow, Type::Int, i64(2), i64(62)), env) == int64_t{1} << 62);
  CHECK_FALSE(evalInt(*un(Op::Neg, Type::Int, dim("M")), env).has_value());
  CHECK_FALSE(evalInt(*un(Op::Abs, Type::Int, dim("M")), env).has_value());
  CHECK(evalInt(*bin(Op::Sub, Type::Int, dim("N"), dim("N")), env) == 0);
}

TEST_CASE("evalCond decides conditions over dims, and refutes a partial assignment where it can", "[ir][eval]") {
  // L + 2 * P >= K
  auto fits = [] {
    return bin(Op::Ge, Type::Bool, bin(Op::Add, Type::Int, dim("L"), bin(Op::Mul, Type::Int, i64(2), dim("P"))), dim("K"));
  };
  CHECK(evalCond(*fits(), {{"L", 1}, {"P", 1}, {"K", 3}}) == true);
  CHECK(evalCond(*fits(), {{"L", 1}, {"P", 0}, {"K", 3}}) == false);
  CHECK_FALSE(evalCond(*fits(), {{"L", 1}, {"K", 3}}).has_value());  // P unbound
  // A conjunction with one false side is false whatever the other; with an unknown true side, unknown.
  auto conj = [&](Op op) { return bin(op, Type::Bool, fits(), bin(Op::Eq, Type::Bool, dim("S"), i64(2))); };
  CHECK(evalCond(*conj(Op::And), {{"S", 1}}) == false);
  CHECK_FALSE(evalCond(*conj(Op::And), {{"S", 2}}).has_value());
  CHECK(evalCond(*conj(Op::Or), {{"S", 2}}) == true);
  CHECK_FALSE(evalCond(*conj(Op::Or), {{"S", 1}}).has_value());
  // a => b: true when a is false or b true; false only when both are known.
  CHECK(evalCond(*conj(Op::Implies), {{"L", 1}, {"P", 0}, {"K", 3}}) == true);
  CHECK(evalCond(*conj(Op::Implies), {{"L", 5}, {"P", 0}, {"K", 3}, {"S", 1}}) == false);
  CHECK(evalCond(*un(Op::Not, Type::Bool, fits()), {{"L", 1}, {"P", 0}, {"K", 3}}) == true);
  // Anything that reads a tensor is never decided.
  CHECK_FALSE(evalCond(*bin(Op::Gt, Type::Bool, read("x", Role::Input, list(i64(0))), i64(0)), {}).has_value());
}

TEST_CASE("evalInt gives nullopt for modulo by zero, negative powers and non-integer nodes", "[ir][eval]") {
  IntEnv env{{"N", 0}};
  CHECK_FALSE(evalInt(*bin(Op::Mod, Type::Int, i64(5), dim("N")), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Pow, Type::Int, i64(2), i64(-1)), env).has_value());
  CHECK_FALSE(evalInt(*real(1.0), env).has_value());
  CHECK_FALSE(evalInt(*bin(Op::Div, Type::Real, i64(4), i64(2)), env).has_value());
  CHECK_FALSE(evalInt(*boolean(true), env).has_value());
}

// --- floor division: Op::Div typed Int (floor(a / b) and ceil(a / b) of integers) ----------

TEST_CASE("floorDiv rounds toward minus infinity and refuses what has no quotient", "[ir][div]") {
  CHECK(kc::ir::floorDiv(7, 2) == 3);
  CHECK(kc::ir::floorDiv(-7, 2) == -4);
  CHECK(kc::ir::floorDiv(7, -2) == -4);
  CHECK(kc::ir::floorDiv(-7, -2) == 3);
  CHECK(kc::ir::floorDiv(-8, 2) == -4);
  CHECK(kc::ir::floorDiv(0, 5) == 0);
  CHECK_FALSE(kc::ir::floorDiv(1, 0).has_value());
  CHECK_FALSE(kc::ir::floorDiv(INT64_MIN, -1).has_value());
}

TEST_CASE("floorMod is the floored remainder, with the divisor's sign", "[ir][div]") {
  CHECK(kc::ir::floorMod(7, 4) == 3);
  CHECK(kc::ir::floorMod(-7, 4) == 1);
  CHECK(kc::ir::floorMod(7, -4) == -1);
  CHECK(kc::ir::floorMod(-7, -4) == -3);
  CHECK(kc::ir::floorMod(-8, 4) == 0);
  CHECK(kc::ir::floorMod(INT64_MIN, -1) == 0);
  CHECK_FALSE(kc::ir::floorMod(1, 0).has_value());
  for (int64_t a = -9; a <= 9; ++a)
    for (int64_t b : {-4, -3, 2, 5}) CHECK(a == b * *kc::ir::floorDiv(a, b) + *kc::ir::floorMod(a, b));
  auto n = fold(bin(Op::Mod, Type::Int, i64(-7), i64(4)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == 1);
}

TEST_CASE("an integer quotient folds, evaluates and prints as floor", "[ir][div]") {
  auto n = fold(bin(Op::Div, Type::Int, i64(-7), i64(2)));
  REQUIRE(n->op == Op::ConstInt);
  CHECK(n->i == -4);
  CHECK(fold(bin(Op::Div, Type::Int, i64(7), i64(0)))->op == Op::Div);  // left for the evaluator to refuse
  IntEnv env{{"N", 9}, {"Z", 0}};
  CHECK(evalInt(*bin(Op::Div, Type::Int, dim("N"), i64(4)), env) == 2);
  CHECK_FALSE(evalInt(*bin(Op::Div, Type::Int, dim("N"), dim("Z")), env).has_value());
  CHECK(print(*bin(Op::Div, Type::Int, dim("N"), i64(4))) == "floor(N / 4)");
  CHECK(print(*bin(Op::Div, Type::Real, dim("N"), i64(4))) == "N / 4");
  CHECK(print(*un(Op::Neg, Type::Int, bin(Op::Div, Type::Int, un(Op::Neg, Type::Int, dim("N")), i64(4)))) == "ceil(N / 4)");
}

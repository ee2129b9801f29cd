#include "mutate/operators.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>

namespace kc::mutate {

namespace {

// Through parentheses and implicit conversions (libclang's unexposed expressions).
const Node* strip(const Node* n) {
  while (n && (n->kind == NodeKind::Paren || n->kind == NodeKind::Other) && n->children.size() == 1 &&
         n->begin <= n->children[0]->begin && n->children[0]->end <= n->end)
    n = n->children[0].get();
  return n;
}

std::string text(const KernelAst& ast, const Node* n) { return n ? textOf(ast, *n) : ""; }

Mutant make(const char* op, const char* family, const Node& at, std::string description, std::vector<Edit> edits) {
  Mutant m;
  m.op = op;
  m.family = family;
  for (const Node* p = &at; p; p = p->parent)
    if (p->kind == NodeKind::Function) m.function = p->name;
  m.description = std::move(description);
  m.edits = std::move(edits);
  return m;
}

bool editable(const Node* n) { return n && !n->macro && n->end > n->begin; }

std::string quote(const std::string& s) { return "`" + s + "`"; }

// A binary operator's operator token replaced.
void swapOp(const char* opName, const char* family, const Node& n, const std::string& to, std::vector<Mutant>& out) {
  out.push_back(make(opName, family, n, quote(n.op) + " -> " + quote(to), {{n.opBegin, n.opBegin + n.op.size(), to}}));
}

bool isRelational(const std::string& op) { return op == "<" || op == "<=" || op == ">" || op == ">="; }

bool underCondition(const Node& n) {
  for (const Node* p = n.parent; p; p = p->parent)
    if (p->kind == NodeKind::If || p->kind == NodeKind::For) return true;
  return false;
}

// --- arith: + <-> -, * <-> / on floating values ----------------------------------------
void arith(const KernelAst&, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::BinaryOp || n.op.empty() || n.typeClass != TypeClass::Floating) return;
  static const std::pair<const char*, const char*> swaps[] = {{"+", "-"}, {"-", "+"}, {"*", "/"}, {"/", "*"}};
  for (auto [from, to] : swaps)
    if (n.op == from) swapOp("arith", "value", n, to, out);
}

// --- relational: < <-> <=, > <-> >= ----------------------------------------------------
void relational(const KernelAst&, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::BinaryOp || !isRelational(n.op)) return;
  const Node* lhs = strip(n.child(0));
  bool integer = lhs && lhs->typeClass == TypeClass::Integer;
  std::string to = n.op == "<" ? "<=" : n.op == "<=" ? "<" : n.op == ">" ? ">=" : ">";
  swapOp("relational", integer && underCondition(n) ? "tail" : "value", n, to, out);
}

// --- accumulate: += -> = (and -=, *=) ---------------------------------------------------
void accumulate(const KernelAst&, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::CompoundAssign || (n.op != "+=" && n.op != "-=" && n.op != "*=")) return;
  // An accumulator holds values; `i += 8` steps a loop.
  const Node* lhs = strip(n.child(0));
  if (!lhs || lhs->typeClass != TypeClass::Floating) return;
  swapOp("accumulate", "accumulator", n, "=", out);
}

// --- precision: float -> half (where the language has it), double -> float ---------------
void precision(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::VarDecl || n.typeClass != TypeClass::Floating || n.typeEnd <= n.typeBegin) return;
  std::string word = ast.text.substr(n.typeBegin, n.typeEnd - n.typeBegin);
  std::string to;
  if (word == "double") to = "float";
  else if (word == "float" && (ast.language == Language::C || ast.language == Language::Cpp)) to = "_Float16";
  else if (word == "float" && ast.language == Language::OpenCL) to = "half";
  if (to.empty()) return;
  out.push_back(make("precision", "precision", n, quote(word + " " + n.name) + " -> " + quote(to + " " + n.name),
                     {{n.typeBegin, n.typeEnd, to}}));
}

// --- cast: a widening cast dropped ((double)x where x is float) ---------------------------
void castDropped(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::CStyleCast || n.macro || n.typeClass != TypeClass::Floating || n.children.empty()) return;
  const Node* operand = n.children.back().get();
  const Node* inner = strip(operand);
  if (!inner || inner->typeClass != TypeClass::Floating || inner->typeBits >= n.typeBits || operand->begin <= n.begin) return;
  std::string cast = ast.text.substr(n.begin, operand->begin - n.begin);
  out.push_back(make("cast", "precision", n, quote(cast) + " dropped", {{n.begin, operand->begin, ""}}));
}

// Whether a subtree compares integers (a bound or a tail condition).
bool comparesIntegers(const Node& n) {
  if (n.kind == NodeKind::BinaryOp && isRelational(n.op)) {
    const Node* lhs = strip(n.child(0));
    const Node* rhs = strip(n.child(1));
    if (lhs && rhs && lhs->typeClass == TypeClass::Integer && rhs->typeClass == TypeClass::Integer) return true;
  }
  for (const auto& c : n.children)
    if (comparesIntegers(*c)) return true;
  return false;
}

// --- guard: an if's bound condition replaced by 1 ------------------------------------------
void guard(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::If || n.hasElse || n.children.empty()) return;
  const Node* cond = n.child(0);
  if (!editable(cond) || !comparesIntegers(*cond)) return;
  out.push_back(make("guard", "tail", n, "the guard " + quote(text(ast, cond)) + " dropped",
                     {{cond->begin, cond->end, "1"}}));
}

// --- tail-loop: a loop that starts where a blocked loop stopped, dropped ---------------------
void tailLoop(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::For || n.macro || !n.forInit || !n.forBody) return;
  // init: `int64_t i = body` / `i = body`: a start that is a variable, not a literal.
  const Node* init = n.forInit;
  const Node* value = nullptr;
  if (init->kind == NodeKind::DeclStmt && init->child(0) && init->child(0)->kind == NodeKind::VarDecl)
    value = strip(init->child(0)->children.empty() ? nullptr : init->child(0)->children.back().get());
  else if (init->kind == NodeKind::BinaryOp && init->op == "=")
    value = strip(init->child(1));
  if (!value || value->kind != NodeKind::DeclRef) return;
  // A body that is an expression statement ends before its `;` (which stays).
  size_t after = n.end;
  while (after < ast.text.size() && std::isspace(static_cast<unsigned char>(ast.text[after]))) ++after;
  bool semicolon = after < ast.text.size() && ast.text[after] == ';';
  out.push_back(make("tail-loop", "tail", n, "the tail loop from " + quote(text(ast, value)) + " dropped",
                     {{n.begin, n.end, semicolon ? "/* tail loop dropped */" : "/* tail loop dropped */;"}}));
}

// --- barrier: __syncthreads(), barrier(...) dropped ------------------------------------------
void barrier(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  static const std::set<std::string> names = {"__syncthreads", "__syncwarp", "barrier", "work_group_barrier",
                                              "sub_group_barrier", "__threadfence_block"};
  if (n.kind != NodeKind::Call || !editable(&n) || !names.count(n.name)) return;
  out.push_back(make("barrier", "ordering", n, quote(text(ast, &n)) + " dropped", {{n.begin, n.end, "(void)0"}}));
}

// --- off-by-one: a loop starting at 0 starts at 1; a subscript reads the next element --------
void offByOne(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind == NodeKind::For && n.forInit) {
    const Node* init = n.forInit;
    const Node* value = nullptr;
    if (init->kind == NodeKind::DeclStmt && init->child(0) && init->child(0)->kind == NodeKind::VarDecl &&
        !init->child(0)->children.empty())
      value = strip(init->child(0)->children.back().get());
    else if (init->kind == NodeKind::BinaryOp && init->op == "=")
      value = strip(init->child(1));
    if (editable(value) && value->kind == NodeKind::IntLiteral && text(ast, value) == "0")
      out.push_back(make("off-by-one", "index", n, "the loop starts at 1, not 0", {{value->begin, value->end, "1"}}));
  }
  // Subscripts of data (floating elements), not of shapes and strides.
  if (n.kind == NodeKind::Subscript && n.children.size() == 2 && n.typeClass == TypeClass::Floating) {
    const Node* index = n.child(1);
    if (editable(index) && editable(&n))
      out.push_back(make("off-by-one", "index", n, quote(text(ast, &n)) + " reads the next element",
                         {{index->end, index->end, " + 1"}}));
  }
}

// --- stride: a product term of an integer index sum dropped (r * s0 + c * s1 -> r * s0) -----
void stride(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::BinaryOp || n.op != "+" || n.typeClass != TypeClass::Integer || n.children.size() != 2) return;
  for (int side = 0; side < 2; ++side) {
    const Node* term = strip(n.child(static_cast<size_t>(side)));
    const Node* other = n.child(static_cast<size_t>(1 - side));
    if (!term || term->kind != NodeKind::BinaryOp || term->op != "*" || !editable(other)) continue;
    // Keep the other operand, drop this term and the `+`.
    out.push_back(make("stride", "index", n, "the term " + quote(text(ast, n.child(static_cast<size_t>(side)))) + " dropped",
                       {{n.begin, n.end, text(ast, other)}}));
  }
}

// --- index-width: a 64-bit index variable made 32-bit ------------------------------------------
void indexWidth(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::VarDecl || n.typeClass != TypeClass::Integer || n.typeBits != 64 || n.typeEnd <= n.typeBegin) return;
  std::string word = ast.text.substr(n.typeBegin, n.typeEnd - n.typeBegin);
  if (word != "int64_t" && word != "long" && word != "size_t" && word != "ptrdiff_t") return;
  std::string to = word == "size_t" ? "uint32_t" : "int32_t";
  if (ast.language == Language::OpenCL) to = word == "size_t" ? "uint" : "int";
  out.push_back(make("index-width", "index-width", n, quote(word + " " + n.name) + " -> " + quote(to + " " + n.name),
                     {{n.typeBegin, n.typeEnd, to}}));
}

bool looksLikeScale(const KernelAst& ast, const Node* n) {
  if (!n) return false;
  if (n->kind == NodeKind::FloatLiteral) return true;
  if (n->kind != NodeKind::DeclRef) return false;
  std::string name = text(ast, n);
  for (const char* w : {"scale", "inv", "alpha", "beta", "norm"})
    if (name.find(w) != std::string::npos) return true;
  return false;
}

// --- scale: a scale factor dropped (x * scale -> x) -------------------------------------------
void scale(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind != NodeKind::BinaryOp || n.op != "*" || n.typeClass != TypeClass::Floating || n.children.size() != 2) return;
  for (int side = 0; side < 2; ++side) {
    const Node* factor = strip(n.child(static_cast<size_t>(side)));
    const Node* other = n.child(static_cast<size_t>(1 - side));
    if (!looksLikeScale(ast, factor) || !editable(other) || !editable(&n)) continue;
    out.push_back(make("scale", "value", n, "the factor " + quote(text(ast, factor)) + " dropped",
                       {{n.begin, n.end, text(ast, other)}}));
  }
}

bool looksLikeEps(const KernelAst& ast, const Node* n) {
  if (!n) return false;
  std::string t = text(ast, n);
  if (n->kind == NodeKind::FloatLiteral) return std::abs(std::strtod(t.c_str(), nullptr)) <= 1e-3;
  return n->kind == NodeKind::DeclRef && t.find("eps") != std::string::npos;
}

// --- eps: sqrt(v + eps) -> sqrt(v) + eps ---------------------------------------------------------
void epsMoved(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  static const std::set<std::string> roots = {"sqrt", "sqrtf", "rsqrt", "rsqrtf", "native_sqrt", "native_rsqrt"};
  if (n.kind != NodeKind::Call || !roots.count(n.name) || n.children.size() != 2 || !editable(&n)) return;
  const Node* arg = n.child(1);
  const Node* sum = strip(arg);
  if (!sum || sum->kind != NodeKind::BinaryOp || sum->op != "+" || sum->children.size() != 2) return;
  for (int side = 0; side < 2; ++side) {
    const Node* eps = strip(sum->child(static_cast<size_t>(side)));
    const Node* v = sum->child(static_cast<size_t>(1 - side));
    if (!looksLikeEps(ast, eps) || !editable(v)) continue;
    std::string call = ast.text.substr(n.begin, arg->begin - n.begin);  // "sqrtf("
    out.push_back(make("eps", "eps", n, quote(text(ast, eps)) + " moved outside " + quote(n.name),
                       {{n.begin, n.end, "(" + call + text(ast, v) + ") + " + text(ast, eps) + ")"}}));
  }
}

// --- nan-max: a NaN-propagating max (a ternary) -> fmaxf; isnan(x) -> 0 -------------------------
void nanUnsafe(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (n.kind == NodeKind::Conditional && n.children.size() == 3 && editable(&n) && n.typeClass == TypeClass::Floating) {
    const Node* cond = strip(n.child(0));
    if (!cond || cond->kind != NodeKind::BinaryOp || !isRelational(cond->op)) return;
    std::string a = text(ast, strip(cond->child(0))), b = text(ast, strip(cond->child(1)));
    std::string t = text(ast, strip(n.child(1))), f = text(ast, strip(n.child(2)));
    bool less = cond->op[0] == '<';
    std::string fn;
    if (t == a && f == b) fn = less ? "min" : "max";  // a < b ? a : b
    else if (t == b && f == a) fn = less ? "max" : "min";  // a < b ? b : a
    if (fn.empty()) return;
    bool dbl = n.typeBits == 64;
    std::string call = (ast.language == Language::OpenCL ? "f" + fn : "f" + fn + (dbl ? "" : "f"));
    out.push_back(make("nan-max", "nan", n, quote(text(ast, &n)) + " -> " + quote(call + "(" + a + ", " + b + ")"),
                       {{n.begin, n.end, call + "(" + a + ", " + b + ")"}}));
  }
  // isnan(x) -> 0. In C, isnan is a macro (glibc: __builtin_isnan): the call written is the
  // macro's invocation, `isnan(` up to its closing parenthesis.
  bool call = n.kind == NodeKind::Call && (n.name == "isnan" || n.name == "__builtin_isnan") && !n.macro;
  // The macro's expansion (glibc's isnan for clang: a conditional over __isnanf, __isnan,
  // __isnanl): its outermost node, which begins where `isnan(` is written.
  bool macro = n.macro && ast.text.compare(n.begin, 6, "isnan(") == 0 && (!n.parent || n.parent->begin != n.begin);
  if (call || macro) {
    size_t end = n.end;
    if (macro) {
      if (ast.text.compare(n.begin, 6, "isnan(") != 0) return;
      int depth = 0;
      for (end = n.begin + 5; end < ast.text.size(); ++end) {
        if (ast.text[end] == '(') ++depth;
        else if (ast.text[end] == ')' && --depth == 0) break;
      }
      if (end >= ast.text.size()) return;
      ++end;
    }
    std::string call = ast.text.substr(n.begin, end - n.begin);
    out.push_back(make("nan-check", "nan", n, quote(call) + " -> `0`", {{n.begin, end, "0"}}));
  }
}

// --- atomics (CUDA): an ordered store of a reduction's result -> atomicAdd ---------------------
void atomics(const KernelAst& ast, const Node& n, std::vector<Mutant>& out) {
  if (ast.language != Language::Cuda || !editable(&n)) return;
  if ((n.kind != NodeKind::CompoundAssign || n.op != "+=") || n.children.size() != 2) return;
  const Node* lhs = strip(n.child(0));
  if (!lhs || lhs->kind != NodeKind::Subscript || lhs->typeClass != TypeClass::Floating) return;
  out.push_back(make("atomics", "ordering", n, quote(text(ast, &n)) + " -> atomicAdd",
                     {{n.begin, n.end, "atomicAdd(&" + text(ast, n.child(0)) + ", " + text(ast, n.child(1)) + ")"}}));
}

}  // namespace

const std::vector<Operator>& operators() {
  static const std::vector<Operator> all = {
      {"arith", "value", "`+` <-> `-`, `*` <-> `/` on floating values", arith},
      {"relational", "tail", "`<` <-> `<=`, `>` <-> `>=` (a bound: tail; values: value)", relational},
      {"accumulate", "accumulator", "`+=` (`-=`, `*=`) -> `=`", accumulate},
      {"precision", "precision", "a local float -> half (C, C++: _Float16; OpenCL: half), double -> float", precision},
      {"cast", "precision", "a widening cast dropped ((double)x with x float)", castDropped},
      {"guard", "tail", "an if's bound or tail condition replaced by 1", guard},
      {"tail-loop", "tail", "the loop over a tail (starting where a blocked loop stopped) dropped", tailLoop},
      {"barrier", "ordering", "__syncthreads(), barrier(...) dropped", barrier},
      {"off-by-one", "index", "a loop from 0 starts at 1; a subscript reads the next element", offByOne},
      {"stride", "index", "a product term of an integer index sum dropped", stride},
      {"index-width", "index-width", "a 64-bit index variable made 32-bit", indexWidth},
      {"scale", "value", "a scale factor (a float literal, a scale variable) dropped from a product", scale},
      {"eps", "eps", "sqrt(v + eps) -> sqrt(v) + eps", epsMoved},
      {"nan-max", "nan", "a NaN-propagating max or min (a ternary) -> fmaxf/fminf; isnan(x) -> 0", nanUnsafe},
      {"atomics", "ordering", "CUDA: an ordered `out[i] += v` -> atomicAdd", atomics},
  };
  return all;
}

std::vector<Mutant> generateMutants(const KernelAst& ast, const std::string& entry, const std::vector<std::string>& only) {
  std::vector<Mutant> out;
  for (const Node* fn : reachableFunctions(ast, entry)) {
    std::function<void(const Node&)> walk = [&](const Node& n) {
      for (const auto& op : operators())
        if (only.empty() || std::find(only.begin(), only.end(), op.name) != only.end()) op.visit(ast, n, out);
      for (const auto& c : n.children) walk(*c);
    };
    walk(*fn);
  }
  // One mutant per distinct edit (two operators may propose the same one).
  std::vector<Mutant> unique;
  std::set<std::string> seen;
  for (auto& m : out) {
    std::string key;
    for (const auto& e : m.edits) key += std::to_string(e.begin) + ":" + std::to_string(e.end) + ":" + e.replacement + ";";
    if (seen.insert(key).second) unique.push_back(std::move(m));
  }
  assignIds(ast, unique);
  return unique;
}

}  // namespace kc::mutate

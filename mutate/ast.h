#pragma once
// The kernel source as the mutation operators see it: a small tree of our own, converted from
// libclang's cursors in clang_ast.cpp (the only file that includes clang-c). Every node keeps
// its byte range in the main file, so an operator's edit is a range and a replacement; nodes
// from headers or macro expansions are not in the tree (nothing there can be edited).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kc::mutate {

// The language a kernel file is parsed as (from its extension).
enum class Language { C, Cpp, Cuda, OpenCL };
const char* languageName(Language l);  // "C", "C++", "CUDA", "OpenCL"
// .c -> C, .cpp/.cc/.cxx -> C++, .cu -> CUDA, .cl -> OpenCL; false for anything else.
bool languageOf(const std::string& path, Language& out);

enum class NodeKind {
  Function,        // a function definition (name: its name)
  VarDecl,         // a local variable (name; typeBegin/typeEnd: the type's word in the text)
  ParmDecl,        // a parameter
  BinaryOp,        // children: lhs, rhs; op: "+", "<", "&&", ...
  CompoundAssign,  // children: lhs, rhs; op: "+=", ...
  UnaryOp,
  Conditional,     // children: cond, then, else
  Call,            // name: the callee; children: the callee reference, then the arguments
  CStyleCast,      // children: the operand; type: the cast's type
  Subscript,       // children: base, index
  If,              // children: cond, then[, else]; hasElse
  For,             // children: init, cond, inc, body (those present; see forParts)
  DeclRef,         // name: what it names; refersToFunction: a function
  Member,          // a.b, a->b (name: b)
  FloatLiteral,
  IntLiteral,
  Paren,
  Compound,        // { ... }
  DeclStmt,
  Return,
  Other,
};

// The arithmetic class of an expression's type (its canonical type).
enum class TypeClass { None, Integer, Floating, Pointer, Other };

struct Node {
  NodeKind kind = NodeKind::Other;
  size_t begin = 0, end = 0;  // byte range in the main file, [begin, end)
  std::string op;             // BinaryOp, CompoundAssign, UnaryOp: the operator's spelling
  std::string name;           // Function, VarDecl, ParmDecl, Call, DeclRef, Member
  std::string type;           // the type's spelling (expressions, declarations, casts)
  TypeClass typeClass = TypeClass::None;
  int typeBits = 0;           // Integer and Floating: the width (16, 32, 64)
  bool refersToFunction = false;  // DeclRef to a function defined in the main file
  bool hasElse = false;           // If
  // For: its parts (null when absent), among the children.
  const Node *forInit = nullptr, *forCond = nullptr, *forInc = nullptr, *forBody = nullptr;
  bool macro = false;  // begins or ends inside a macro expansion: its text is not its own
  size_t typeBegin = 0, typeEnd = 0;  // VarDecl: the type keyword's range (0, 0: not found)
  size_t opBegin = 0;                 // BinaryOp, CompoundAssign: where the operator is
  std::vector<std::unique_ptr<Node>> children;
  const Node* parent = nullptr;
  const Node* child(size_t k) const { return k < children.size() ? children[k].get() : nullptr; }
};

// A parsed kernel file: its text and its functions' trees (definitions in the main file only).
struct KernelAst {
  std::string path;
  std::string text;
  Language language = Language::C;
  std::vector<std::unique_ptr<Node>> functions;
  // The quoted #include directives of the main file: the range of the quoted name (with its
  // quotes) and the file it resolved to (mutants are written elsewhere and include it by path).
  struct Include {
    size_t begin = 0, end = 0;
    std::string resolved;
  };
  std::vector<Include> includes;
  const Node* function(const std::string& name) const;
};

// Why a kernel file could not be parsed: the first error, located "FILE:LINE:COL: error: ...".
struct ParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses `path` with libclang (clang_ast.cpp) in its language, with the kernel ABI headers
// and `includeDirs` on the include path. Throws ParseError on an error diagnostic.
KernelAst parseKernel(const std::string& path, const std::vector<std::string>& includeDirs);

// The functions of the main file `entry` reaches (through calls and function references,
// such as a function pointer handed to a helper), `entry` first; empty when `entry` is not
// defined there.
std::vector<const Node*> reachableFunctions(const KernelAst& ast, const std::string& entry);

// The text of a node.
inline std::string textOf(const KernelAst& ast, const Node& n) { return ast.text.substr(n.begin, n.end - n.begin); }

// Line and column (1-based) of a byte offset.
void lineColumn(const std::string& text, size_t offset, int& line, int& column);

}  // namespace kc::mutate

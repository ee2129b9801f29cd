#pragma once
// The semantic model: what sema makes of the AST. Kernels with their bound signatures,
// contracts with every part resolved and lowered to the IR, the standard classes they apply
// already merged in. The planner and the obligation builder read only this.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ast/ast.h"
#include "compiler/ir/ir.h"

namespace kc::sema {

// Dimensions are at most this large unless the kernel says otherwise: the largest element
// count any backend can address (2^62 keeps products of two dims inside int64 checks).
inline constexpr int64_t kDefaultDimMax = int64_t{1} << 40;

struct DimInfo {
  std::string name;
  int64_t lo = 1;
  int64_t hi = kDefaultDimMax;
  bool declared = false;  // a `where` clause gave the range
  std::vector<int64_t> allowed;  // `where H in {64, 128}`: only these (sorted); empty: all of lo..hi
  SourceRange range;

  bool admits(int64_t v) const;  // v in lo..hi and, when a set was given, in it
};

struct DTypeVarInfo {
  std::string name;
  std::vector<std::string> allowed;  // dtype names, in declaration order
  SourceRange range;
};

struct TensorInfo {
  std::string name;
  bool output = false;
  std::string dtype;        // a dtype name (f32) or a dtype variable (T)
  bool dtypeIsVar = false;
  std::vector<ir::NodePtr> shape;  // Int expressions over the kernel's dims; empty for scalars
  size_t abiIndex = 0;      // position in the kc_ entry's argument list
  SourceRange range;
  size_t rank() const { return shape.size(); }
};

struct KernelInfo {
  std::string name;
  std::vector<TensorInfo> tensors;  // inputs, then outputs: the ABI order
  std::vector<DTypeVarInfo> dtypeVars;
  std::vector<DimInfo> dims;
  std::string implements;
  SourceRange range;

  const TensorInfo* tensor(const std::string& n) const;
  const DimInfo* dim(const std::string& n) const;
  const DTypeVarInfo* dtypeVar(const std::string& n) const;
};

// A definition of the oracle or tolerance section: name[i, j] = value.
struct Definition {
  std::string name;
  std::vector<std::string> indices;
  std::vector<ir::NodePtr> extents;  // Int: index i ranges over 0..extents[i]-1
  ir::NodePtr value;
  SourceRange range;
  // Written by `tolerance exact` (tol = 0, for the classes that read tol): never reported
  // unused, since a contract whose posts compare with == has no use of its own for it.
  bool implicit = false;
};

// Where a part of a contract came from: the contract itself or an applied class.
struct Origin {
  std::string id;  // acme.softmax.rows@2 or std.exc.nan-propagation@1
  bool fromClass = false;
};

struct Condition {
  ir::NodePtr expr;  // Bool
  Origin origin;
  SourceRange range;
};

struct SignatureClause {
  ast::SignatureClauseKind kind;
  ir::NodePtr expr;       // FailsWhen, FailsOnlyWhen, WrongCells, ErrorBound
  std::string dim;        // ErrorGrows
  std::string compareOp;  // ErrorBound
  SourceRange range;
  // WrongCells: the names of the cell's indices in `expr` (cell_0, cell_1, ... unless the
  // clause named them: `wrong cells [r, c]:`).
  std::vector<std::string> cellVars;
};

struct SignatureInfo {
  std::string name;
  Origin origin;
  std::vector<SignatureClause> clauses;
  SourceRange range;
};

// One alternative of a protocol choice, with names already checked.
struct ProtocolValue {
  // Expr: an argument of a value generator that uses dims (`integers(0, C - 1)`); the planner
  // keeps it, each case evaluates it with its dims (checker/run/case_setup.cpp).
  enum class Kind { Int, Real, Range, Name, Call, String, Expr } kind = Kind::Int;
  int64_t i = 0, hi = 0;       // Int; Range is [i, hi]
  double d = 0;                // Real
  bool percent = false;        // Real or Int written with '%': d (or i) percent
  std::string name;            // Name, Call, String
  std::vector<std::pair<std::string, std::vector<ProtocolValue>>> args;  // Call: name ("" positional) -> values
  std::shared_ptr<const ir::Node> expr;  // Expr: an Int or Real expression over the kernel's dims
  SourceRange range;

  std::string str() const;  // as a user writes it: normal(0, 1), special(nan: 1%), 1..8
};

// The shortest decimal text that reads back as the same double.
std::string shortestReal(double d);

struct ProtocolBinding {
  std::string target;  // a dim, a tensor, or "*"
  std::vector<ProtocolValue> values;
  Origin origin;
  SourceRange range;
};

// `case K in {4097}, a ~ cancel_rows(64, 127)`: cases the author asks for by name, beside
// the covering ones; every dim or input it does not name takes its first protocol choice.
struct ExplicitCase {
  std::vector<ProtocolBinding> dims, values;
  Origin origin;
  SourceRange range;
};

struct ProtocolInfo {
  std::vector<ProtocolValue> seeds, repeats, cells;
  std::vector<ProtocolBinding> dims, values, layouts;
  std::vector<ExplicitCase> cases;
  std::vector<ProtocolBinding> perturb;  // one per perturb item (target ""), with its origin
  // Who set seeds, repeats or cells: those settings shape every case, so such a class asked
  // for every case (plan::Plan::everywhere).
  std::vector<Origin> caseWide;
};

struct ScopeInfo {
  std::vector<std::string> kernels;
  std::vector<std::string> ops;
  std::vector<std::string> backends;
  std::vector<ProtocolBinding> layouts;  // the layouts a kernel must accept
  std::vector<DimInfo> dims;             // narrowed ranges
  std::map<std::string, std::vector<std::string>> dtypes;  // narrowed dtype variables
};

struct ContractInfo {
  std::string id;
  std::string name;
  int version = 0;
  bool isClass = false;
  std::string title;
  std::vector<std::string> applies;  // ids of the applied classes, in order
  const KernelInfo* kernel = nullptr;  // the kernel in scope (contracts, not classes)
  ScopeInfo scope;
  std::vector<Condition> pre;
  std::string oraclePrecision = "f64";
  int oracleBits = 53;
  std::vector<Definition> oracle;
  std::vector<Definition> tolerance;
  std::vector<Condition> post;
  ProtocolInfo protocol;
  std::vector<SignatureInfo> signatures;
  const ast::ContractDecl* decl = nullptr;
  SourceRange range;
};

// A contract checked with more classes than it applies (Compilation::extraClasses).
struct ExtraClasses {
  std::string contract;              // the contract's ID, with or without its version
  std::vector<std::string> classes;  // class IDs, applied after the contract's own
};

// The ID of `contractId` checked with the extra `classes`: "ID+CLASS+CLASS".
std::string withClassesId(const std::string& contractId, const std::vector<std::string>& classes);

// Everything one compilation knows: the inputs and what they imported.
struct Program {
  std::vector<std::unique_ptr<KernelInfo>> kernels;
  std::vector<std::unique_ptr<ContractInfo>> contracts;  // contracts and classes
  std::vector<uint32_t> rootFiles;  // the files named on the command line

  const KernelInfo* kernel(const std::string& name) const;
  const ContractInfo* contract(const std::string& id) const;
};

}  // namespace kc::sema

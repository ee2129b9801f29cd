#pragma once
// The f64 oracle evaluator (docs/design.md §3): interprets the oracle and tolerance definitions
// of a contract over host tensors, and evaluates Bool conditions (postconditions) against
// the kernel's outputs. Every definition is a tensor over its indices' extents (a scalar
// when it has none), computed cell by cell with a recursive interpreter over a prepared
// form of the IR (names resolved to slots, tensors and constants up front). The outer
// index of a definition is split over threads; every cell is computed independently, so
// the result does not depend on the thread count.
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "checker/oracle/tensor.h"
#include "compiler/ir/ir.h"
#include "compiler/sema/model.h"
#include "stdlib/numerics/dtype.h"

namespace kc::oracle {

// A name that cannot be resolved, an index outside a tensor, an integer overflow, ...
struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

using Cell = std::vector<int64_t>;

struct Bindings {
  std::map<std::string, int64_t> dims;               // dims not given are inferred from input shapes
  std::map<std::string, numerics::DType> dtypes;     // dtype variables: T -> f32
  std::map<std::string, Tensor> inputs;              // by kernel tensor name; scalars as rank 0
  std::map<std::string, Tensor> outputs;             // as the kernel wrote them (for conditions)
};

struct EvalOptions {
  unsigned threads = 2;  // threads over the outer index of each definition (and OpenBLAS's)
  bool blas = true;      // contractions by cblas_dgemm (contraction.h); false: all interpreted
};

struct OracleResult {
  std::map<std::string, int64_t> dims;  // the dims used: bound and inferred
  std::map<std::string, Tensor> oracle;
  std::map<std::string, Tensor> tolerance;
  std::map<std::string, unsigned> contractions;  // by definition: reductions computed by BLAS (none: absent)
};

// The bound dims plus those read off the inputs' shapes (an extent written as a bare dim).
std::map<std::string, int64_t> resolveDims(const sema::ContractInfo& ct, const Bindings& b);

// Every definition of the oracle, then of the tolerance, in order.
OracleResult evalOracle(const sema::ContractInfo& ct, const Bindings& b, const EvalOptions& opts = {});

// Whether a Bool condition (a post or pre condition) holds. When `failing` is given and the
// condition is a forall, it receives (up to maxFailing of) the index tuples of the forall's
// variables where the body is false, in row-major order. `threads` split a forall's outermost
// variable (the same answer and tuples as one thread).
bool evalCondition(const ir::Node& cond, const sema::ContractInfo& ct, const Bindings& b, const OracleResult& r,
                   std::vector<Cell>* failing = nullptr, size_t maxFailing = 64, unsigned threads = 1);

// A whole-tensor statistic as the interpreter computes it: max, min or sum over every cell in
// order (NaN when any cell is). The compiled oracle's caller uses it too (device_oracle/).
double statistic(const std::string& fn, const Tensor& t);

// --- the prepared IR (prepare.cpp), shared by the walker's domains (walker.h) ------------
namespace detail {

enum class Fn : uint8_t {
  None, Exp, Exp2, Log, Log2, Log10, Sqrt, Rsqrt, Tanh, Erf, Sin, Cos, Sigmoid, Floor, Ceil, Fmax, Fmin,
  IsNan, IsInf, IsFinite, Eps, UnitRoundoff, MinNormal, MaxFinite, Ulp, Gamma, Sum, Prod, Max, Min,
};

enum class CmpMode : uint8_t { Real, Int, DType, Bool };

// The IR with names resolved: index variables to env slots, dims to values, dtypes to
// DTypes, tensors to pointers (or definition numbers), whole-tensor statistics and
// constant dtype queries to numbers.
struct PNode {
  ir::Op op = ir::Op::ConstInt;
  ir::Type type = ir::Type::Int;
  Fn fn = Fn::None;
  CmpMode cmp = CmpMode::Real;
  bool b = false;
  int slot = -1;            // IndexVar; Reduce, Quantifier: the first variable's slot
  int def = -1;             // TensorRead, TensorStat of a definition: its number in allDefinitions()
  numerics::DType dtype{};  // DTypeConst, DTypeVar, DTypeQuery, RoundTo
  int64_t i = 0;            // ConstInt, Dim
  double d = 0;             // ConstReal, TensorStat (its f64 value), constant DTypeQuery
  const Tensor* tensor = nullptr;  // TensorRead, TensorStat (f64 values)
  const std::string* name = nullptr;  // TensorRead, TensorStat: for messages
  const std::string* text = nullptr;  // ConstReal: the literal as written
  std::vector<PNode> kids;
  // A reduction is cached by the values of the slots it depends on (kept in the env after
  // the variable slots: a valid flag, the key values, the result): sum(k, e[r, k]) inside
  // y[r, h] is computed once per r. A cached value is the value recomputing would give,
  // so results do not depend on the order cells are visited in.
  int cache = -1;
  std::vector<int> keys;
};

struct DefRef {
  const sema::Definition* def;
  bool tolerance;
};
std::vector<DefRef> allDefinitions(const sema::ContractInfo& ct);  // oracle, then tolerance

struct PrepareContext {
  const sema::ContractInfo* ct = nullptr;
  const std::map<std::string, int64_t>* dims = nullptr;
  const Bindings* bindings = nullptr;
  const OracleResult* computed = nullptr;  // definitions already computed in f64 (may be partial)
  std::vector<DefRef> defs;
  size_t visible = std::numeric_limits<size_t>::max();  // definitions numbered below this are readable
  bool requireTensors = true;  // f64: a definition read must already be computed
};

struct Prepared {
  PNode root;
  int slots = 0;  // env size: the bound indices first, then reduction / quantifier vars, then caches
};

Prepared prepare(const ir::Node& n, const PrepareContext& ctx, const std::vector<std::string>& bound);

int64_t evalInt(const PNode& n, int64_t* env);
double evalReal(const PNode& n, int64_t* env);  // Int and Bool nodes too (as numbers)
bool evalBool(const PNode& n, int64_t* env);

}  // namespace detail
}  // namespace kc::oracle

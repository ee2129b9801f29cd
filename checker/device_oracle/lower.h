#pragma once
// Lowers a contract's oracle and tolerance definitions from the IR to one C++ translation
// unit (docs/oracle.md, "The compiled oracle"): a CUDA program when nvcc compiles it, a host
// program when the host compiler does (the same text; kc_oracle_rt.h holds the helpers).
//
// Every definition becomes one function of a cell and one kernel over its cells, in f64,
// in the interpreter's order of operations (reductions left to right, if-then-else and
// and/or evaluated lazily), so on the host the values are the interpreter's bit for bit and
// on a GPU they differ only by the device's libm. A reduction that depends on fewer indices
// than its definition (softmax's row sum inside y*[r, h]) is hoisted into a tensor of its
// own over those indices, computed once per cell of it: the interpreter's reduction cache,
// made explicit. What the lowering does not cover (a statistic of a definition, an oracle
// precision above f64, an operation without a twin) is refused with the reason, and the
// caller runs the interpreter instead.
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/ir.h"
#include "compiler/sema/model.h"
#include "stdlib/numerics/dtype.h"

namespace kc::device_oracle {

// A tensor the program reads: a kernel input or output (by name and role).
struct ReadTensor {
  std::string name;
  ir::Role role = ir::Role::Input;
  size_t rank = 0;
  bool wholeOnly = false;  // only a statistic reads it: any rank, and never on the device
};

// A whole-tensor statistic (max(x)) of a read tensor, computed by the caller (oracle::statistic).
struct Statistic {
  std::string fn;     // max, min, sum
  size_t tensor = 0;  // into Lowered::reads
};

// A tensor the program computes: a definition, or a reduction hoisted out of one.
struct Computed {
  std::string name;        // the definition's name; "hoist.N" for a hoisted reduction
  bool tolerance = false;  // a definition of the tolerance section
  bool hoisted = false;    // an intermediate: not returned
  std::vector<ir::NodePtr> extents;  // Int, over dims
};

struct Lowered {
  std::string source;
  std::vector<std::string> dims;  // c.dims[k] is the value of dims[k]
  std::vector<ReadTensor> reads;
  std::vector<Statistic> stats;
  std::vector<Computed> computed;  // in the order the program computes them
};

struct LowerResult {
  bool ok = false;
  std::string reason;  // why not, when !ok
  Lowered lowered;
};

// `dtypes` binds the contract's dtype variables (T -> f32): the program is per binding.
LowerResult lower(const sema::ContractInfo& ct, const std::map<std::string, numerics::DType>& dtypes);

// The entry point of every lowered program (extern "C"), and the layout of its argument.
inline constexpr const char* kRunSymbol = "kc_oracle_run";
inline constexpr int kMaxRank = 8;

}  // namespace kc::device_oracle

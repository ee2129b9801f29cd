#pragma once
// Measurement plans: the deterministic list of cases a backend runs for one contract
// (docs/design.md §2, part 7). The planner (planner.h) derives a plan from the semantic model;
// plan_json.cpp and plan_text.cpp print it. Everything here is ordered: vectors of pairs in
// the kernel's declaration order, never hash maps, so one contract and one seed always give
// the same bytes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/perturbations.h"
#include "compiler/sema/model.h"

namespace kc::plan {

// One dimension: its range (the scope's narrowed range when there is one) and the
// candidate values the protocol asks for, sorted and without repeats.
struct DimPlan {
  std::string name;
  int64_t lo = 1, hi = sema::kDefaultDimMax;
  bool declared = false;          // the kernel or the scope gave the range
  bool narrowed = false;          // the scope narrowed it
  std::vector<int64_t> tiles;     // from boundary(tiles: ...), sorted, without repeats
  std::vector<int64_t> candidates;
  std::vector<bool> boundary;     // per candidate: produced by boundary(...) (t-1, t, t+1, 1, a prime, an end)
  bool fromProtocol = false;      // false: the default candidates {lo, 7, 64, 1000}
  std::vector<int64_t> allowed;   // the kernel declared a set of values: only these (sorted)

  // A value that is not a multiple of any declared tile of this dim: the last tile is partial.
  bool isTail(int64_t v) const;
};

// One alternative of an input's value distribution.
struct Distribution {
  std::string text;              // normal(0, 1), special(nan: 1%), 0.5
  sema::ProtocolValue value;     // the protocol's alternative, as written
  bool special = false;          // special(...): special values injected over `base`
  bool constant = false;         // a number: every element (a scalar's value) is this constant
  std::string baseText;          // special: the distribution the special values replace cells of
  std::optional<sema::ProtocolValue> base;
  std::string origin;            // the contract or class the alternative came from
  std::vector<std::string> origins;  // every contract or class that asked for it, `origin` first
};

// One alternative of a tensor's memory layout.
struct Layout {
  std::string text;  // contiguous, transposed, padded(7), offset(16), step(2)
  std::string kind;  // contiguous | transposed | padded | offset | step
  int64_t n = 0;     // padded: extra elements per row; offset: elements before the first; step: stride of the last dim
  std::vector<std::string> origins;  // who asked for it (empty: the default contiguous layout)
};

// One alternative of the perturbations.
struct Perturbation {
  std::string text;                  // none, noise, sub_batch
  std::vector<std::string> origins;  // who asked for it (empty: the default none)
};

// What the plan varies for one tensor.
struct TensorPlan {
  std::string name;
  bool output = false;
  bool scalar = false;
  std::string dtype;  // a dtype name or a dtype variable
  bool dtypeIsVar = false;
  std::vector<Distribution> values;  // inputs only
  std::vector<Layout> layouts;       // empty for scalars
};

struct DTypeVarPlan {
  std::string name;
  std::vector<std::string> allowed;  // the kernel's, narrowed by scope.dtypes
};

// Which output cells a case compares.
struct Cells {
  bool all = true;
  int64_t sample = 0;     // sampled cells (when !all)
  bool boundary = false;  // plus every boundary cell: first and last index of every dimension
  std::string text() const;
};

struct PostRef {
  size_t index = 0;  // into ContractInfo::post
  std::string origin;
  bool fromClass = false;
  std::string text;  // the condition as IR text
};

struct Case {
  std::string id;      // <contract id>#<n>, n from 1
  size_t number = 0;   // n
  std::string why;     // base | boundary | distribution | layout | dtype | perturb | special-values | grid-rows | large-index | case | problem
  std::vector<std::pair<std::string, int64_t>> dims;        // kernel order
  std::vector<std::pair<std::string, std::string>> dtypes;  // dtype variable -> dtype name
  std::vector<std::pair<std::string, size_t>> values;       // input -> index into TensorPlan::values
  std::vector<std::pair<std::string, size_t>> layouts;      // tensor -> index into TensorPlan::layouts
  std::vector<uint64_t> seeds;
  int64_t repeats = 1;
  std::string perturb = backend::perturb::kNone;
  Cells cells;
  // The classes this case was made for: those whose distribution, layout or perturbation it
  // carries (in the contract's applies order); just the contract when it carries none. A
  // class's signatures name a failure only on its own cases and on every case when it is in
  // Plan::everywhere (checker/run/signatures.h).
  std::vector<std::string> origins;
  std::vector<size_t> post;   // indices into Plan::post
  uint64_t memoryBytes = 0;   // every tensor's storage; saturates at 2^64 - 1
  uint64_t maxElements = 0;   // the largest tensor's element count
  uint64_t outputCells = 0;   // the largest output's element count
  int largeIndex = 0;         // 32: some tensor has more than 2^32 elements; 31: more than 2^31; else 0
  bool tail = false;          // some tiled dim is not a multiple of any of its tiles
};

struct Plan {
  std::string contract;
  std::string kernel;  // empty: the contract has no kernel, so no cases
  uint64_t seed = 0;   // the base seed (--seed)
  std::vector<DimPlan> dims;
  std::vector<DTypeVarPlan> dtypeVars;
  std::vector<TensorPlan> tensors;  // the kernel's ABI order
  std::vector<Perturbation> perturb;  // alternatives; {"none"} by default
  // Applied classes that asked for every case: they set seeds, repeats or cells, or ask for
  // no alternative at all (their postconditions hold on any input).
  std::vector<std::string> everywhere;
  std::vector<PostRef> post;
  std::vector<Case> cases;
  size_t derived = 0;  // cases derived before the bound
  size_t dropped = 0;  // derived - kept
  size_t breakingPre = 0;  // cases left out because their dims break a precondition
  size_t maxCases = 256;

  const TensorPlan* tensor(const std::string& name) const;
  TensorPlan* tensor(const std::string& name);
  const DimPlan* dim(const std::string& name) const;
};

// The classes that own an alternative asked for by `origins` (empty: it is neutral): an
// alternative is neutral when it is a default (`isDefault`: contiguous, none), or the
// contract itself or a class of `plan.everywhere` asked for it too.
std::vector<std::string> alternativeOwners(const Plan& plan, const std::vector<std::string>& origins, bool isDefault);

// Whether `dim` alone is a shape entry of one of the kernel's tensors: an extent, not a
// convolution's stride, padding or dilation, which only enter a shape through an expression.
bool isExtent(const sema::ContractInfo& c, const std::string& dim);

}  // namespace kc::plan

#pragma once
// Private to compiler/plan/: the planner (planner.h) in parts, one file per concern.
//   plan_dims.cpp            the dims' candidate values (scope-narrowed, protocol bindings, boundary(...))
//   plan_alternatives.cpp    what else varies: dtypes, distributions, layouts, perturbations
//   plan_special_values.cpp  NaN/Inf distributions: on which base, which cases, which postconditions
//   plan_pairing.cpp         pairwise covering: the dims' tuples and the greedy choice of alternatives
//   plan_coverage.cpp        the coverage cases: tail tuples first, extra cases, sub_batch cases
//   plan_large_index.cpp     cases whose tensors pass 2^31 and 2^32 elements (index_width.h);
//                            the grid-row case (rows past 65,535)
//   plan_case.cpp            per case: sizes and memory, cells, seeds, postconditions, origins
//   planner.cpp              the order of the steps (makePlan, friendlyPlan), the model types
// Each part is a class over PlanState, the contract and the plan built so far: a part reads
// what earlier parts wrote into plan_ (planner.cpp's Planner::run gives the order).
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "compiler/ir/eval.h"
#include "compiler/plan/planner.h"

namespace kc::plan::detail {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kGridRows = 65537;  // 2^16 + 1: past CUDA's grid y/z limit of 65,535
constexpr int64_t kGridRowLength = 32;  // the other dims of that case: at most this (megabytes, seconds on a host)
constexpr uint64_t kAllCellsMax = uint64_t{1} << 24;  // above this, check sample(4096) + boundary
constexpr int64_t kDefaultSample = 4096;

inline uint64_t satMul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? kU64Max : r;
}
inline uint64_t satAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? kU64Max : r;
}

void addOrigin(std::vector<std::string>& list, const std::string& id);

// One thing a case chooses an alternative of.
struct Factor {
  std::string kind;    // dtype | distribution | layout | perturb
  std::string target;  // the dtype variable or tensor
  size_t size = 1;
  // Per alternative: the classes that own it (empty: neutral, any case may carry it). One
  // case carries the alternatives of one class at most, so that a failure on it is that
  // class's (Case::origins).
  std::vector<std::vector<std::string>> owners;
  std::vector<bool> needsBatch;  // per alternative: sub_batch, pointless on a batch of one row
};

// The contract being planned and the plan so far, with the questions every part asks of a
// case (plan_case.cpp, plan_special_values.cpp).
struct PlanState {
  PlanState(const sema::ContractInfo& c, const Options& o, Plan& p) : c_(c), o_(o), plan_(p) {}

  const DTypeVarPlan* dtypeVar(const std::string& n) const;
  // The classes an alternative asked for by `origins` belongs to; empty when it is neutral:
  // a default (contiguous, none), the contract's own, or asked for by a class that asks for
  // every case anyway.
  std::vector<std::string> owners(const std::vector<std::string>& origins, bool isDefault) const;
  static uint64_t bytesOf(const std::string& dtype);
  std::string dtypeOf(const Case& c, const TensorPlan& t) const;
  uint64_t elements(const sema::TensorInfo& t, const ir::IntEnv& env) const;
  // Element counts, storage and memory of every tensor under the case's dims and layouts.
  void measure(Case& c) const;
  // False when the dims (those bound in `env`) already break a precondition over dims only
  // (`L + 2 * P >= D * (K - 1) + 1`): no input can meet it, so no case is made there.
  bool dimsMayMeetPre(const ir::IntEnv& env) const;
  // The case's dims as an environment.
  static ir::IntEnv dimsEnv(const Case& c);
  // Whether `dim` alone is a shape entry of one of the kernel's tensors (not a convolution's
  // stride, padding or dilation, which only enter a shape through an expression).
  bool bareShapeEntry(const std::string& dim) const;
  // The smallest size of `d` in a large-index, grid-row or friendly case: 0 for a dim that
  // may be 0 and is no shape entry of its own (a padding: 0 empties no tensor), else the
  // protocol's smallest positive size (a dim the contract's values depend on keeps the sizes
  // those values fit), else 1.
  int64_t leastSize(const DimPlan& d) const;
  // Whether the case draws some input from a special-values distribution.
  bool hasSpecial(const Case& c) const;
  // Adds the postconditions the case tests: every one, or with special values only those of
  // the contract or classes that asked for them.
  void choosePosts(Case& c) const;

  const sema::ContractInfo& c_;
  const Options& o_;
  Plan& plan_;
};

// --- plan_dims.cpp ------------------------------------------------------------------------------
struct DimsPlanner : PlanState {
  explicit DimsPlanner(const PlanState& s) : PlanState(s) {}
  void planDims(const sema::KernelInfo& k);
};
// A size a hand-written test would pick (see friendlyPlan in planner.h).
int64_t friendlyValue(const DimPlan& d);

// --- plan_alternatives.cpp ----------------------------------------------------------------------
struct AlternativesPlanner : PlanState {
  explicit AlternativesPlanner(const PlanState& s) : PlanState(s) {}
  void planDTypes(const sema::KernelInfo& k);
  void planPerturb(const sema::KernelInfo& k);
  // The applied classes that ask for every case: they set seeds, repeats or cells, or ask
  // for no distribution, layout or perturbation of their own.
  void planEverywhere();
  TensorPlan planTensor(const sema::TensorInfo& t);
  static bool integerDType(const std::string& name);
};

// --- plan_special_values.cpp --------------------------------------------------------------------
// Whether a protocol value asks for special values (special(nan: 1%, ...)).
bool isSpecial(const sema::ProtocolValue& v);
// Appends the special-values distributions after the plain ones, each drawn over the first
// plain one.
void appendSpecials(TensorPlan& tp, std::vector<Distribution>& specials);

// --- plan_pairing.cpp ---------------------------------------------------------------------------
struct PairingPlanner : PlanState {
  explicit PairingPlanner(const PlanState& s) : PlanState(s) {}
  std::vector<Factor> factors() const;
  // Sets the factors of `c` to the chosen alternatives.
  void assign(Case& c, const std::vector<Factor>& fs, const std::vector<size_t>& alt) const;
};

// Chooses the factors' alternatives case by case, greedily: for each factor in order, an
// alternative not yet seen on a tail case (when the case is one), then the one that covers
// the most new pairs with the factors already chosen for this case and with the case's
// dimension values, then the one that met those least often so far (so that factors do not
// move in lockstep), then the least used one, then the first.
struct Greedy {
  const std::vector<Factor>& fs;
  size_t dims;
  size_t batch = SIZE_MAX;  // the batch dimension's index in the case's dims (plan/batch.h)
  // (f, a, g, b) -> how often alternative a of factor f met alternative b of factor g < f,
  // or the value b of dimension g - fs.size()
  std::map<std::tuple<size_t, size_t, size_t, int64_t>, size_t> met;
  std::vector<std::vector<size_t>> used;
  std::vector<std::vector<bool>> onTail;

  Greedy(const std::vector<Factor>& f, size_t d);
  size_t seenOnTail() const;
  bool complete() const;
  size_t count(size_t f, size_t a, size_t g, int64_t b) const;
  // Whether alternative a of factor f may join a case whose classes so far are `owner`
  // (empty: none yet): a neutral alternative always; else one of the same class.
  bool fits(size_t f, size_t a, const std::vector<std::string>& owner, const Case& c) const;
  // The alternatives for one case, factor by factor; `pin` (factor, alternative) is chosen
  // first when given.
  std::vector<size_t> pick(const Case& c, bool tail, std::optional<std::pair<size_t, size_t>> pin) const;
  // Returns the alternatives and the first factor whose alternative was new on a tail case.
  std::pair<std::vector<size_t>, size_t> choose(const Case& c, bool tail);
};

// --- plan_coverage.cpp --------------------------------------------------------------------------
struct CoveragePlanner : PairingPlanner {
  explicit CoveragePlanner(const PlanState& s) : PairingPlanner(s) {}
  // The pairwise dimension tuples, with every alternative of every factor.
  std::vector<Case> coverageCases();
  void addSubBatchCases(std::vector<Case>& cases, const std::vector<Factor>& fs) const;
  void addFiniteCases(std::vector<Case>& cases, const std::vector<Factor>& fs) const;
  void addJointSpecialCase(std::vector<Case>& cases, const std::vector<Factor>& fs) const;
  size_t neutralAlternative(const Factor& f) const;
};

// --- plan_large_index.cpp -----------------------------------------------------------------------
struct LargeIndexPlanner : PlanState {
  explicit LargeIndexPlanner(const PlanState& s) : PlanState(s) {}
  // One case per dtype choice at exactly `dims` (a value for every dim of the plan), at
  // contiguous layouts and the first distributions, unperturbed, with `why` (plan_problem.cpp).
  std::vector<Case> casesAt(const std::vector<std::pair<std::string, int64_t>>& dims, const std::string& why) const;
  // The cases the protocol names with `case` (plan_explicit.cpp).
  std::vector<Case> explicitCases() const;
  // Every input at its first distribution, every tensor at its contiguous layout.
  void plainInputs(Case& c) const;
  std::optional<ir::IntEnv> grow(const sema::TensorInfo& t, uint64_t target) const;
  // A tensor with at most this many dims is grown in every order of its dims (grow()).
  static constexpr size_t kEveryOrderDims = 6;
  std::vector<Case> largeIndexCases();
  // One case per dtype with the row dim past CUDA's grid y/z limit of 65,535 (the others small).
  std::vector<Case> gridRowCases();
  std::vector<std::vector<std::pair<std::string, std::string>>> dtypeChoices() const;
};

// --- plan_case.cpp ------------------------------------------------------------------------------
struct CaseFinisher : PlanState {
  explicit CaseFinisher(const PlanState& s) : PlanState(s) {}
  Cells cellsFor(const Case& c) const;
  // Number, id, seeds, repeats, cells, postconditions and origins of a kept case.
  void finish(Case& c, size_t number) const;
  // The classes whose alternatives the case carries, in the applies order; else the contract.
  std::vector<std::string> caseOrigins(const Case& c) const;
};

}  // namespace kc::plan::detail

#pragma once
// Derives measurement plans from the semantic model (docs/language.md, "Measurement plans"),
// and prints them. Deterministic: the same contract and seed give byte-identical output.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/plan/plan.h"

namespace kc::plan {

struct Options {
  uint64_t seed = 0;      // the base seed (--seed)
  size_t maxCases = 256;  // cases kept per contract; the rest are counted as dropped
  std::string friendlyDtype = "f32";  // friendlyPlan's dtype, where a dtype variable allows it
  // One more case per dtype at exactly these dims (every dim of the kernel), after the rest
  // and never dropped: a KernelBench problem's own shape (check --problem-shape), numbered
  // after the other cases so theirs do not move. A dim it lacks or a value outside the dim's
  // range throws std::invalid_argument.
  std::vector<std::pair<std::string, int64_t>> problemDims;
};

// The plan of one contract (not a class). A contract without a kernel gets a plan without cases.
Plan makePlan(const sema::ContractInfo& contract, const Options& options = {});

// Measures case `c` of `plan` (a plan of `contract`) afresh after its dims changed: its memory,
// element counts, output cells and large-index class.
void remeasure(const sema::ContractInfo& contract, Plan& plan, Case& c);

// The plan a plain allclose test would run, for calibration: one case at a friendly shape
// (every dim a multiple of its declared tiles, else 64; a dim that is no shape entry of its
// own, a stride or padding, at its least size), options.friendlyDtype where a dtype
// variable allows it (f32 by default), else its first dtype,
// contiguous layouts, for floating-point inputs the contract's own first plain distribution
// (else normal(0, 1); other inputs keep their first distribution), `seeds` seeds, one
// launch, every cell.
Plan friendlyPlan(const sema::ContractInfo& contract, const Options& options, size_t seeds);

// The dims of the large-index case the planner makes for tensor `tensor` past 2^bits
// elements (index_width.h; plan_large_index.cpp: one dim grown, the others at their smallest
// candidates), in kernel order; empty when the tensor cannot get that large.
std::vector<std::pair<std::string, int64_t>> largeIndexDims(const sema::ContractInfo& contract, const std::string& tensor,
                                                            int bits);

// Plans of every contract declared in `files` (not imported ones, not classes), in declaration order.
std::vector<Plan> planProgram(const sema::Program& program, const std::vector<uint32_t>& files,
                              const Options& options = {});

// --- the pieces, exposed for tests ------------------------------------------------------------

// 64-bit FNV-1a of the bytes of `s`.
uint64_t fnv1a64(const std::string& s);
// The splitmix64 finaliser (Steele, Lea, Flood 2014): x + golden gamma, then two xor-shift-multiplies.
uint64_t splitmix64(uint64_t x);
// Seed `k` (from 0) of case `number` (from 1) of contract `id` under base seed `base`:
// splitmix64(splitmix64(splitmix64(base ^ fnv1a64(id)) ^ number) ^ k).
uint64_t caseSeed(uint64_t base, const std::string& id, uint64_t number, uint64_t k);

// The candidate values of one dimension: `range` is the dim's (scope-narrowed) range and
// `bindings` the protocol's `dims` bindings of that dim.
DimPlan dimCandidates(const sema::DimInfo& range, bool narrowed, const std::vector<const sema::ProtocolBinding*>& bindings);

// A deterministic greedy covering of every pair of values of every two dimensions:
// sizes[d] values for dim d; each tuple holds one value index per dim. One dim: every
// value; no dims: one empty tuple. With `mayHold`, every tuple is one it does not refute
// (it sees partial tuples, kUnassigned for the dims not chosen yet), and a pair that no such
// tuple holds is left out.
constexpr size_t kUnassigned = static_cast<size_t>(-1);
using TupleFilter = std::function<bool(const std::vector<size_t>&)>;
std::vector<std::vector<size_t>> pairwiseTuples(const std::vector<size_t>& sizes, const TupleFilter& mayHold = {});

// A protocol value as the language writes it: normal(0, 1), special(nan: 1%), 1..8.
std::string valueText(const sema::ProtocolValue& v);

// --- printers -----------------------------------------------------------------------------------
nlohmann::ordered_json planJson(const Plan& plan);
// {"plans": [...]} with two-space indentation and a final newline.
std::string plansJson(const std::vector<Plan>& plans);
// A compact table per plan.
std::string plansText(const std::vector<Plan>& plans);

}  // namespace kc::plan

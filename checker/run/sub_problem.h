#pragma once
// The reduced sub-problem a large case is judged on (docs/checking.md, "Large cases"). A dim
// is *free* when the contract only ever uses it as a plain index: every tensor axis that
// mentions it is exactly that dim, every expression reads those axes with a bare index
// variable ranging over the whole dim (a definition's own index or a forall's variable), that
// variable does no arithmetic and indexes nothing else, and the dim's value appears nowhere
// (no reduction over it, no bound, no `H + 2` in a tolerance). Then each cell of every output
// depends only on the same coordinate of that dim in every tensor, so cutting the dim down to
// a few sampled coordinates — gathering those slices of every tensor — gives a problem the f64
// oracle evaluates exactly as it would the full one, on the sampled cells. Elementwise ops and
// row-wise reductions (the row dim is free, the reduced dim is not) are of this kind.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/run/case_setup.h"
#include "compiler/sema/model.h"

namespace kc::run {

// The free dims of a contract's kernel, in kernel order.
std::vector<std::string> freeDims(const sema::ContractInfo& contract);

// Sampled coordinates of one dim of extent n, ascending and distinct: the boundary
// coordinates (0, 1, n/2, n-2, n-1, and 2^31-1, 2^31, 2^32-1, 2^32 where they are inside),
// then coordinates drawn from the seed's stream until there are `budget` (or n).
std::vector<int64_t> sampleCoordinates(int64_t n, int64_t budget, uint64_t seed, const std::string& dim);

struct SubProblem {
  CaseSetup setup;  // the restricted problem: free dims at their sample sizes, contiguous
  std::map<std::string, std::vector<int64_t>> coords;  // free dim -> its sampled coordinates
  // Per argument and axis: the free dim the axis is ("" when kept whole).
  std::vector<std::vector<std::string>> axisDim;

  // The full problem's logical index of a cell of argument `arg` in the sub-problem.
  std::vector<int64_t> fullIndex(size_t arg, const std::vector<int64_t>& subIndex) const;
};

// The sub-problem of `full` that keeps `coords` of each free dim (dims not in `coords` stay
// whole). Every argument of the result is contiguous.
SubProblem restrict(const sema::ContractInfo& contract, const CaseSetup& full,
                    const std::map<std::string, std::vector<int64_t>>& coords);

}  // namespace kc::run

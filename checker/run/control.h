#pragma once
// Attribution by control run: a case made for a class (plan::Case::origins) carries that
// class's alternatives — a transposed view, NaN or subnormal inputs — beside the contract's
// own values. When it fails with one of the class's signatures that only describe wrong
// cells, the case is run again with the class's layouts, special values and perturbation
// replaced by neutral ones (contiguous views, the special's base distribution, none). If the
// control fails as well, the failure does not need the class's inputs: the class's generic
// signatures are dropped and the control's names are used (an f16 accumulator fails on a
// transposed view too, but that is not `ignores-strides`). Plain distributions of a class
// (std.cc.approximation@1's uniform(-6, 6)) are not replaced: they are chosen to make a bug
// of the class larger, not to be its only trigger, so a tanh-for-erf gelu that also fails
// on the contract's own values is still `approximate-math`.
#include <optional>
#include <string>
#include <vector>

#include "checker/report/result.h"
#include "checker/run/worker.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::run {

// The case with every class-owned layout, special distribution and perturbation replaced by
// a neutral one, its origins the contract's; nullopt when it carries none. The classes
// whose alternatives were replaced are appended to `classes`.
std::optional<plan::Case> controlCase(const plan::Plan& plan, const plan::Case& c, std::vector<std::string>* classes);

// The signature names of `names` that are generic (only `wrong cells` / `error grows`
// clauses) and come from a class in `classes`.
std::vector<std::string> genericSignaturesOf(const sema::ContractInfo& ct, const std::vector<std::string>& names,
                                             const std::vector<std::string>& classes);

struct ControlRun {
  const sema::ContractInfo* contract = nullptr;
  const plan::Plan* plan = nullptr;
  const plan::Case* kase = nullptr;
  uint64_t seed = 0;
  WorkerRequest worker;  // backend, prepared kernel, entry, timeout; setup and storage are the control's
  unsigned threads = 2;
};

// Applies the control run to a FAIL result (see above); leaves any other result alone. When
// the control passes, the class's names stand and the generic names of others are dropped.
void attributeByControl(const ControlRun& in, report::CaseResult& result);

}  // namespace kc::run

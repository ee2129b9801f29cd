#pragma once
// `error grows with D` across cases: a signature's claim that a kernel's error increases
// with a dimension can only be judged over several cases. Over one job's results, the
// largest error (in ulps of the output dtype) per value of D must rise — never fall by more
// than a factor of 2 from one value to the next — and end at least 4 times above where it
// starts, over at least three values of D with a finite error.
#include <string>
#include <vector>

#include "checker/report/result.h"
#include "compiler/sema/model.h"

namespace kc::check {

struct GrowthFinding {
  std::string signature;
  std::string dim;
  bool confirmed = false;
  std::string evidence;  // "max ulps 1 at H=1 ... 4096 at H=4097"
};

// For each signature of the contract with an `error grows with D` clause, whether the
// results show it. Only signatures some FAIL case lists are judged.
std::vector<GrowthFinding> judgeGrowth(const sema::ContractInfo& contract, const std::vector<report::CaseResult>& results);

}  // namespace kc::check

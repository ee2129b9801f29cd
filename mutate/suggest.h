#pragma once
// The suggest stage of `kcontract mutate` (docs/mutate.md, "Suggested cases"): for each
// surviving mutant, the plan changes that would kill it, each checked by re-running. A plan
// change is one factor of the protocol moved — an input's value distribution, or one dim's
// value — applied to a few of the plan's own cases (so the rest of each case, its dims,
// dtypes and layouts, stays as the contract has it). A change is suggested for a survivor
// only when the mutant FAILs (or CRASHes, ...) on it and the unmutated kernel passes every
// case of it: a change that breaks the correct kernel too says nothing about the mutant.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checker/check.h"
#include "compiler/plan/plan.h"
#include "mutate/kill_matrix.h"

namespace kc::mutate {

// One plan change: the protocol text that asks for it, and the rewrite of a plan into the
// cases it makes (at most kSuggestCases of them).
struct PlanChange {
  std::string text;  // "values x ~ uniform(-1e5, 1e5)", "dims H in {1029}"
  std::function<void(plan::Plan&)> apply;
};

inline constexpr size_t kSuggestCases = 6;

// The changes tried, in order: per floating input, wide values (past f16's range), a large
// mean over a small spread, and a plain normal(0, 1); per dim, a value past its largest
// candidate, alone and with every floating input at normal(0, 1). `reference` is the
// contract's plan as the kill matrix ran it.
std::vector<PlanChange> planChanges(const sema::ContractInfo& contract, const plan::Plan& reference);

// What the stage found for one survivor.
struct Suggestion {
  std::string change;    // the plan change's text; empty: none of those tried kills it
  std::string killedBy;  // the mutant's first kill under it: "std.op.softmax@3#2 FAIL (overflow)"
  bool named = false;    // that kill is named by the mutant's family
  size_t originalCases = 0;  // cases of the change the unmutated kernel passed
  size_t tried = 0;      // changes tried for this survivor
};

// Tries the plan changes of the first job's contract on survivors; thread-safe, so survivors
// can be tried side by side. The unmutated kernel runs each change once, when a survivor
// first needs it.
class Suggester {
 public:
  Suggester(const std::vector<check::Job>& jobs, const check::RunOptions& run, const std::string& originalPath,
            Naming naming);
  ~Suggester();
  Suggestion suggest(const std::string& mutantPath, const std::string& family);
  size_t changes() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace kc::mutate

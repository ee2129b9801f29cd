#pragma once
// The diagnosis of a failing kernel (docs/checking.md, "How a cause is chosen"): after a
// job's cases ran, the names its failing cases matched become causes only where their
// evidence holds, and diagnostic re-runs (probes.h) test the hypotheses a signature cannot:
//   observed      a built-in check saw it (input-modified, nondeterministic, unwritten
//                 cells ...) or a `wrong cells` pattern beyond "wrong" holds at every wrong
//                 cell (nan-swallowed: y* NaN and y not)
//   re-run        a diagnostic re-run showed it (reads outside its views, fails exactly when
//                 a dim's remainder is nonzero or past a grid's 65,535 blocks, ignores its
//                 inputs, sees only a narrower format of them); the plan's own large-index
//                 cases failing alone show an index that wraps
//   condition     `fails when` / `fails only when` holds on every failing case it could name
//   growth        `error grows with D` is shown across cases
//   control       a class's generic name (`wrong cells: |y - y*| > tol`, which any failure
//                 satisfies) whose control run passed: the class's inputs are needed
// A name without its evidence is not named (and the report says why). The causes are ranked
// by the strength of their evidence, then by how many failing cases they explain; after the
// primary, a cause is listed only when it explains a failing case the ones before it do not.
#include <cstdint>
#include <functional>
#include <vector>

#include "checker/diagnose/variant_run.h"
#include "checker/report/diagnosis.h"
#include "checker/report/result.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::diagnose {

struct DiagnoseInput {
  const sema::ContractInfo* contract = nullptr;
  const plan::Plan* plan = nullptr;
  const std::vector<report::CaseResult>* results = nullptr;  // one job's, every verdict
  ProbeContext* probes = nullptr;                            // none: no re-runs
  std::function<uint64_t(uint64_t seed, size_t caseNumber)> marks;  // a run's marks key
  // A case re-run under compute-sanitizer's racecheck (CUDA only; none: not asked). Runs
  // that differ are a data race when it reports hazards, else an unordered reduction.
  std::function<report::SanitizerRun(const report::CaseResult&)> racecheck;
};

report::Diagnosis diagnose(const DiagnoseInput& in);

}  // namespace kc::diagnose

#pragma once
// One diagnostic re-run: a variant of a failing case (other dims, another seed, other
// marks) run through the job's worker and judged by the contract, as the case itself was.
// The diagnosis (diagnose.h) builds its hypotheses from what these runs show. Each run
// costs one launch; the context counts them against a budget so a diagnosis stays bounded.
#include <cstdint>
#include <string>
#include <vector>

#include "checker/report/result.h"
#include "checker/run/case_setup.h"
#include "checker/run/worker.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::diagnose {

struct ProbeContext {
  const sema::ContractInfo* contract = nullptr;
  plan::Plan plan;            // the job's plan; a probe may add input distributions to it
  run::WorkerRequest worker;  // backend, prepared kernel, entry, worker process, timeout
  unsigned threads = 2;
  int runsLeft = 32;          // the re-runs a diagnosis may still make
  double secondsLeft = 60;    // and the time it may still spend on them
};

struct VariantRun {
  bool ran = false;  // false: the variant could not be built or run (it shows nothing)
  std::string why;   // when !ran
  report::CaseResult result;  // the contract's verdict on the variant
  run::CaseSetup setup;
  std::vector<std::vector<uint8_t>> storage;  // the pristine storage of every argument
  std::vector<std::vector<uint8_t>> outputs;  // per output argument (ABI order): launch 1's image
};

// Runs `variant` (a case of ctx.plan, possibly with other dims) once with `seed` and `marks`.
VariantRun runVariant(ProbeContext& ctx, const plan::Case& variant, uint64_t seed, uint64_t marks);

// Whether two runs of the same shape wrote the same bytes into every output's view. A cell
// holding each run's own poison counts as the same (unwritten in both). `written`: the cells
// some run wrote with a finite value.
bool sameOutputs(const VariantRun& a, const VariantRun& b, int64_t* written = nullptr);

// Whether the two runs' inputs differ somewhere in their views.
bool inputsDiffer(const VariantRun& a, const VariantRun& b);

}  // namespace kc::diagnose

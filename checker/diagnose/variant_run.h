#pragma once
// One diagnostic re-run: a variant of a failing case (other dims, another seed, other
// marks) run through the job's worker and judged by the contract, as the case itself was.
// The diagnosis (diagnose.h) builds its hypotheses from what these runs show. Each run
// costs one launch; the context counts them against a budget so a diagnosis stays bounded.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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

// The `why` of a re-run refused because the diagnosis's budget is spent.
inline constexpr const char* kBudgetSpent = "the diagnosis's re-run budget is spent";

// Once the budget is spent every later re-run says so: keeps the first such line of a
// diagnosis's re-run lines and counts the others on it ("; 3 more re-runs were not made").
void foldBudgetSpent(std::vector<std::string>& probes);

struct VariantRun {
  bool ran = false;  // false: the variant could not be built or run (it shows nothing)
  std::string why;   // when !ran
  report::CaseResult result;  // the contract's verdict on the variant
  // InputEdit::judgeUnedited: the verdict against the edited inputs' own exact outputs
  // (`result` is against the unedited ones').
  report::CaseResult edited;
  std::map<std::string, double> largestExact;  // per output: the largest finite exact value (judged on)
  run::CaseSetup setup;
  std::vector<std::vector<uint8_t>> storage;  // the pristine storage of every argument
  std::vector<std::vector<uint8_t>> outputs;  // per output argument (ABI order): launch 1's image
};

// What a re-run changes in the inputs' bytes, beyond the case's own.
struct InputEdit {
  // Every cell of every f32 or f64 input is first rounded to this dtype (kept in the
  // input's own dtype), so the inputs are exact in it.
  std::optional<numerics::DType> narrowTo;
  // Every storage element of a float input outside its view (the gaps of a padded layout)
  // holds a finite value of the view's own range instead of the poison, so a kernel that
  // reads there computes with it rather than with a NaN that hides the difference: the
  // view's largest value (High) or its smallest (Low; below it when every cell is equal).
  enum class Gap { Poison, High, Low };
  Gap gap = Gap::Poison;
  // Every cell of the float tensor input named `scaleInput` (or of each named in
  // `scaleInputs`) multiplied by `scaleBy`.
  std::string scaleInput;
  std::vector<std::string> scaleInputs;
  double scaleBy = 1;
  // Every float tensor input's view read backwards: its cell k holds what cell n-1-k held.
  bool reverse = false;
  // Every cell of every float tensor input set to 1; with onesIntegers, of every integer
  // tensor input too (values, not indices: the caller knows which).
  bool ones = false;
  bool onesIntegers = false;
  // The kernel runs on the edited inputs, but the contract judges its outputs against the
  // unedited ones (the case's own oracle): "would it pass if x were scaled first".
  bool judgeUnedited = false;
  // Every tensor input's view (floats and integers alike) handed over as its cells in
  // row-major order, to change as a whole (rows replicated, keys reordered); applied before
  // the edits above. Integer values are rounded and clamped to the input's dtype.
  std::function<void(const run::ArgSpec&, std::vector<double>&)> rewrite;
};

// The arguments and pristine storage of a variant with `edit` applied, as a re-run would
// give them to the kernel (no run: for the exact outputs of an edit before paying a launch).
struct VariantInputs {
  run::CaseSetup setup;
  std::vector<std::vector<uint8_t>> storage;
};
VariantInputs variantInputs(ProbeContext& ctx, const plan::Case& variant, uint64_t seed, uint64_t marks, const InputEdit& edit = {});

// Whether a run gave the variant that verdict.
inline bool failed(const VariantRun& v) { return v.ran && v.result.verdict == report::Verdict::Fail; }
inline bool passed(const VariantRun& v) { return v.ran && v.result.verdict == report::Verdict::Pass; }

// Whether the variant's dims may meet the contract's preconditions: false when one over dims
// only is broken (a conv's window wider than its padded input), so no input could meet it
// and the planner would never have made such a case.
bool dimsMayMeetPre(const ProbeContext& ctx, const plan::Case& variant);

// The index of `layout` (by its text) among the tensor's layouts, added to the tensor's plan
// when it has no such layout: a re-run may ask for one the contract's protocol did not.
size_t layoutIndex(plan::TensorPlan& t, const plan::Layout& layout);

// Runs `variant` (a case of ctx.plan, possibly with other dims) once with `seed` and `marks`.
// A variant whose dims break a precondition is not run (`why` says so) and costs no run.
// `waitForDevice`: the outputs are read after the whole device is waited for, not only the
// launch's stream (run::WorkerRequest::deviceSync).
// `perturb`: the run's perturbation (backends/perturbations.h), none unless a re-run asks.
VariantRun runVariant(ProbeContext& ctx, const plan::Case& variant, uint64_t seed, uint64_t marks, const InputEdit& edit = {},
                      bool waitForDevice = false, const std::string& perturb = "none");

// Of the output cells the first run wrote with a finite value, how many the second wrote bit
// for bit the same (same shapes), and how many there were.
std::pair<int64_t, int64_t> sameCells(const VariantRun& a, const VariantRun& b);

// The cells of output `o` (ABI order among the outputs) in row-major order, decoded; a cell
// that holds the poison (never written) is NaN.
std::vector<double> outputCells(const VariantRun& v, size_t o);

// Whether two runs of the same shape wrote the same bytes into every output's view. A cell
// holding each run's own poison counts as the same (unwritten in both). `written`: the cells
// some run wrote with a finite value.
bool sameOutputs(const VariantRun& a, const VariantRun& b, int64_t* written = nullptr);

// For the float tensor input whose view changed most between the two runs (by share of its
// cells): how many of its cells differ, and how many it has.
std::pair<int64_t, int64_t> changedInputCells(const VariantRun& a, const VariantRun& b);

// Whether the two runs' inputs differ somewhere in their views.
bool inputsDiffer(const VariantRun& a, const VariantRun& b);

}  // namespace kc::diagnose

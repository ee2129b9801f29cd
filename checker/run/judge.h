#pragma once
// Gives one run of a case its verdict (docs/design.md §6): the worker's fate first (CRASH,
// TIMEOUT, ERROR), then the harness's own checks (canaries, writes outside the view, inputs
// changed, repeats that differ), then the contract: the precondition on the generated
// inputs, the f64 oracle and tolerance, every postcondition of the case, the worst cells,
// MISTRUSTED when the case could not have caught anything, and the signatures that name a
// failure (signatures.h).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/device_oracle/oracle_engine.h"
#include "checker/report/result.h"
#include "checker/run/batch.h"
#include "checker/run/case_setup.h"
#include "checker/run/phase_times.h"
#include "checker/run/worker.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::run {

// A plain allclose harness, the check most kernels are accepted by today: every output cell
// within atol + rtol |y*| of the f64 oracle (NaN never equal, as torch.allclose's default),
// and nothing else — no canaries, no input or repeat checks, no postconditions.
// Calibration uses it to show a violating kernel is accepted by the check it replaces.
struct Allclose {
  double atol = 1e-2, rtol = 1e-2;
  // The output buffers hold the reference's answer before the launch, as when a harness's
  // caching allocator hands the kernel the memory its reference was just computed in.
  bool prefillReference = false;
  // Like most harnesses, it waits for the whole device after the launch, not only for the
  // stream it handed the kernel.
  bool deviceSync = true;
};

struct JudgeInput {
  const sema::ContractInfo* contract = nullptr;
  const plan::Plan* plan = nullptr;
  const plan::Case* kase = nullptr;
  const CaseSetup* setup = nullptr;
  const std::vector<std::vector<uint8_t>>* storage = nullptr;  // pristine storage per argument
  const LaunchRecord* launch = nullptr;
  unsigned threads = 2;
  const Allclose* allclose = nullptr;  // judge as a plain allclose harness instead of the contract
  const BatchFinding* batch = nullptr;  // a smaller batch of the same rows differed (batch.h)
  // Whether to look for never-written output cells the postconditions accept (the streamed
  // path counts unwritten cells over the whole output on the device instead).
  bool completeness = true;
  PhaseTimes* phases = nullptr;  // benchmarks: oracle, postconditions and the rest, timed
  // The diagnosis's re-runs: per output, the largest finite value of its exact result.
  std::map<std::string, double>* largestExact = nullptr;
  // check --oracle: the compiled oracle to try first (null: the interpreter), or why a
  // requested one is not used (no GPU); CaseResult::oracle reports which ran.
  device_oracle::OracleEngine* oracleEngine = nullptr;
  std::string oracleNotUsed{};
};

// Fills verdict, reason, violated, signatures, worst, mismatched, compared, maxAbsError,
// maxUlps and kernelOutput of `out`.
void judge(const JudgeInput& in, report::CaseResult& out);

// The first precondition that generated inputs break, printed ("" when they break none, or
// when it cannot be evaluated: the judge then decides after the launch). Reads only the
// inputs' storage (outputs may be poison).
std::string brokenPrecondition(const sema::ContractInfo& ct, const CaseSetup& s,
                               const std::vector<std::vector<uint8_t>>& storage, unsigned threads);
// The contract applies std.iface.precondition-report@1: its cases break the precondition on
// purpose, and the kernel must run on them.
bool reportsPrecondition(const sema::ContractInfo& ct);

}  // namespace kc::run

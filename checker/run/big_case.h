#pragma once
// The streamed case path (docs/checking.md, "Large cases"): a case whose tensors do not fit
// in host memory — a large-index case above 2^31 or 2^32 elements — runs on the device
// without a full host copy of any tensor, and is judged on sampled cells.
//
// In the worker: inputs are generated on the device from the counter-based fill
// (Backend::fillGenerated: every cell a pure function of seed, tensor and index), outputs
// poisoned there, canaries written around every buffer. After each launch the device checks
// what the normal path checks on the host: cells still holding poison (never written),
// canaries, and later launches against the first bitwise (Backend::countPattern,
// compareBitwise). Only the sampled cells come back: the slices of every tensor at sampled
// coordinates of the contract's free dims (sub_problem.h). The checker then regenerates the
// pristine inputs of those slices on the host and judges the sub-problem with the normal
// judge (f64 oracle, postconditions, signatures, input integrity on the sampled cells),
// adding the device's findings. A case whose contract has no free dim is SKIPPED with the
// reason, never passed.
#include <cstdint>
#include <string>

#include "backends/backend.h"
#include "checker/report/result.h"
#include "checker/run/case_setup.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"

namespace kc::run {

struct BigCaseRequest {
  const sema::ContractInfo* contract = nullptr;
  const plan::Plan* plan = nullptr;
  const plan::Case* kase = nullptr;
  const CaseSetup* setup = nullptr;  // the full problem
  backend::Backend* backend = nullptr;
  backend::Prepared prepared;
  std::string entry;
  std::string device;  // the GPU its worker's cell sees (CUDA_VISIBLE_DEVICES; "" as the checker has it)
  uint64_t seed = 0;
  int repeats = 1;
  double timeoutSeconds = 10;
  uint64_t deviceBytes = 0;          // the case's buffers (caseDeviceBytes): address space an interpreter reserves
  int64_t sampleCells = 1000;        // output cells to judge, about (over the free dims)
  uint64_t maxHostBytes = 4ull << 30;  // the sub-problem's host memory limit (--max-memory)
  unsigned threads = 2;
};

// Why the streamed path cannot run this case ("" when it can): a backend whose buffers are
// not byte addresses, a layout that is not contiguous, special values (placed by a rule over
// the whole tensor), no free dim, a sub-problem still too large for the host.
std::string bigCaseObstacle(const BigCaseRequest& request);

// Runs one seed and fills the verdict and the rest of `out` as run::judge does; the reason
// says on how many sampled cells it was judged.
void runBigCase(const BigCaseRequest& request, report::CaseResult& out);

}  // namespace kc::run

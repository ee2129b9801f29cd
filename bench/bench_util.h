#pragma once
// Helpers shared by the oracle benchmarks: compile a contract from text or a file, time a
// call (wall and CPU time), fill a tensor with reproducible values.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "compiler/pipeline.h"
#include "stdlib/values/fill.h"

namespace kc::bench {

// The first non-class contract of a compilation; exits when it does not compile.
inline const sema::ContractInfo* firstContract(const Compilation& c, const char* what) {
  if (c.diags.hasErrors() || !c.program) {
    std::fprintf(stderr, "cannot compile %s\n", what);
    std::exit(3);
  }
  for (const auto& ct : c.program->contracts)
    if (!ct->isClass) return ct.get();
  std::fprintf(stderr, "%s has no contract\n", what);
  std::exit(3);
}

// Wall-clock seconds and the process's CPU seconds (all threads) of one call. On a loaded
// machine the wall time grows with the load; the CPU time mostly does not.
struct Timing {
  double wall = 0, cpu = 0;
};

template <class F>
Timing timed(F&& f) {
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpu = std::clock();
  f();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC};
}

// A tensor of normal(0, 1) values rounded to f32 (the values a kernel under test would see).
inline oracle::Tensor normalTensor(std::vector<int64_t> shape, uint64_t tensorId) {
  oracle::Tensor t(std::move(shape));
  values::fill({values::Normal{}}, numerics::DType::F32, 1, tensorId, t.data, 2);
  return t;
}

}  // namespace kc::bench

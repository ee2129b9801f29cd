// Oracle-evaluation benchmark: the f64 interpreter on the softmax example's oracle and
// tolerance, at R x H, with 1 and 2 threads (1 thread is the baseline, in the same run).
//   build/bench/oracle_bench [R=256] [H=4096]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "checker/oracle/evaluator.h"
#include "compiler/pipeline.h"

int main(int argc, char** argv) {
  int64_t rows = argc > 1 ? std::atoll(argv[1]) : 256;
  int64_t cols = argc > 2 ? std::atoll(argv[2]) : 4096;
  kc::Compilation c;
  kc::compile(c, {std::string(KC_SOURCE_DIR) + "/examples/softmax/softmax.kcontract"}, kc::Stage::Sema);
  if (c.diags.hasErrors() || c.program->contracts.empty()) {
    std::fprintf(stderr, "cannot compile the softmax example\n");
    return 3;
  }
  const kc::sema::ContractInfo* contract = nullptr;
  for (const auto& ct : c.program->contracts)
    if (!ct->isClass) contract = ct.get();

  std::vector<double> x(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.001 * static_cast<double>(i)) * 4;
  kc::oracle::Bindings b;
  b.dtypes["T"] = kc::numerics::DType::F32;
  b.inputs["x"] = kc::oracle::Tensor::of({rows, cols}, x);

  std::printf("softmax oracle + tolerance, %lld x %lld\n", static_cast<long long>(rows), static_cast<long long>(cols));
  for (unsigned threads : {1u, 2u}) {
    auto start = std::chrono::steady_clock::now();
    auto r = kc::oracle::evalOracle(*contract, b, {threads});
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%u thread%s: %.3f s  (%.1f M cells/s)%s\n", threads, threads == 1 ? " " : "s", s,
                static_cast<double>(rows * cols) / s / 1e6, threads == 1 ? "  baseline" : "");
    if (r.oracle.at("y").numel() != rows * cols) return 3;
  }
  return 0;
}

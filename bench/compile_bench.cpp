// Compile-speed benchmark (issue 3): parse + semantic analysis of N generated contracts,
// against the parse step alone as the baseline, in the same run.
//   build/bench/compile_bench [N=1000]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "compiler/pipeline.h"

namespace {

// A realistic contract of the size of examples/softmax: kernel, all sections, a class.
std::string contract(int i) {
  std::string n = std::to_string(i);
  return "kcontract 1\n\n"
         "kernel k" + n + "(x: T[R, H]) -> (y: T[R, H])\n"
         "  where T in {f32, bf16}, R in 1..65536, H in 1..262144\n\n"
         "class bench.nan" + n + "@1 \"nan\" {\n"
         "  protocol {\n    values * ~ special(nan: 1%)\n  }\n"
         "  post {\n    forall cells: isnan(y*) -> isnan(y)\n  }\n"
         "  signature nan-swallowed {\n    wrong cells: isnan(y*) && !isnan(y)\n  }\n}\n\n"
         "contract bench.softmax" + n + "@1 \"row softmax\"\n  applies bench.nan" + n + "@1 {\n"
         "  scope {\n    kernel k" + n + "\n    layout x: strided\n    backend cuda, host\n  }\n"
         "  pre {\n    forall r, h: !isinf(x[r, h])\n  }\n"
         "  oracle f64 {\n    m[r] = max(h, x[r, h])\n    e[r, h] = exp(x[r, h] - m[r])\n"
         "    y[r, h] = e[r, h] / sum(k, e[r, k])\n  }\n"
         "  tolerance {\n    tol[r, h] = ulp(T, y*[r, h]) + (H + 4) * eps(f32) * y*[r, h]\n  }\n"
         "  post {\n    forall r, h: |y[r, h] - y*[r, h]| <= tol[r, h]\n"
         "    forall r: |sum(h, y[r, h]) - 1| <= sum(h, tol[r, h])\n  }\n"
         "  protocol {\n    seeds 4\n    repeats 3\n"
         "    dims R in {1, 3, 64}, H in boundary(tiles: 32, 64, 128) + {1, 4097}\n"
         "    values x ~ normal(0, 1) | uniform(-80, 80) | const_rows\n"
         "    layouts x in {contiguous, padded(7)}\n  }\n"
         "  signature overflow {\n    fails only when max(x) > 88\n  }\n}\n";
}

// CPU seconds of the process, all threads (the parse runs on a thread of its own).
double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

struct Time {
  double wall = 0, cpu = 0;
};

Time seconds(kc::Stage stage, int n, size_t& bytes) {
  auto start = std::chrono::steady_clock::now();
  double cpuStart = cpuSeconds();
  bytes = 0;
  for (int i = 0; i < n; ++i) {
    std::string text = contract(i);
    bytes += text.size();
    kc::Compilation c;
    if (!kc::compileText(c, "bench.kcontract", text, stage)) {
      std::fprintf(stderr, "contract %d failed to compile\n", i);
      std::exit(3);
    }
  }
  return Time{std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), cpuSeconds() - cpuStart};
}

}  // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  size_t bytes = 0;
  seconds(kc::Stage::Sema, 20, bytes);  // warm-up: ANTLR builds its DFA caches once per process
  Time parse = seconds(kc::Stage::Parse, n, bytes);
  Time sema = seconds(kc::Stage::Sema, n, bytes);
  // On a shared machine the wall time grows with the load, the CPU time much less.
  std::printf("contracts: %d (%.1f KiB of source)\n", n, bytes / 1024.0);
  std::printf("baseline, parse only:   %.3f s  (%.0f contracts/s; CPU %.3f s)\n", parse.wall, n / parse.wall, parse.cpu);
  std::printf("parse + sema (to IR):   %.3f s  (%.0f contracts/s; CPU %.3f s)  goal < 1 s\n", sema.wall, n / sema.wall,
              sema.cpu);
  return 0;
}

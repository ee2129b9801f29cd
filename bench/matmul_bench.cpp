// The f64 oracle of a matmul contract (c[i, j] = sum(k, a[i, k] * b[k, j]), a contraction
// computed by cblas_dgemm, checker/oracle/contraction.h) against a direct cblas_dgemm of the
// same operands in the same run, at M x N x K = 1024^3 and 4096 x 4096 x 1024 (or one size
// given). Goal: the oracle at >= 0.5x dgemm speed. Also, for scale: the interpreter
// (EvalOptions::blas = false) on a 256^3 product, and the example contract's oracle plus
// its tolerance (a second contraction, of |a| and |b|).
//   build/bench/matmul_bench [M N K]
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "bench/bench_util.h"

namespace {

namespace ko = kc::oracle;

const char* kMatmul = R"(kcontract 1

kernel mm(a: f32[M, K], b: f32[K, N]) -> (c: f32[M, N])
  where M in 1..65536, N in 1..65536, K in 1..65536

contract bench.mm@1 "matrix product" {
  scope {
    kernel mm
  }
  oracle f64 {
    c[i, j] = sum(k, a[i, k] * b[k, j])
  }
  post {
    forall i, j: c[i, j] == c*[i, j]
  }
}
)";

constexpr int kReps = 3;

void run(const kc::sema::ContractInfo& ct, const kc::sema::ContractInfo& example, int64_t M, int64_t N, int64_t K) {
  ko::Bindings b;
  b.dtypes["T"] = kc::numerics::DType::F32;
  b.inputs["a"] = kc::bench::normalTensor({M, K}, 1);
  b.inputs["b"] = kc::bench::normalTensor({K, N}, 2);
  const double* A = b.inputs["a"].data.data();
  const double* B = b.inputs["b"].data.data();
  std::vector<double> C(static_cast<size_t>(M * N));
  const double gflop = 2.0 * static_cast<double>(M) * static_cast<double>(N) * static_cast<double>(K) / 1e9;

  kc::bench::Timing tBlas{1e30, 0}, tOracle{1e30, 0};
  ko::OracleResult r;
  for (int rep = 0; rep < kReps; ++rep) {  // alternate the two; keep the fastest of each
    auto t = kc::bench::timed([&] {
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(M), static_cast<int>(N),
                  static_cast<int>(K), 1.0, A, static_cast<int>(K), B, static_cast<int>(N), 0.0, C.data(),
                  static_cast<int>(N));
    });
    if (t.wall < tBlas.wall) tBlas = t;
    t = kc::bench::timed([&] { r = ko::evalOracle(ct, b, {2}); });
    if (t.wall < tOracle.wall) tOracle = t;
  }
  const auto& c = r.oracle.at("c").data;
  double maxRel = 0;
  for (size_t i = 0; i < C.size(); ++i) maxRel = std::max(maxRel, std::fabs(c[i] - C[i]) / (std::fabs(C[i]) + 1e-300));
  std::printf("%lld x %lld x %lld (%.1f GFLOP), fastest of %d:      wall s   CPU s  GFLOP/s\n",
              static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K), gflop, kReps);
  std::printf("  cblas_dgemm (OpenBLAS, %d threads)  %8.3f %7.3f %8.1f  baseline\n", openblas_get_num_threads(),
              tBlas.wall, tBlas.cpu, gflop / tBlas.wall);
  std::printf("  f64 oracle (2 threads)              %8.3f %7.3f %8.1f  %.2fx dgemm speed (goal >= 0.5x)\n",
              tOracle.wall, tOracle.cpu, gflop / tOracle.wall, tBlas.wall / tOracle.wall);
  std::printf("  contractions by BLAS: %u; max relative difference to the direct dgemm: %.1e\n",
              r.contractions.count("c") ? r.contractions.at("c") : 0u, maxRel);
  if (!r.contractions.count("c")) std::exit(4);  // the fast path was not taken

  auto tExample = kc::bench::timed([&] { r = ko::evalOracle(example, b, {2}); });
  std::printf("  examples/matmul oracle + tolerance  %8.3f %7.3f           (%zu definitions by BLAS)\n", tExample.wall,
              tExample.cpu, r.contractions.size());
}

}  // namespace

int main(int argc, char** argv) {
  kc::Compilation c, ex;
  kc::compileText(c, "bench.kcontract", kMatmul, kc::Stage::Sema);
  const auto* ct = kc::bench::firstContract(c, "the matmul contract");
  kc::compile(ex, {std::string(KC_SOURCE_DIR) + "/examples/matmul/matmul.kcontract"}, kc::Stage::Sema);
  const auto* example = kc::bench::firstContract(ex, "examples/matmul");

  {  // the interpreter, for scale
    const int64_t n = 256;
    ko::Bindings b;
    b.inputs["a"] = kc::bench::normalTensor({n, n}, 3);
    b.inputs["b"] = kc::bench::normalTensor({n, n}, 4);
    auto t = kc::bench::timed([&] { ko::evalOracle(*ct, b, {2, false}); });
    std::printf("256 x 256 x 256 in the interpreter (2 threads, no BLAS): %.3f s wall, %.3f s CPU, %.1f ns CPU per "
                "term\n",
                t.wall, t.cpu, t.cpu / (n * n * n) * 1e9);
  }
  if (argc == 4) {
    run(*ct, *example, std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3]));
    return 0;
  }
  run(*ct, *example, 1024, 1024, 1024);
  run(*ct, *example, 4096, 4096, 1024);
  return 0;
}

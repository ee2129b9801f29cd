// Input generation: kc::values::fill of 256 MiB of f32 values (64 Mi cells, held as
// doubles) from normal(0, 1) and uniform(-1, 1), on 2 threads; baseline: 1 thread. GB/s
// counts the f32 bytes generated (4 per cell).
//   build/bench/inputs_bench [MiB of f32 = 256]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bench/bench_util.h"

int main(int argc, char** argv) {
  namespace kv = kc::values;
  const size_t mib = argc > 1 ? static_cast<size_t>(std::atoll(argv[1])) : 256;
  const size_t cells = mib * (size_t{1} << 20) / 4;
  std::vector<double> out(cells);
  std::memset(out.data(), 0, cells * sizeof(double));  // touch the pages before timing
  std::printf("%zu MiB of f32 (%zu cells)\n", mib, cells);
  struct Case {
    const char* name;
    kv::FillSpec spec;
  };
  for (const Case& c : {Case{"normal(0, 1)", {kv::Normal{}}}, Case{"uniform(-1, 1)", {kv::Uniform{-1, 1}}}}) {
    double one = 0;
    for (unsigned threads : {1u, 2u}) {
      auto t = kc::bench::timed([&] { kv::fill(c.spec, kc::numerics::DType::F32, 7, 1, out, threads); });
      if (threads == 1) one = t.wall;
      const double n = static_cast<double>(cells);
      std::printf("  %-15s %u thread%s %7.3f s wall %7.3f s CPU  %6.3f GB/s  %6.1f M cells/s (wall)  %5.1f ns CPU per "
                  "cell%s\n",
                  c.name, threads, threads == 1 ? " " : "s", t.wall, t.cpu, n * 4 / t.wall / 1e9, n / t.wall / 1e6,
                  t.cpu / n * 1e9, threads == 1 ? "  baseline" : "");
      if (threads == 2) std::printf("  %-15s speed-up %.2fx (wall)\n", "", one / t.wall);
    }
  }
  return out[cells / 2] == out[cells / 2] ? 0 : 1;  // keep the result observable
}

// On-device checks of the streamed case path (backends/cuda/support/kc_cuda_support.cu)
// against a device-to-device copy of the same bytes, on a 2^32-element f32 output (16 GiB;
// two buffers, 32 GiB of device memory): bitwise comparison of two launches' outputs, the
// poison count, and the generated fill. Built and run by scripts/gpu_check_big.sh:
//   nvcc -O3 -fmad=false -arch=sm_90 -I include -o big_compare bench/big_compare.cu && ./big_compare [log2 elements]
// Goal (issue 9): comparison >= 0.6x the copy's throughput.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "../backends/cuda/support/kc_cuda_support.cu"

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                       \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

int main(int argc, char** argv) {
  int log2n = argc > 1 ? std::atoi(argv[1]) : 32;
  uint64_t n = uint64_t{1} << log2n;
  size_t bytes = n * sizeof(float);
  void *a = nullptr, *b = nullptr;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  if (kcs_init()) return 5;
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  auto timed = [&](auto&& body) {
    body();  // warm-up
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaEventRecord(t0, s));
    const int reps = 3;
    for (int k = 0; k < reps; ++k) body();
    CHECK(cudaEventRecord(t1, s));
    CHECK(cudaEventSynchronize(t1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    return ms / reps / 1e3;
  };
  kcs_gen g{};
  g.kind = KCS_UNIFORM;
  g.dtype = KC_F32;
  g.key0 = 1;
  g.key1 = 2;
  g.lo = -1;
  g.hi = 1;
  double fill = timed([&] {
    if (kcs_fill_generated(a, &g, n, s)) std::exit(2);
  });
  CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s));
  double copy = timed([&] { CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s)); });
  uint64_t differ = 1;
  double compare = timed([&] {
    if (kcs_compare_bitwise(a, b, n, 4, &differ, s)) std::exit(3);
  });
  uint64_t count = 0, first[5];
  uint32_t found = 0;
  double poison = timed([&] {
    if (kcs_count_pattern(a, n, 4, 0x7FA5A5A5u, &count, first, 5, &found, s)) std::exit(4);
  });
  double gib = static_cast<double>(bytes) / (1ull << 30);
  std::printf("big_compare: 2^%d f32 elements (%.1f GiB per buffer)\n", log2n, gib);
  std::printf("  device-to-device copy  %8.2f ms  %7.1f GiB/s of the buffer (read + write)\n", copy * 1e3, gib / copy);
  std::printf("  bitwise comparison     %8.2f ms  %7.1f GiB/s of the buffer (two reads)   %.2fx the copy (goal >= 0.6x); %llu cells differ\n",
              compare * 1e3, gib / compare, copy / compare, static_cast<unsigned long long>(differ));
  std::printf("  poison count           %8.2f ms  %7.1f GiB/s (one read)                  %.2fx the copy; %llu poisoned\n",
              poison * 1e3, gib / poison, copy / poison, static_cast<unsigned long long>(count));
  std::printf("  generated fill         %8.2f ms  %7.1f GiB/s (uniform, Philox)           %.2fx the copy\n", fill * 1e3,
              gib / fill, copy / fill);
  bool ok = differ == 0 && count == 0 && copy / compare >= 0.6;
  std::printf("big_compare: %s\n", ok ? "goal met" : "goal NOT met");
  return ok ? 0 : 1;
}

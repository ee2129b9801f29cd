// The ptx backend's lazy buffers (backends/ptx/ptx_lazy_memory.h, docs/ptx.md "Large cases"):
// fills, copies between buffers, the poison count and the bitwise comparison work on what
// each chunk holds; what is touched holds exactly the bytes a plain buffer would; and a
// buffer of gigabytes costs only the chunks touched.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "backends/ptx/ptx_lazy_memory.h"
#include "backends/streamed_ops.h"
#include "stdlib/values/fill.h"

using kc::ptx::LazyMemory;

namespace {

kc::backend::GeneratedFill normalF32() {
  kc::backend::GeneratedFill g;
  g.spec = kc::values::FillSpec{kc::values::Normal{0.0, 1.0}};
  g.dtype = kc::numerics::DType::F32;
  g.key = kc::values::streamKey(7, 1);
  return g;
}

float generated(const kc::backend::GeneratedFill& g, uint64_t i) {
  uint8_t bytes[4];
  kc::backend::encodeElement(g.dtype, kc::values::cellValue(g.spec, g.dtype, g.key, i), bytes);
  float f;
  std::memcpy(&f, bytes, 4);
  return f;
}

}  // namespace

TEST_CASE("ptx lazy memory: a generated input of 2^31 floats costs only what is read", "[ptx]") {
  LazyMemory mem(1ull << 30);
  const size_t n = (size_t{1} << 31) + 1;
  auto* x = static_cast<float*>(mem.reserve(n * 4));
  auto g = normalF32();
  mem.fillGenerated(x, g, n);
  CHECK(mem.materializedBytes() <= LazyMemory::kChunkBytes);  // at most the partial last chunk
  // The interpreter announces each access; the cell then holds the generated value.
  for (uint64_t i : {uint64_t{0}, uint64_t{1} << 31, uint64_t{12345}}) {
    mem.touch(reinterpret_cast<uint64_t>(x + i), 4);
    CHECK(x[i] == generated(g, i));
  }
  CHECK(mem.materializedBytes() <= 4 * LazyMemory::kChunkBytes);
  float got = 0;
  mem.read(&got, x + 999999, 4);  // read without making it real
  CHECK(got == generated(g, 999999));
}

TEST_CASE("ptx lazy memory: a copy shifted off the chunk grid compares equal without materialising", "[ptx]") {
  LazyMemory mem(1ull << 30);
  const size_t n = size_t{1} << 24, canary = 64;
  auto* pristine = static_cast<uint8_t*>(mem.reserve(n * 4));
  auto* image = static_cast<uint8_t*>(mem.reserve(n * 4 + 2 * canary));
  uint8_t* storage = image + canary;
  auto g = normalF32();
  mem.fillGenerated(pristine, g, n);
  mem.copy(storage, pristine, n * 4);
  CHECK(mem.compareBitwise(storage, pristine, n, 4) == 0);
  CHECK(mem.materializedBytes() <= 4 * LazyMemory::kChunkBytes);  // the edges only
  float got = 0;
  mem.read(&got, storage + 4 * 777777, 4);
  CHECK(got == generated(g, 777777));
  // A kernel's write is a difference, and only that one.
  mem.touch(reinterpret_cast<uint64_t>(storage + 4 * 5000000), 4);
  reinterpret_cast<float*>(storage)[5000000] = 42.0f;
  CHECK(mem.compareBitwise(storage, pristine, n, 4) == 1);
}

TEST_CASE("ptx lazy memory: poison is counted over every cell, and cells written are not poison", "[ptx]") {
  LazyMemory mem(1ull << 30);
  const size_t n = (size_t{1} << 32) + 1;
  auto* y = static_cast<uint8_t*>(mem.reserve(n * 4));
  const std::vector<uint8_t> poison = {0x11, 0x22, 0x33, 0x7f};
  mem.fillPattern(y, poison, n * 4);
  auto all = mem.countPattern(y, n, poison, 3);
  CHECK(all.count == n);
  CHECK(all.first == std::vector<uint64_t>{0, 1, 2});
  mem.touch(reinterpret_cast<uint64_t>(y), 8);
  std::memset(y, 0, 8);  // cells 0 and 1 written
  auto left = mem.countPattern(y, n, poison, 2);
  CHECK(left.count == n - 2);
  CHECK(left.first == std::vector<uint64_t>{2, 3});
  // A second output filled the same way but written nowhere differs in exactly those cells.
  auto* y2 = static_cast<uint8_t*>(mem.reserve(n * 4));
  mem.fillPattern(y2, poison, n * 4);
  CHECK(mem.compareBitwise(y, y2, n, 4) == 2);
  CHECK(mem.materializedBytes() <= 4 * LazyMemory::kChunkBytes);
  // Filled again, a chunk gives its memory back.
  mem.fillPattern(y, poison, n * 4);
  CHECK(mem.countPattern(y, n, poison, 0).count == n);
}

TEST_CASE("ptx lazy memory: past its limit, making memory real is an error", "[ptx]") {
  LazyMemory mem(2 * LazyMemory::kChunkBytes);
  auto* p = static_cast<uint8_t*>(mem.reserve(16 * LazyMemory::kChunkBytes));
  mem.touch(reinterpret_cast<uint64_t>(p), 2 * LazyMemory::kChunkBytes);
  CHECK_THROWS_WITH(mem.touch(reinterpret_cast<uint64_t>(p + 4 * LazyMemory::kChunkBytes), 1),
                    Catch::Contains("the most the ptx backend makes real for one case"));
  CHECK(mem.release(p));
  CHECK_FALSE(mem.release(p));
}

// The harness's poison scans (checker/run/poison_scan.h) against a plain one-thread
// reference over each storage: writes outside the view counted with a mask of the view's
// elements, unwritten cells listed in row-major order; every layout a plan makes, several
// thread counts, several dtype widths, and the cell walker's storage index (case_setup.h).
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "checker/run/case_setup.h"
#include "checker/run/poison_scan.h"

namespace {

using kc::numerics::DType;
using kc::run::ArgSpec;

// A rank-2 view of R x H cells with the given strides and offset.
ArgSpec view(DType t, int64_t R, int64_t H, int64_t rowStride, int64_t colStride, int64_t offset) {
  ArgSpec a;
  a.name.push_back('y');  // (= "y" trips a false -Wrestrict of GCC 12)
  a.output = true;
  a.dtype = t;
  a.shape = {R, H};
  a.strides = {rowStride, colStride};
  a.offset = offset;
  a.storage = offset + (R - 1) * rowStride + (H - 1) * colStride + 1;
  return a;
}

// Poisoned storage with about one element in `every` written (a value that is not the poison).
std::vector<uint8_t> storage(const ArgSpec& a, uint64_t every) {
  std::vector<uint8_t> p = kc::run::poisonOf(a);
  std::vector<uint8_t> s(a.storageBytes());
  for (size_t i = 0; i < s.size(); i += p.size()) std::memcpy(&s[i], p.data(), p.size());
  for (int64_t i = 0; i < a.storage; ++i)
    if ((static_cast<uint64_t>(i) * 2654435761u >> 7) % every == 0) s[static_cast<size_t>(i) * p.size()] ^= 0x11;
  return s;
}

int64_t referenceOutside(const ArgSpec& a, const uint8_t* st) {
  std::vector<bool> mask(static_cast<size_t>(a.storage), false);
  for (int64_t r = 0; r < a.shape[0]; ++r)
    for (int64_t h = 0; h < a.shape[1]; ++h) mask[static_cast<size_t>(a.storageIndex({r, h}))] = true;
  int64_t n = 0;
  for (int64_t i = 0; i < a.storage; ++i) n += !mask[static_cast<size_t>(i)] && !kc::run::isPoison(a, st, i);
  return n;
}

kc::run::UnwrittenCells referenceUnwritten(const ArgSpec& a, const uint8_t* st, const std::set<std::vector<int64_t>>& skip,
                                           size_t listed) {
  kc::run::UnwrittenCells u;
  for (int64_t r = 0; r < a.shape[0]; ++r)
    for (int64_t h = 0; h < a.shape[1]; ++h) {
      std::vector<int64_t> idx{r, h};
      if (!kc::run::isPoison(a, st, a.storageIndex(idx)) || skip.count(idx)) continue;
      if (++u.count <= static_cast<int64_t>(listed)) u.first.push_back(idx);
    }
  return u;
}

}  // namespace

TEST_CASE("the poison scans agree with a one-thread reference on every layout", "[poison_scan]") {
  const int64_t R = 3, H = 70001;  // 210003 cells: up to three chunks of the cell walker
  struct Layout {
    std::string name;
    ArgSpec a;
  };
  for (DType t : {DType::F32, DType::F16, DType::F64, DType::F8E4M3}) {
    std::vector<Layout> layouts = {
        {"contiguous", view(t, R, H, H, 1, 0)},   {"padded(7)", view(t, R, H, H + 7, 1, 0)},
        {"transposed", view(t, R, H, 1, R, 0)},   {"step(3)", view(t, R, H, 3 * H, 3, 0)},
        {"offset(5)", view(t, R, H, H, 1, 5)},    {"one row, padded", view(t, 1, H, H + 9, 1, 0)},
    };
    for (const auto& [name, a] : layouts)
      for (uint64_t every : {1u, 5u, 1000u, 1000000u}) {
        std::vector<uint8_t> st = storage(a, every);
        const int64_t outside = referenceOutside(a, st.data());
        std::set<std::vector<int64_t>> skip;
        for (int64_t h = 0; h < H; h += 3) skip.insert({0, h});
        const kc::run::UnwrittenCells want = referenceUnwritten(a, st.data(), skip, 3);
        for (unsigned threads : {1u, 2u, 3u, 16u}) {
          INFO(std::string(kc::numerics::dtypeName(t)) << " " << name << ", one in " << every << " written, " << threads
                                                       << " threads");
          CHECK(kc::run::writesOutsideView(a, st.data(), threads) == outside);
          kc::run::UnwrittenCells got = kc::run::unwrittenCells(a, st.data(), skip, 3, threads);
          CHECK(got.count == want.count);
          CHECK(got.first == want.first);
        }
      }
  }
}

TEST_CASE("a view that repeats a storage element is scanned element by element", "[poison_scan]") {
  // Row stride 2 over rows of 4: rows overlap, so a cell count says nothing about elements.
  ArgSpec a = view(DType::F32, 3, 4, 2, 1, 0);
  std::vector<uint8_t> st = storage(a, 2);
  CHECK(kc::run::writesOutsideView(a, st.data(), 4) == referenceOutside(a, st.data()));
}

TEST_CASE("the cell walker's storage index is the view's own", "[poison_scan]") {
  for (const ArgSpec& a : {view(DType::F32, 5, 70000, 70003, 1, 2), view(DType::F32, 5, 70000, 1, 5, 0)}) {
    std::vector<int64_t> bad(kc::run::cellChunks(a, 4), 0);
    kc::run::forEachCellChunked(a, 4, [&](unsigned k, int64_t flat, const std::vector<int64_t>& idx, int64_t at) {
      if (at != a.storageIndex(idx) || flat != idx[0] * a.shape[1] + idx[1]) ++bad[k];
    });
    for (int64_t b : bad) CHECK(b == 0);
  }
}

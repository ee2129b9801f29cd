#include "checker/run/poison_scan.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "checker/run/chunks.h"

namespace kc::run {

namespace {

// isPoison for every element of one storage, the pattern compared as one integer of the
// element's width (the same bytes memcmp compares).
class PoisonTest {
 public:
  explicit PoisonTest(const ArgSpec& a) {
    std::vector<uint8_t> p = poisonOf(a);
    bytes_ = p.size();
    std::memcpy(&bits_, p.data(), bytes_);
  }
  bool operator()(const uint8_t* storage, int64_t i) const {
    const uint8_t* e = storage + static_cast<size_t>(i) * bytes_;
    switch (bytes_) {
      case 1: return equal<uint8_t>(e);
      case 2: return equal<uint16_t>(e);
      case 4: return equal<uint32_t>(e);
      default: return equal<uint64_t>(e);
    }
  }
  size_t bytes() const { return bytes_; }
  // The elements in [begin, end) that no longer hold the poison.
  int64_t countWritten(const uint8_t* storage, size_t begin, size_t end) const {
    switch (bytes_) {
      case 1: return countWrittenAs<uint8_t>(storage, begin, end);
      case 2: return countWrittenAs<uint16_t>(storage, begin, end);
      case 4: return countWrittenAs<uint32_t>(storage, begin, end);
      default: return countWrittenAs<uint64_t>(storage, begin, end);
    }
  }

 private:
  template <typename U>
  bool equal(const uint8_t* e) const {
    U v;
    std::memcpy(&v, e, sizeof v);
    return v == static_cast<U>(bits_);
  }
  template <typename U>
  int64_t countWrittenAs(const uint8_t* storage, size_t begin, size_t end) const {
    int64_t n = 0;
    for (size_t i = begin; i < end; ++i) n += !equal<U>(storage + i * sizeof(U));
    return n;
  }
  size_t bytes_ = 0;
  uint64_t bits_ = 0;
};

// Whether no two cells of the view share a storage element: with the dims ordered by
// stride, each stride lies beyond the farthest element the smaller ones reach. (Every layout
// a plan makes passes; a stride of 0 would not.)
bool viewIsInjective(const ArgSpec& a) {
  if (a.numel() == 0) return true;
  std::vector<std::pair<int64_t, int64_t>> dims;  // stride, extent
  for (size_t d = 0; d < a.shape.size(); ++d)
    if (a.shape[d] > 1) dims.emplace_back(a.strides[d], a.shape[d]);
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;
  for (const auto& [stride, extent] : dims) {
    if (stride <= reach) return false;
    reach += (extent - 1) * stride;
  }
  return true;
}

// The view cells that no longer hold the poison.
int64_t writtenCells(const ArgSpec& a, const uint8_t* storage, unsigned threads) {
  const PoisonTest poison(a);
  std::vector<int64_t> written(cellChunks(a, threads), 0);
  forEachCellChunked(a, threads, [&](unsigned k, int64_t, const std::vector<int64_t>&, int64_t at) {
    if (!poison(storage, at)) ++written[k];
  });
  int64_t total = 0;
  for (int64_t w : written) total += w;
  return total;
}

}  // namespace

int64_t writesOutsideView(const ArgSpec& a, const uint8_t* storage, unsigned threads) {
  if (!viewIsInjective(a)) {
    // A storage element may hold several cells: mark the view's elements one by one.
    std::vector<bool> mask(static_cast<size_t>(a.storage), false);
    forEachCell(a, 1, [&](int64_t, const std::vector<int64_t>&, int64_t at) { mask[static_cast<size_t>(at)] = true; });
    int64_t outside = 0;
    for (int64_t i = 0; i < a.storage; ++i)
      if (!mask[static_cast<size_t>(i)] && !isPoison(a, storage, i)) ++outside;
    return outside;
  }
  // Each view cell is its own storage element: the written elements outside the view are
  // the written elements of the storage less the written cells of the view.
  const size_t n = static_cast<size_t>(a.storage);
  std::vector<int64_t> written(rangeChunks(n, threads), 0);
  const PoisonTest poison(a);
  forEachChunk(n, threads, [&](unsigned k, size_t begin, size_t end) { written[k] = poison.countWritten(storage, begin, end); });
  int64_t total = 0;
  for (int64_t w : written) total += w;
  return total - writtenCells(a, storage, threads);
}

UnwrittenCells unwrittenCells(const ArgSpec& a, const uint8_t* storage, const std::set<oracle::Cell>& skip,
                              size_t listed, unsigned threads) {
  const PoisonTest poison(a);
  std::vector<UnwrittenCells> part(cellChunks(a, threads));
  forEachCellChunked(a, threads, [&](unsigned k, int64_t, const std::vector<int64_t>& idx, int64_t at) {
    if (!poison(storage, at) || skip.count(idx)) return;
    if (++part[k].count <= static_cast<int64_t>(listed)) part[k].first.push_back(idx);
  });
  UnwrittenCells all;  // chunks in row-major order: the first cells of the first chunks
  for (UnwrittenCells& p : part) {
    all.count += p.count;
    for (oracle::Cell& c : p.first)
      if (all.first.size() < listed) all.first.push_back(std::move(c));
  }
  return all;
}

}  // namespace kc::run

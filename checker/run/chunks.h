#pragma once
// Host-side loops over large ranges (a tensor's cells, a buffer's elements) split into
// contiguous chunks, one thread each. Chunk k of t covers [n*k/t, n*(k+1)/t), so a caller
// that merges per-chunk results in chunk order sees the range's own order.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace kc::run {

// The number of chunks for n elements on up to `threads` threads: one per 65536 elements at
// most (smaller ones cost more to start than they save).
inline unsigned rangeChunks(size_t n, unsigned threads) {
  return static_cast<unsigned>(std::clamp<size_t>(n / 65536, 1, std::max(1u, threads)));
}

// Calls fn(k, begin, end) for every chunk k of rangeChunks(n, threads), chunk 0 on the
// calling thread.
template <typename Fn>
void forEachChunk(size_t n, unsigned threads, Fn fn) {
  const unsigned t = rangeChunks(n, threads);
  auto work = [&](unsigned k) { fn(k, n * k / t, n * (k + 1) / t); };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < t; ++k) pool.emplace_back(work, k);
  work(0);
  for (auto& th : pool) th.join();
}

}  // namespace kc::run

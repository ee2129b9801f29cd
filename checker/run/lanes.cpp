#include "checker/run/lanes.h"

#include <atomic>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

namespace kc::run {

void runInLanes(size_t count, size_t lanes, const std::function<void(size_t, size_t)>& work,
                const std::function<bool(size_t)>& emit, const std::function<void(size_t)>& before) {
  if (lanes <= 1 || count <= 1) {
    for (size_t i = 0; i < count; ++i) {
      if (before) before(i);
      work(i, 0);
      if (!emit(i)) return;
    }
    return;
  }
  std::mutex m;
  std::condition_variable ready;
  std::vector<char> done(count, 0);
  std::vector<std::exception_ptr> errors(count);
  // Items after this one are not started (the caller stopped, or an item threw).
  std::atomic<size_t> stopAfter{std::numeric_limits<size_t>::max()};
  auto stopAt = [&](size_t item) {
    size_t now = stopAfter.load();
    while (item < now && !stopAfter.compare_exchange_weak(now, item)) {
    }
  };
  std::vector<std::thread> threads;
  for (size_t lane = 0; lane < std::min(lanes, count); ++lane)
    threads.emplace_back([&, lane] {
      for (size_t i = lane; i < count && i <= stopAfter.load(); i += lanes) {
        std::exception_ptr error;
        try {
          work(i, lane);
        } catch (...) {
          error = std::current_exception();
          stopAt(i);
        }
        std::lock_guard<std::mutex> lock(m);
        errors[i] = error;
        done[i] = 1;
        ready.notify_all();
      }
    });
  std::exception_ptr thrown;
  try {
    for (size_t i = 0; i < count; ++i) {
      if (before) before(i);
      {
        std::unique_lock<std::mutex> lock(m);
        ready.wait(lock, [&] { return done[i] != 0; });
        thrown = errors[i];
      }
      if (thrown || !emit(i)) {
        stopAt(i);
        break;
      }
    }
  } catch (...) {  // from `before` or `emit`: the lanes finish what they are running first
    thrown = std::current_exception();
    stopAt(0);
  }
  for (std::thread& t : threads) t.join();
  if (thrown) std::rethrow_exception(thrown);
}

}  // namespace kc::run

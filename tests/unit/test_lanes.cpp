// run/lanes.h: items spread over lanes (check --devices) and handed on in item order.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "checker/run/lanes.h"

using kc::run::runInLanes;

TEST_CASE("lanes: every item runs on lane item % lanes and is emitted in item order") {
  for (size_t lanes : {1u, 2u, 3u, 8u}) {
    std::mutex m;
    std::vector<size_t> laneOf(10, 99);
    std::vector<size_t> emitted;
    runInLanes(
        10, lanes,
        [&](size_t i, size_t lane) {
          // Later items finish first: the order of emission must not follow it.
          std::this_thread::sleep_for(std::chrono::milliseconds(lanes > 1 ? (10 - i) : 0));
          std::lock_guard<std::mutex> lock(m);
          laneOf[i] = lane;
        },
        [&](size_t i) {
          emitted.push_back(i);
          return true;
        });
    std::vector<size_t> order(10);
    for (size_t i = 0; i < 10; ++i) order[i] = i;
    CHECK(emitted == order);
    for (size_t i = 0; i < 10; ++i) CHECK(laneOf[i] == i % lanes);
  }
}

TEST_CASE("lanes: emit returning false stops; later items are not emitted and unstarted ones do not run") {
  std::atomic<size_t> ran{0};
  std::vector<size_t> emitted;
  runInLanes(
      100, 2,
      [&](size_t, size_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ++ran;
      },
      [&](size_t i) {
        emitted.push_back(i);
        return i < 3;
      });
  CHECK(emitted == std::vector<size_t>{0, 1, 2, 3});
  CHECK(ran.load() < 100);
}

TEST_CASE("lanes: an exception from an item is rethrown at its turn, after the items before it were emitted") {
  std::vector<size_t> emitted;
  auto run = [&] {
    runInLanes(
        6, 2,
        [&](size_t i, size_t) {
          if (i == 4) throw std::runtime_error("item 4 broke");
        },
        [&](size_t i) {
          emitted.push_back(i);
          return true;
        });
  };
  CHECK_THROWS_WITH(run(), "item 4 broke");
  CHECK(emitted == std::vector<size_t>{0, 1, 2, 3});
}

TEST_CASE("lanes: before() is called on each item's turn, in order") {
  std::vector<size_t> seen;
  runInLanes(
      5, 3, [](size_t, size_t) {}, [](size_t) { return true; }, [&](size_t i) { seen.push_back(i); });
  CHECK(seen == std::vector<size_t>{0, 1, 2, 3, 4});
}

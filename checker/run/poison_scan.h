#pragma once
// The harness's scans of an output's storage for the poison pattern (case_setup.h isPoison):
// elements written outside the view, and view cells never written. Both run over threads;
// the counts and the cells listed do not depend on the thread count.
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "checker/run/case_setup.h"

namespace kc::run {

// The storage elements of `a` outside its view that no longer hold the poison.
int64_t writesOutsideView(const ArgSpec& a, const uint8_t* storage, unsigned threads);

struct UnwrittenCells {
  int64_t count = 0;               // view cells holding the poison, those in `skip` not counted
  std::vector<oracle::Cell> first;  // the first `listed` of them, in row-major order
};

UnwrittenCells unwrittenCells(const ArgSpec& a, const uint8_t* storage, const std::set<oracle::Cell>& skip,
                              size_t listed, unsigned threads);

}  // namespace kc::run

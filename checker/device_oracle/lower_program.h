#pragma once
// The text of a lowered program around its cell functions (lower.h): the context every
// kernel reads, one store function and one CUDA kernel per computed tensor, and the entry
// point kc_oracle_run for both targets (device copies and launches under __CUDACC__, plain
// loops over the cells otherwise).
#include <string>
#include <vector>

#include "checker/device_oracle/lower.h"

namespace kc::device_oracle {

// `cells[k]`: the body of computed tensor k's cell function (it reads `c`, `ix`, and sets `e`).
std::string programSource(const Lowered& low, const std::vector<std::string>& cells);

}  // namespace kc::device_oracle

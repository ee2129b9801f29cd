// Cases at a shape given from outside the contract (Options::problemDims): a KernelBench
// problem's own shape, built as the large-index cases are (contiguous layouts, the first
// distribution of every input, each dtype choice).
#include <algorithm>
#include <stdexcept>

#include "compiler/plan/planner_parts.h"

namespace kc::plan::detail {

std::vector<Case> LargeIndexPlanner::casesAt(const std::vector<std::pair<std::string, int64_t>>& dims,
                                             const std::string& why) const {
  Case c;
  for (const auto& d : plan_.dims) {
    const std::pair<std::string, int64_t>* given = nullptr;
    for (const auto& g : dims)
      if (g.first == d.name) given = &g;
    if (!given) throw std::invalid_argument("no size for the dim '" + d.name + "'");
    int64_t v = given->second;
    if (v < d.lo || v > d.hi || (!d.allowed.empty() && std::find(d.allowed.begin(), d.allowed.end(), v) == d.allowed.end()))
      throw std::invalid_argument(d.name + "=" + std::to_string(v) + " is outside what " + c_.id + " allows (" +
                                  std::to_string(d.lo) + ".." + std::to_string(d.hi) + ")");
    c.dims.emplace_back(d.name, v);
    if (d.isTail(v)) c.tail = true;
  }
  for (const auto& g : dims) {
    bool known = false;
    for (const auto& d : plan_.dims) known = known || d.name == g.first;
    if (!known) throw std::invalid_argument(c_.id + " has no dim '" + g.first + "'");
  }
  plainInputs(c);
  c.perturb = backend::perturb::kNone;
  c.why = why;
  std::vector<Case> out;
  for (const auto& dtypes : dtypeChoices()) {
    Case x = c;
    x.dtypes = dtypes;
    measure(x);
    out.push_back(std::move(x));
  }
  return out;
}

}  // namespace kc::plan::detail

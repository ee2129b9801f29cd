// Special values (NaN, Inf): the distributions that ask for them follow the plain ones and draw
// over the first; a case that carries one is a special-values case and tests only the
// postconditions of whoever asked for the specials.
#include "compiler/plan/planner_parts.h"

#include <set>

namespace kc::plan::detail {

using sema::ProtocolValue;
using VK = ProtocolValue::Kind;

bool isSpecial(const ProtocolValue& v) { return v.kind == VK::Call && v.name == "special"; }

void appendSpecials(TensorPlan& tp, std::vector<Distribution>& specials) {
  for (auto& s : specials) {
    s.base = tp.values.front().value;
    s.baseText = tp.values.front().text;
    tp.values.push_back(std::move(s));
  }
}

bool PlanState::hasSpecial(const Case& c) const {
  for (const auto& [name, a] : c.values)
    if (plan_.tensor(name)->values[a].special) return true;
  return false;
}

// Special values (NaN, Inf) make most postconditions false by arithmetic alone: such a
// case tests the postconditions of the contract or class that asked for the specials.
void PlanState::choosePosts(Case& c) const {
  std::set<std::string> specialOrigins;
  for (const auto& [name, a] : c.values)
    if (plan_.tensor(name)->values[a].special) specialOrigins.insert(plan_.tensor(name)->values[a].origin);
  for (size_t i = 0; i < plan_.post.size(); ++i)
    if (specialOrigins.empty() || specialOrigins.count(plan_.post[i].origin)) c.post.push_back(i);
}

}  // namespace kc::plan::detail

// The cases a protocol names (`case K in {4097}, a ~ cancel_rows(64, 127)`): cases a
// covering would not make, because they need several choices at once (a row and its
// negation against a constant column, at a K whose partial sums pass 2^24).
#include <algorithm>

#include "compiler/plan/planner_parts.h"

namespace kc::plan::detail {

// One case per combination of the values a `case` lists and per dtype choice (as casesAt):
// a dim it does not name at its first candidate, an input it does not name at its first
// distribution, contiguous layouts, unperturbed; `why` is `case`. A special(...) it gives
// an input replaces cells of that input's first distribution, as one in `values` does.
std::vector<Case> LargeIndexPlanner::explicitCases() const {
  std::vector<Case> out;
  for (const sema::ExplicitCase& ec : c_.protocol.cases) {
    std::vector<const sema::ProtocolBinding*> choices;
    for (const auto& b : ec.dims) choices.push_back(&b);
    for (const auto& b : ec.values) choices.push_back(&b);
    if (std::any_of(choices.begin(), choices.end(), [](const auto* b) { return b->values.empty(); })) continue;  // sema said why
    std::vector<size_t> at(choices.size(), 0);  // an odometer over the choices' values
    for (;;) {
      std::vector<std::pair<std::string, int64_t>> dims;
      for (const DimPlan& d : plan_.dims) {
        int64_t v = d.candidates.empty() ? d.lo : d.candidates.front();
        for (size_t i = 0; i < ec.dims.size(); ++i)
          if (ec.dims[i].target == d.name) v = ec.dims[i].values[at[i]].i;
        dims.emplace_back(d.name, v);
      }
      for (Case& c : casesAt(dims, "case")) {
        for (size_t i = ec.dims.size(); i < choices.size(); ++i) {
          const sema::ProtocolBinding& b = *choices[i];
          TensorPlan* t = plan_.tensor(b.target);
          const sema::ProtocolValue& v = b.values[at[i]];
          std::string text = valueText(v);
          // A special(...) of the case is the contract's own: its case tests the contract's
          // postconditions (choosePosts), not those of a class that asked for the same rates.
          const bool special = isSpecial(v);
          auto same = std::find_if(t->values.begin(), t->values.end(), [&](const Distribution& d) {
            return d.text == text && (!special || d.origin == b.origin.id);
          });
          if (same == t->values.end()) {
            // Not among the input's alternatives: added for this case alone (the covering
            // cases are made by now), neutral, the contract's own.
            Distribution d;
            d.text = text;
            d.value = v;
            d.origin = b.origin.id;
            d.origins = {b.origin.id};
            d.constant = v.kind == sema::ProtocolValue::Kind::Int || v.kind == sema::ProtocolValue::Kind::Real;
            if (special) {  // over the input's first distribution, as in values
              d.special = true;
              d.base = t->values.front().value;
              d.baseText = t->values.front().text;
            }
            t->values.push_back(std::move(d));
            same = t->values.end() - 1;
          }
          for (auto& [name, index] : c.values)
            if (name == b.target) index = static_cast<size_t>(same - t->values.begin());
        }
        out.push_back(std::move(c));
      }
      size_t k = 0;
      while (k < at.size() && ++at[k] == choices[k]->values.size()) at[k++] = 0;
      if (k == at.size()) break;
    }
  }
  return out;
}

}  // namespace kc::plan::detail

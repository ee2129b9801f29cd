#include "prover/kernel/concrete_probes.h"

#include <cmath>
#include <functional>

namespace kc::kprove {

namespace {

const double kCycle[] = {1.0, -2.0, 0.5, 3.0};

ConcreteProbe pattern(const Counterexample& layout, std::string name, const std::function<double(size_t)>& cell) {
  ConcreteProbe p{std::move(name), layout};
  for (auto& t : p.inputs.inputs) {
    bool scalar = t.shape.empty();
    for (size_t f = 0; f < t.values.size(); ++f) t.values[f] = static_cast<float>(scalar ? 1.0 : cell(f));
  }
  return p;
}

}  // namespace

std::vector<ConcreteProbe> concreteProbes(const Counterexample& layout) {
  return {
      pattern(layout, "inputs = 1", [](size_t) { return 1.0; }),
      pattern(layout, "inputs = 1, -2, 0.5, 3, ...", [](size_t f) { return kCycle[f % 4]; }),
      pattern(layout, "inputs = 1 + 2^-12", [](size_t) { return 1.000244140625; }),
      pattern(layout, "inputs = 256.5, -256, ...", [](size_t f) { return f % 2 ? -256.0 : 256.5; }),
      pattern(layout, "inputs = 4096 + (1, -2, 0.5, 3, ...)", [](size_t f) { return 4096.0 + kCycle[f % 4]; }),
      pattern(layout, "inputs = -4096 + (1, -2, 0.5, 3, ...)", [](size_t f) { return -4096.0 + kCycle[f % 4]; }),
      pattern(layout, "inputs = 2^-10 .. 2^10, alternating signs",
              [](size_t f) { return std::ldexp(f % 2 ? -1.0 : 1.0, static_cast<int>(f % 21) - 10); }),
  };
}

}  // namespace kc::kprove

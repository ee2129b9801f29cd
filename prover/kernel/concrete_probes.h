#pragma once
// Concrete probes for `kcontract prove --kernel` (docs/ptx.md, "Symbolic mode"): fixed input
// patterns tried on the kernel itself when the solver has no answer (a timeout, a nonlinear
// query it gives up on) or the symbolic run stops. The caller runs each one concretely (the
// ptx backend, every rounding the hardware's) and judges it with the contract; the first one
// that FAILs is a counterexample as good as a model's: found by search, checked exactly.
// A pattern that breaks the precondition is judged MISTRUSTED there, never a failure.
#include <string>
#include <vector>

#include "prover/kernel/kernel_prove.h"

namespace kc::kprove {

struct ConcreteProbe {
  std::string name;     // "x = 4096 + (1, -2, 0.5, 3, ...)"
  Counterexample inputs;
};

// The patterns, each on every tensor input of `layout` (cells in row-major order), with the
// rank-0 inputs (an eps, a scale) at 1:
//   ones; the cycle 1, -2, 0.5, 3; 1 + 2^-12 (exact in f32, not in TF32, f16 or bf16);
//   neighbours that nearly cancel (256.5, -256); a large common offset with a small spread
//   (4096 + the cycle: E[x^2] - E[x]^2 cancels in f32); the same below zero; widely spread
//   magnitudes (2^-10 .. 2^10 with alternating signs).
std::vector<ConcreteProbe> concreteProbes(const Counterexample& layout);

}  // namespace kc::kprove

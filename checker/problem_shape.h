#pragma once
// A KernelBench problem's own shape (check --problem-shape; docs/backends.md, "A KernelBench
// kernel"): the sizes its get_inputs() gives, bound to the contract's dims through the shapes
// of the contract's inputs, so the check adds a case at exactly that shape.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/sema/model.h"

namespace kc::check {

struct ProblemShape {
  std::vector<std::pair<std::string, int64_t>> dims;  // every dim of the contract's kernel, kernel order
  std::string text;                                   // "R=16, H=16384"
  std::string error;                                  // why not ("" when dims holds them)
};

// Runs the PyTorch adaptor's `--shapes` on `pyFile` (the interpreter: $KC_PYTHON, else
// python3): the shapes of get_inputs()'s items, matched in order with the contract's inputs
// that $KC_TORCH_BIND does not bind (those live in the module); a dim is the size of the
// first input axis that is that dim alone. The dims are checked against the contract's
// ranges (a plan is made with them).
ProblemShape problemShape(const sema::ContractInfo& contract, const std::string& pyFile);

}  // namespace kc::check

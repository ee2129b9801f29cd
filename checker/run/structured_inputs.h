#pragma once
// Inputs that meet a precondition by construction (docs/language.md §11.2): the cells a
// generator drew, rearranged per row or per matrix. triangular(lower|upper) zeroes one side
// of the diagonal of the last two dims; one_hot leaves a single 1 per row of the last dim;
// sorted sorts each row ascending; symmetric makes each square matrix (B + B^T) / 2;
// positive_definite makes each square matrix B B^T / n + I.
// Like every fill, the result is a pure function of (seed, tensor, shape).
#include <cstdint>
#include <vector>

#include "compiler/sema/model.h"
#include "stdlib/numerics/dtype.h"

namespace kc::run {

// The distribution rearranges what it draws (the streamed case path cannot regenerate
// single cells of it).
bool isStructured(const sema::ProtocolValue& v);

// Rearranges `cells` (row-major over `shape`) as `v` asks; cells are values of dtype `t`.
// Throws std::runtime_error where the shape does not allow it (a non-square matrix for
// symmetric or positive_definite).
void applyStructure(const sema::ProtocolValue& v, const std::vector<int64_t>& shape, numerics::DType t,
                    uint64_t seed, uint64_t tensorId, unsigned threads, std::vector<double>& cells);

}  // namespace kc::run

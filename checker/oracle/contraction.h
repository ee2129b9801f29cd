#pragma once
// Contractions at BLAS speed (docs/oracle.md, "Contractions"). In a prepared definition,
// a reduction `sum(k, x[..] * y[..])` whose body is the product of two tensor reads indexed
// by plain index variables is a (batched) matrix product: it is computed for every value of
// its free variables up front, with one cblas_dgemm per batch, and the reduction node is
// replaced by a read of that result. The interpreter then reads instead of looping. A
// reduction that does not match, or whose operands hold a NaN or an infinity, is left to the
// interpreter unchanged.
#include <cstdint>
#include <deque>
#include <vector>

#include "checker/oracle/evaluator.h"

namespace kc::oracle::detail {

// Rewrites every contraction it recognises in `root`, a definition prepared with its indices
// in slots 0..shape.size()-1. The results are kept in `store` (which must outlive `root`).
// `threads` threads share the dgemm calls. Returns how many were rewritten.
unsigned applyContractions(PNode& root, const std::vector<int64_t>& shape, std::deque<Tensor>& store,
                           unsigned threads);

// The tensor `root` reads when it is a read of every cell of a `shape` tensor in order
// (y[i, j] = <contraction over i, j>): the definition is that tensor. Null otherwise.
const Tensor* wholeTensorRead(const PNode& root, const std::vector<int64_t>& shape);

}  // namespace kc::oracle::detail

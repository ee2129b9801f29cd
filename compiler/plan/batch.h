#pragma once
// Batch slicing for the `sub_batch` perturbation (std.ord.batch-invariance@1): the case is
// run again on its leading rows alone, and those rows must come out bit for bit the same.
// The batch dimension is the first dimension of the kernel's first output; it can be sliced
// when every tensor that uses it has it as its plain first dimension (so the rows of a
// smaller batch are a prefix of the same views: same strides, same bytes).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/sema/model.h"

namespace kc::plan {

// The kernel's batch dimension, or nullopt when it has none that can be sliced.
std::optional<std::string> batchDim(const sema::KernelInfo& kernel);

// The smaller batches a batch of `rows` rows is compared with: one row (a decode step) and
// half the batch, rounded up; only sizes below `rows`, ascending.
std::vector<int64_t> subBatchSizes(int64_t rows);

}  // namespace kc::plan

#pragma once
// Batch invariance (std.ord.batch-invariance@1, plan/batch.h): a case whose perturbation is
// `sub_batch` is run again on its leading rows alone, as smaller batches of the same rows
// (same views, same input bytes), and every output cell of those rows must come out bit for
// bit as in the full batch. A kernel that picks its reduction strategy (split-K, tile
// shape) by batch size fails here while every batch is within tolerance.
#include <cstdint>
#include <optional>
#include <string>

#include "checker/run/worker.h"
#include "compiler/sema/model.h"

namespace kc::run {

struct BatchFinding {
  std::string output;  // the output that differs
  std::string dim;     // the batch dimension
  int64_t row = 0;     // the first row that differs
  int64_t full = 0;    // rows in the full batch
  int64_t sub = 0;     // rows in the smaller batch
  std::string failure; // the smaller batch did not run: why ("" when it ran)

  std::string text() const;
};

// Runs every smaller batch of the case `full` ran (plan::subBatchSizes) and returns the first
// difference from `fullRun`'s first launch; nullopt when every row matches (or the batch has
// one row). `dim` is the batch dimension of `kernel` (plan::batchDim).
std::optional<BatchFinding> checkSubBatches(const sema::KernelInfo& kernel, const WorkerRequest& full,
                                            const LaunchRecord& fullRun, const std::string& dim);

}  // namespace kc::run

#include "checker/run/batch.h"

#include <cstring>

#include "compiler/plan/batch.h"

namespace kc::run {

namespace {

// The setup with the batch dimension cut to its first `rows` rows: every tensor that has the
// dim (always as its first, plan::batchDim) keeps its strides, offset and storage, so the
// smaller batch's cells are the same bytes as the full batch's.
CaseSetup sliced(const sema::KernelInfo& k, const CaseSetup& s, const std::string& dim, int64_t rows) {
  CaseSetup out = s;
  out.dims[dim] = rows;
  for (size_t a = 0; a < out.args.size() && a < k.tensors.size(); ++a) {
    const auto& shape = k.tensors[a].shape;
    if (!shape.empty() && shape[0]->op == ir::Op::Dim && shape[0]->name == dim) out.args[a].shape[0] = rows;
  }
  return out;
}

// The row of the first cell of `spec`'s view, written in both output images, whose bytes differ.
std::optional<int64_t> firstDifferentRow(const ArgSpec& spec, const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  const size_t bytes = spec.elementBytes();
  std::vector<int64_t> idx(spec.shape.size(), 0);
  for (int64_t flat = 0; flat < spec.numel(); ++flat) {
    int64_t si = spec.storageIndex(idx);
    size_t at = kCanaryBytes + static_cast<size_t>(si) * bytes;
    // A cell one of the runs never wrote is a tail or completeness failure, judged by the
    // cases of that shape, not a change of strategy with the batch size.
    bool unwritten = isPoison(spec, a.data() + kCanaryBytes, si) || isPoison(spec, b.data() + kCanaryBytes, si);
    if (!unwritten && std::memcmp(a.data() + at, b.data() + at, bytes) != 0) return idx.empty() ? 0 : idx[0];
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < spec.shape[d]) break;
      idx[d] = 0;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string BatchFinding::text() const {
  std::string sizes = "a batch of " + std::to_string(full) + " rows and a batch of " + std::to_string(sub) + " (" + dim + ")";
  if (!failure.empty()) return "the kernel failed on a batch of " + std::to_string(sub) + " rows (" + dim + "): " + failure;
  return output + " row " + std::to_string(row) + " differs between " + sizes;
}

std::optional<BatchFinding> checkSubBatches(const sema::KernelInfo& kernel, const WorkerRequest& full,
                                            const LaunchRecord& fullRun, const std::string& dim) {
  auto it = full.setup->dims.find(dim);
  if (it == full.setup->dims.end()) return std::nullopt;
  const int64_t rows = it->second;
  for (int64_t sub : plan::subBatchSizes(rows)) {
    CaseSetup s = sliced(kernel, *full.setup, dim, sub);
    WorkerRequest wr = full;
    wr.setup = &s;
    wr.repeats = 1;
    LaunchRecord rec;
    try {
      rec = runInWorker(wr);
    } catch (const std::exception& e) {
      rec.status = LaunchStatus::Error;
      rec.message = e.what();
    }
    BatchFinding f{"", dim, 0, rows, sub, ""};
    if (rec.status != LaunchStatus::Ok) {
      f.failure = rec.message.empty() ? "return code " + std::to_string(rec.rc) : rec.message;
      return f;
    }
    for (size_t a = 0; a < s.args.size(); ++a) {
      const ArgSpec& spec = s.args[a];
      if (!spec.output || spec.scalar || spec.shape.empty() || spec.shape[0] != sub) continue;
      if (auto row = firstDifferentRow(spec, fullRun.images[a][0], rec.images[a][0])) {
        f.output = spec.name;
        f.row = *row;
        return f;
      }
    }
  }
  return std::nullopt;
}

}  // namespace kc::run

#include "compiler/plan/batch.h"

#include <algorithm>

namespace kc::plan {

namespace {

bool mentions(const ir::Node& e, const std::string& dim) {
  bool found = false;
  ir::walk(e, [&](const ir::Node& n) { found = found || (n.op == ir::Op::Dim && n.name == dim); });
  return found;
}

}  // namespace

std::optional<std::string> batchDim(const sema::KernelInfo& kernel) {
  const sema::TensorInfo* first = nullptr;
  for (const auto& t : kernel.tensors)
    if (t.output && !t.shape.empty()) {
      first = &t;
      break;
    }
  if (!first || first->shape[0]->op != ir::Op::Dim) return std::nullopt;
  const std::string dim = first->shape[0]->name;
  for (const auto& t : kernel.tensors)
    for (size_t i = 0; i < t.shape.size(); ++i) {
      if (!mentions(*t.shape[i], dim)) continue;
      if (i != 0 || t.shape[i]->op != ir::Op::Dim) return std::nullopt;  // e.g. y[H, R] or x[R * H]
    }
  return dim;
}

std::vector<int64_t> subBatchSizes(int64_t rows) {
  std::vector<int64_t> out;
  for (int64_t s : {int64_t{1}, (rows + 1) / 2})
    if (s >= 1 && s < rows && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kc::plan

#pragma once
// From a plan case to concrete tensors: each kernel argument's dtype, shape, strides and
// storage (the layout the case asks for), and the bytes of every input for one seed. Every
// input byte is a pure function of (seed, tensor, flat storage index), so a replay rebuilds
// the same bytes from the seed alone.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/oracle/evaluator.h"
#include "checker/oracle/tensor.h"
#include "checker/run/chunks.h"
#include "checker/run/marks.h"
#include "compiler/plan/plan.h"
#include "compiler/sema/model.h"
#include "stdlib/numerics/dtype.h"
#include "stdlib/values/fill.h"

namespace kc::run {

// Bytes of guard before and after every buffer (checker/run/worker.h), a multiple of 256 so
// the data pointer keeps the alignment a device allocation has.
inline constexpr size_t kCanaryBytes = 256;

struct ArgSpec {
  std::string name;
  bool output = false;
  bool scalar = false;
  numerics::DType dtype = numerics::DType::F32;  // storage type (TF32 is stored as f32)
  std::vector<int64_t> shape, strides;           // strides in elements
  int64_t offset = 0;   // elements before the view's first element
  int64_t storage = 0;  // elements of storage, offset and gaps included
  std::string layout;   // as the plan writes it: contiguous, padded(7)
  std::string values;   // inputs: the distribution, as the plan writes it
  uint64_t marks = 0;   // the run's marks key (marks.h): its poison and canary bytes (setMarks)

  size_t elementBytes() const { return static_cast<size_t>(numerics::sizeBytes(dtype)); }
  size_t storageBytes() const { return static_cast<size_t>(storage) * elementBytes(); }
  size_t imageBytes() const { return storageBytes() + 2 * kCanaryBytes; }  // canary, storage, canary
  int64_t numel() const;
  // Storage index of a logical cell.
  int64_t storageIndex(const std::vector<int64_t>& idx) const;
};

struct CaseSetup {
  std::vector<ArgSpec> args;  // ABI order
  std::map<std::string, int64_t> dims;
  std::map<std::string, numerics::DType> dtypes;  // dtype variables
  uint64_t marks = 0;  // the run's marks key (marks.h), in every argument too (setMarks)
};

// Sets the run's marks key (marksKey) on the setup and each of its arguments: the poison,
// the canaries and the names of every run made from it. Before makeStorage.
void setMarks(CaseSetup& setup, uint64_t key);

// Throws std::runtime_error when the case cannot be built (a shape that does not evaluate).
CaseSetup setupCase(const sema::ContractInfo& contract, const plan::Plan& plan, const plan::Case& c);

// The poison pattern of an argument (one element): poisonPattern(a.dtype, a.marks) of
// marks.h, a signalling NaN for floats, a repeated byte for integers, both drawn per run. A
// cell still holding it was never written.
inline std::vector<uint8_t> poisonOf(const ArgSpec& a) { return poisonPattern(a.dtype, a.marks); }

// The storage bytes of input `arg` for `seed`: the view's cells drawn from its distribution,
// rounded to the dtype; gaps (padding, offset) poisoned so a kernel that ignores the strides
// reads NaN. Outputs get poison everywhere. Generated on `threads` threads (0: the machine's);
// the bytes do not depend on the count.
std::vector<uint8_t> makeStorage(const CaseSetup& setup, const plan::Plan& plan, const plan::Case& c, size_t arg,
                                 uint64_t seed, unsigned threads = 0);

// The fill of input `arg` without its special values: cell f (row-major logical flat index)
// of the input holds values::cellValue(spec, dtype, values::streamKey(seed, arg), f) unless
// the case's distribution adds special values (hasSpecialValues), which makeStorage places
// by a rule over the whole tensor. Throws std::runtime_error as makeStorage does.
values::FillSpec inputFill(const CaseSetup& setup, const plan::Plan& plan, const plan::Case& c, size_t arg);
bool hasSpecialValues(const plan::Plan& plan, const plan::Case& c, const std::string& input);
// The case's distribution of `input` is structured (triangular, one_hot, sorted, symmetric,
// positive_definite: structured_inputs.h), which makeStorage applies over the whole tensor.
bool hasStructuredValues(const plan::Plan& plan, const plan::Case& c, const std::string& input);

// The view of a storage as an f64 oracle tensor (exact: every dtype value is a double), on
// `threads` threads (0: the machine's).
oracle::Tensor decodeView(const ArgSpec& arg, const uint8_t* storage, unsigned threads = 0);

// The oracle's bindings for a case: its dims and dtypes, and every input decoded from its
// pristine storage (`storage[a]` per argument, outputs ignored).
oracle::Bindings inputBindings(const CaseSetup& setup, const std::vector<std::vector<uint8_t>>& storage,
                               unsigned threads = 0);

// The number of chunks forEachCell splits the cells of `a` into on up to `threads` threads.
inline unsigned cellChunks(const ArgSpec& a, unsigned threads) {
  unsigned t = static_cast<unsigned>(std::clamp<int64_t>(a.numel() / 65536, 1, std::max(1u, threads)));
  for (int64_t st : a.strides)
    if (st == 0) t = 1;
  return t;
}

// Calls fn(chunk, flat, logical index, storage index) for every logical cell of `a`: chunk k
// of cellChunks(a, threads) is the k-th contiguous part of the row-major order, on a thread
// of its own. Every cell has a storage element of its own (no layout repeats one), so chunks
// never touch the same bytes; a stride of 0 would, and then one thread does it all.
template <typename Fn>
void forEachCellChunked(const ArgSpec& a, unsigned threads, Fn fn) {
  // cellChunks(a, threads) chunks: forEachChunk makes exactly that many of numel() cells.
  forEachChunk(static_cast<size_t>(a.numel()), cellChunks(a, threads), [&](unsigned k, size_t first, size_t last) {
    const int64_t begin = static_cast<int64_t>(first), end = static_cast<int64_t>(last);
    std::vector<int64_t> idx(a.shape.size(), 0);
    for (int64_t rest = begin, d = static_cast<int64_t>(idx.size()) - 1; d >= 0; --d) {
      idx[static_cast<size_t>(d)] = rest % a.shape[static_cast<size_t>(d)];
      rest /= a.shape[static_cast<size_t>(d)];
    }
    // The storage index follows the logical one step by step (a.storageIndex(idx) throughout).
    int64_t at = a.storageIndex(idx);
    for (int64_t flat = begin; flat < end; ++flat) {
      fn(k, flat, idx, at);
      for (size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < a.shape[d]) {
          at += a.strides[d];
          break;
        }
        idx[d] = 0;
        at -= (a.shape[d] - 1) * a.strides[d];
      }
    }
  });
}

// Calls fn(flat, logical index, storage index) for every logical cell of `a`, as
// forEachCellChunked does.
template <typename Fn>
void forEachCell(const ArgSpec& a, unsigned threads, Fn fn) {
  forEachCellChunked(a, threads, [&](unsigned, int64_t flat, const std::vector<int64_t>& idx, int64_t at) { fn(flat, idx, at); });
}

// Whether the element at storage index `i` still holds the poison pattern (poisonOf(arg)).
bool isPoison(const ArgSpec& arg, const uint8_t* storage, int64_t i);

}  // namespace kc::run

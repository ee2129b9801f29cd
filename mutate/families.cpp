#include "mutate/families.h"

#include <algorithm>

#include "checker/report/builtin_signatures.h"

namespace kc::mutate {

namespace sig = report::signature;

const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"value", "a wrong value in every affected cell (arithmetic, a comparison, a constant)", {}},
      {"tail",
       "cells of a tail or a bound left unwritten, or written outside the view",
       {"tail-unwritten", "output-incomplete", "k-tail", "tail-over-read", "grid-limit", sig::kUnwrittenCells,
        sig::kOutOfBoundsWrite, sig::kOutOfViewWrite}},
      {"accumulator",
       "an accumulator that keeps only its last term, or too few bits",
       {"accumulate-overwrite", "low-precision-accumulator", "low-precision-sum", "f32-accumulator", "zero-initialised",
        "wrong-row", "wrong-element"}},
      {"precision",
       "an accumulator or operand in a narrower dtype than the contract allows",
       {"low-precision-accumulator", "low-precision-sum", "low-precision-statistics", "reduced-precision-products",
        "operand-coercion", "f32-accumulator", "epilogue-rounding"}},
      {"index",
       "a wrong index: off by one, a stride term dropped",
       {"ignores-strides", "batch-stride", "wrong-row", "wrong-element", "tail-unwritten", "output-incomplete",
        "tail-over-read", "k-tail", sig::kUnwrittenCells, sig::kOutOfBoundsWrite, sig::kOutOfViewWrite,
        sig::kInputModified}},
      {"index-width", "an index in 32 bits that needs 64", {"index-overflow", sig::kOutOfBoundsWrite, sig::kOutOfViewWrite}},
      {"eps", "eps added outside the square root", {"eps-outside-sqrt"}},
      {"nan", "a NaN in the input turned into a number", {"nan-swallowed"}},
      {"ordering", "a reduction or a barrier whose order is not fixed",
       {sig::kNondeterministic, "race", "stream-race", sig::kBatchVariant}},
  };
  return all;
}

const Family* family(const std::string& name) {
  for (const auto& f : families())
    if (name == f.name) return &f;
  return nullptr;
}

bool namedBy(const std::string& name, const std::vector<std::string>& signatures) {
  const Family* f = family(name);
  if (!f) return false;
  for (const auto& s : signatures) {
    if (s == sig::kUnclassified) continue;
    if (f->signatures.empty() || std::find(f->signatures.begin(), f->signatures.end(), s) != f->signatures.end()) return true;
  }
  return false;
}

}  // namespace kc::mutate

#pragma once
// The generated part of docs/ops.md (`kcontract ops --format md --out docs/ops.md`): a table of
// every standard op (its kernel, dtypes, tolerance, classes, signatures, calibration pairs)
// and the KernelBench level-1 table (stdlib/ops/kernelbench_level1.yaml). It sits between two
// marker lines of the page; the prose around it is written by hand.
#include <string>
#include <vector>

#include "checker/catalog.h"
#include "checker/kernelbench_table.h"

namespace kc::check {

inline constexpr const char* kOpsDocBegin = "<!-- kcontract ops: begin (generated: kcontract ops --format md --out docs/ops.md) -->";
inline constexpr const char* kOpsDocEnd = "<!-- kcontract ops: end -->";

// The generated block, markers included. `ops` are the op names (standardOps), each with a
// standard contract in `cat`.
std::string opsMarkdown(const Catalog& cat, const std::vector<std::string>& ops, const KernelBenchTable& table);

// `page` with the text between its marker lines replaced by `block`. False, with `error` set,
// when the page does not hold each marker once, begin before end.
bool spliceOpsDoc(const std::string& page, const std::string& block, std::string& out, std::string& error);

}  // namespace kc::check

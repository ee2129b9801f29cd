#pragma once
// `kcontract merge` (docs/scale.md): the JSON Lines results of shards (`check --shard I/N`)
// or of resumed runs, verified and merged into one deduplicated list of results, from which
// any report format is written.
#include <string>
#include <vector>

#include "checker/report/result.h"

namespace kc::check {

struct ResultsFile {
  std::string path;  // as the user named it, for messages
  std::string text;  // the whole file
};

struct Merged {
  std::vector<report::CaseResult> results;  // per job in order of first appearance; within a job by case and seed
  size_t records = 0;                       // records read over every file
  size_t duplicates = 0;                    // records dropped because an equal one came first
  std::vector<std::string> notes;           // "FILE:LINE: ..." for what was dropped, each once
  // Why the files are not merged ("" when they are): "FILE:LINE: why". Set for a file whose
  // integrity chain breaks (docs/security.md), a record that is not a result, results of one
  // job with different plans or contract versions, and two results of one case that differ
  // in more than their timings.
  std::string error;
};

// Merges the files in order. A last line cut short by a kill is dropped with a note (its case
// is missing unless another file holds it).
Merged mergeResults(const std::vector<ResultsFile>& files);

}  // namespace kc::check

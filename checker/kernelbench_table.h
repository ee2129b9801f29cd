#pragma once
// The KernelBench level-1 table (stdlib/ops/kernelbench_level1.yaml): each of the benchmark's
// 100 problems, with the standard contract that checks it and the problem's own shape, or the
// reason it has none. docs/ops.md prints it (`kcontract ops --format md`); reading it checks
// the table on its own, and checkAgainstLibrary checks it against the ops it names.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "checker/catalog.h"

namespace kc::check {

inline constexpr int kKernelBenchLevel1Problems = 100;

struct KernelBenchProblem {
  int number = 0;
  std::string file;    // the problem's file in KernelBench/level1/
  std::string op;      // a standard op (NAME), or empty with a reason
  std::map<std::string, int64_t> dims;  // the problem's own shape, in the op's dims
  std::string how;     // how the problem's module maps to the op
  std::string reason;  // why it has no standard contract
  int line = 0;        // of the entry, 1-based
};

struct KernelBenchTable {
  std::string path;
  std::vector<KernelBenchProblem> problems;  // by number
};

// Reads and checks the table on its own: its format, every number 1..100 exactly once, each
// entry an op with its dims and how, or a reason. Throws SuiteError ("PATH:LINE: ...").
KernelBenchTable loadKernelBenchTable(const std::string& path);

// The table against the library: each op has a standard contract, each problem gives a size
// for every dim of the op and no other, and each size is in the contract's range. One message
// per disagreement ("PATH:LINE: problem N: ..."); empty when they agree.
std::vector<std::string> checkAgainstLibrary(const KernelBenchTable& table, const Catalog& cat);

}  // namespace kc::check

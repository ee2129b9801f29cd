#pragma once
// Suite files (YAML, docs/checking.md): the kernels to check, the contract each is held to,
// the backend, and what each kernel claims to support — dtypes, dimension ranges, layouts —
// which narrows the cases it is held to. Malformed files get a located error.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend_names.h"
#include "checker/report/summary.h"
#include "checker/suite_error.h"

namespace kc::check {

// What a kernel claims to support; an empty field claims nothing (the contract's scope holds).
struct Supports {
  std::map<std::string, std::vector<std::string>> dtypes;            // dtype variable -> dtypes
  std::map<std::string, std::pair<int64_t, int64_t>> dims;           // dim -> [lo, hi]
  std::vector<std::string> layouts;                                  // layout kinds: contiguous, padded, ...
};

struct SuiteKernel {
  std::string name;      // a label for reports; defaults to the implementation path
  std::string impl;      // PATH (relative paths are relative to the suite's folder)
  std::string entry;     // empty: kc_<kernel name of the contract>
  std::string contract;  // a .kcontract path (relative to the suite) or a contract ID
  std::string op;        // `op: NAME` instead of a contract: the op's standard contract std.op.NAME
  std::string backend;   // empty: the suite's backend, else host
  std::optional<report::ExpectedOutcome> expect;  // what --expect holds the kernel to
  Supports supports;
  // `classes: [ID, ...]`: classes the kernel is also checked against, added to its
  // contract's own (an opt-in such as std.ord.batch-invariance@1). Needs `op` or a
  // contract ID, not a file.
  std::vector<std::string> classes;
  // `bind: {INPUT: ATTR, ...}`: for a Python-file kernel (the exec backend's PyTorch adaptor),
  // contract inputs given to the module's attributes instead of as arguments.
  std::vector<std::pair<std::string, std::string>> bind;
  int line = 0;
};

struct Suite {
  std::string path;
  std::string backend = backend::kHostBackend;
  std::vector<std::string> includeDirs;  // relative to the suite's folder
  std::vector<SuiteKernel> kernels;
};

bool isSuitePath(const std::string& path);  // .yaml or .yml
Suite loadSuite(const std::string& path);   // throws SuiteError

}  // namespace kc::check

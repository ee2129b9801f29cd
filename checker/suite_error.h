#pragma once
// The error of the checker's YAML files (suites, the calibration manifest), on its own so that
// their reader (yaml_reader.h) and the suite (suite.h) need not include each other.
#include <stdexcept>

namespace kc::check {

// A suite that cannot be read: message is "FILE:LINE:COL: ..." (or "FILE: ...").
struct SuiteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace kc::check

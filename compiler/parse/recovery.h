#pragma once
// Statement-level error recovery: after a syntax error, skip to the end of the statement
// (a newline, ';' or the '}' that closes the current block) and go on, so one run reports
// every broken statement rather than one error and a cascade. Internal to the parse step.
#include "antlr4-runtime.h"

namespace kc::parse {

class StatementRecovery : public antlr4::DefaultErrorStrategy {
 public:
  void recover(antlr4::Parser* recognizer, std::exception_ptr e) override;

 private:
  ssize_t lastRecoveryIndex_ = -1;
  std::vector<size_t> statesAtLastIndex_;
};

}  // namespace kc::parse

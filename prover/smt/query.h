#pragma once
// Inside the SMT backend only: the pieces solve() (portfolio.cpp) is built from. One query
// in this process (solver.cpp, the only file that sees cvc5) and one query in a forked child
// (child.cpp), and the small helpers they share.
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <sys/types.h>

#include "prover/smt/solver.h"

namespace kc::smt {

// One check-sat in this process under `opt.timeoutSeconds` with `opt.solverOptions` set after
// kcontract's own (opt.isolation and opt.probes are not looked at).
Result solveInProcess(const std::string& smt2, const Options& opt);

// The solver options of the fallback configuration: the same as the primary one, but with
// nl-rlv (relevance filtering of nonlinear lemmas) off. Neither configuration dominates:
// bench/README.md, "the portfolio", has the queries each one answers and the other does not.
std::vector<std::pair<std::string, std::string>> fallbackSolverOptions();

inline double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline std::string secondsText(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}

// A query running in a forked child process: `work` runs there (under the memory limit of
// `opt`) and its Result comes back through a pipe. The parent polls; a child that overruns
// `deadlineSeconds` (from its start) is killed and reads as a timeout; a child that dies
// without an answer reads as an error with its signal and its last line of stderr.
class ChildQuery {
 public:
  ChildQuery(const std::function<Result()>& work, const Options& opt, double deadlineSeconds);
  ~ChildQuery();
  ChildQuery(const ChildQuery&) = delete;
  ChildQuery& operator=(const ChildQuery&) = delete;

  // Waits up to `seconds` (0: only looks) for the child to finish; true once it has.
  bool wait(double seconds);
  bool done() const { return done_; }
  // The child's answer once done() (the parent's own error when the fork failed).
  const Result& result() const { return result_; }
  // Kills a child still running; result() then says it was stopped.
  void stop(const std::string& why);

 private:
  void finish(bool killed, const std::string& killedWhy);

  Options opt_;
  double deadline_;
  std::chrono::steady_clock::time_point start_;
  pid_t pid_ = -1;
  int out_ = -1, err_ = -1;
  std::string data_, errText_;
  bool done_ = false;
  Result result_;
};

}  // namespace kc::smt

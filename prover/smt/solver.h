#pragma once
// The SMT backend: one SMT-LIB2 script in, one answer out (docs/design.md §4, the alive2 lesson).
// cvc5 lives behind this header and nowhere else: no cvc5 type appears here.
//
// A script is the text `kcontract obligations --smt2` writes (compiler/obligations), so what
// a user can replay with any solver is exactly what was solved. cvc5 1.0.3 installs no
// header for its SMT-LIB parser, so solver.cpp reads the text itself (sexpr.h) and builds the
// terms through cvc5's API; a construct it does not know is an ERROR, never a guess.
//
// Every query runs under a time limit (cvc5's `tlimit-per`). By default it also runs in a
// forked child process with a memory limit and a wall-clock backstop, so a solver crash, a
// runaway allocation or a solver that overruns its own limit costs one answer (ERROR or
// TIMEOUT), not the process that asked. A timeout or an unknown is never a pass.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kc::smt {

enum class Answer { Sat, Unsat, Unknown, Timeout, Error };
const char* answerName(Answer a);  // "sat", "unsat", "unknown", "timeout", "error"

enum class Isolation {
  Subprocess,  // a forked child per query: crash- and memory-safe (the default)
  InProcess,   // in this process: no fork; cvc5's own time limit is the only limit
};

// A witness probe: assertions (SMT-LIB commands) added before the script's check-sat that fix
// some constants. The script with them has fewer models, so sat under a probe is sat of the
// script itself, with a model that is a witness; unsat or no answer under a probe says nothing.
struct Probe {
  std::string name;        // "inputs = 1", for the answer's `strategy`
  std::string assertions;  // "(assert (= x_0 1.0))\n..."
};

struct Options {
  double timeoutSeconds = 10.0;  // cvc5's tlimit-per for the check-sat; must be > 0
  Isolation isolation = Isolation::Subprocess;
  // Subprocess only: the child's address-space limit (0: none), and how long past the time
  // limit the parent waits before it kills a child that has not answered.
  size_t memoryLimitMiB = 4096;
  double graceSeconds = 2.0;
  // Assert (>= (* a a) 0) for every square (* a a) of the script before its check-sat: true
  // facts, so no answer changes, but without them cvc5 1.0.3 (no CAD in this build) often
  // cannot show that a variance is nonnegative within any time limit.
  bool squareFacts = true;
  // Further solver options, name -> value ("nl-ext-tplanes" -> "true"), set after kcontract's
  // own and before the script's; an unknown name makes the answer ERROR.
  std::vector<std::pair<std::string, std::string>> solverOptions;
  // The portfolio (portfolio.cpp): when the primary configuration has no answer within a
  // head start, witness probes and then a second solver configuration run beside it, and
  // the first sat or unsat wins. Both configurations are sound, and a probe only adds
  // assertions, so whichever answers is an answer of the script. false: the primary alone.
  bool portfolio = true;
  std::vector<Probe> probes;
  // A relaxation of the script: the same question with more models (each rounding replaced by
  // a bounded error term, say). Its unsat is the script's unsat; its sat says nothing. The
  // second runner tries it after the probes. "" when there is none.
  std::string relaxation;
  // How long the primary configuration runs alone first (capped at half the time limit).
  double headStartSeconds = 2.0;
};

// Probes that fix the given Real constants (an obligation's input cells): all to 1, and to
// the cycle 1, -2, 0.5, 3, and all to 1 + 2^-12 (exact in f32, not in TF32, f16 or bf16).
// Nonlinear oracles become linear or constant under them, and every rounding a constant, so a
// witness that cvc5's nonlinear search misses often comes at once. None for an empty list.
std::vector<Probe> fixedValueProbes(const std::vector<std::string>& realConstants);

// One declared constant of a model: `x_0_1 = -1/2`.
struct ModelValue {
  std::string name;   // the symbol as declared (without |bars|)
  std::string sort;   // "Real", "Int", "Bool", "(_ FloatingPoint 8 24)", ...
  std::string value;  // exact: "3", "-1/2", "true", a float's value as a decimal or "NaN"
  std::optional<double> approx;  // numeric values, as the nearest double
};

struct Result {
  Answer answer = Answer::Error;
  double seconds = 0;  // wall-clock, reading and solving
  std::string reason;  // unknown, timeout, error: why ("incomplete", "time limit of 10 s", the exception)
  std::vector<ModelValue> model;  // sat: every declared constant, in declaration order
  // Which part of the portfolio answered: "" for the primary configuration, "fallback
  // configuration", or "witness probe: inputs = 1".
  std::string strategy;
};

// Runs the script: its commands up to and including its (one) check-sat. The script's own
// time-limit options are ignored in favour of `options`; models are always produced.
Result solve(const std::string& smt2, const Options& options = {});

// "cvc5 1.0.3".
std::string solverVersion();

// A model value for people: integers as they are, a rational with a short terminating
// decimal expansion as that decimal (-0.25), otherwise the fraction and its approximation
// ("1/3 (~0.3333333)"), or only the approximation when the fraction is long ("~80785730.2").
std::string readableValue(const ModelValue& v);

}  // namespace kc::smt

#pragma once
// `kcontract prove`: discharges each contract's symbolic obligations (compiler/obligations)
// with cvc5 (prover/smt) and says, per obligation, whether its answer is the fine one.
// docs/language.md ("Obligations", "kcontract prove").
//
// Verdicts: ok (the expected answer), covered (an index width is reachable and the plan holds
// a case past it), problem (the unexpected answer: a located message says what it means),
// not proven (unknown, timeout, or an obligation kcontract could not build), error (the
// solver could not run the script). A timeout is never ok.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/obligations/obligations.h"
#include "compiler/plan/planner.h"
#include "prover/smt/solver.h"

namespace kc::prove {

// Blind: the tolerance cannot see a one-ulp fault. That is the nature of any tolerance of
// one ulp or more (it must admit the output's own rounding), not a defect: it is reported,
// with the class that can see such faults, and does not fail the run.
enum class Verdict { Ok, Covered, Blind, Problem, NotProven, Error };

const char* verdictName(Verdict v);

// A header line of the script ("; reduced shape: R = 2, H = 2; T = f32" -> "R = 2, H = 2; T = f32").
std::string scriptHeader(const std::string& smt2, const std::string& key);

// A model symbol as the contract writes it: x_0_1 -> x[0, 1], y*_1 -> y*[1], m1 -> -1.
struct Named {
  std::string text;
  int group = 2;  // 0 a dimension, 1 an input, 2 anything else
};
Named prettyName(const std::string& sym, const sema::ContractInfo& c);

struct Counterexample {
  std::vector<std::string> lines;  // "x[0, 1] = -0.5", dims and inputs first
  size_t more = 0;                 // left out of the text (the JSON has all)
};

// One obligation, answered and judged.
struct Outcome {
  const obl::Obligation* o = nullptr;
  const sema::ContractInfo* contract = nullptr;
  smt::Result result;
  Verdict verdict = Verdict::Error;
  std::string note;     // covered: the plan case; problem: the message; not proven/error: why
  bool uncertain = false;  // a problem found with uninterpreted functions: the model may be spurious
  Counterexample cex;
};

// The catalogue code of a finding (compiler/diag/catalog.def, KC3xxx): a problem by its
// obligation's kind, not proven, or a solver failure; "" for a blind tolerance (never a problem).
std::string findingCode(const obl::Obligation& o, Verdict v);

struct Options {
  double timeout = 10.0;  // seconds each query may run; a timeout is not a pass
};

// Proves obligations one at a time (so the caller can print each as it is answered). It
// keeps what later obligations depend on: the plans consulted for index widths, and the
// contracts found vacuous (their other questions are answered trivially).
class Prover {
 public:
  explicit Prover(const Options& o);
  Outcome prove(const obl::Obligation& o, const sema::ContractInfo* contract);
  size_t count(Verdict v) const;  // outcomes so far with this verdict

 private:
  std::string limitText_;  // "10 s", for the timeout message
  smt::Options solver_;
  std::map<const sema::ContractInfo*, plan::Plan> plans_;
  std::set<const sema::ContractInfo*> vacuous_;
  std::map<Verdict, size_t> counts_;
};

}  // namespace kc::prove

#pragma once
// Symbolic obligations (docs/design.md §2): solver-independent questions about a contract, each
// with the answer that means "fine" and a complete SMT-LIB2 script. The SMT backend (cvc5)
// runs them with a time limit; this step only builds and prints them. docs/language.md
// ("Obligations") describes each kind and its modelling assumptions.
#include <string>
#include <vector>

#include "compiler/diag/source.h"
#include "compiler/obligations/unroll.h"
#include "compiler/sema/model.h"

namespace kc::obl {

enum class Kind {
  PreSatisfiable,    // the precondition is not vacuous
  IndexWidth31,      // a tensor can hold more than 2^31 elements (plan/index_width.h)
  IndexWidth32,      // ... more than 2^32
  Defined,           // a division, log or square root in the oracle or tolerance is defined
  BlindBandDetect,   // the tolerance sees an output off by one ulp
  BlindBandCorrect,  // a correct implementation stays inside the tolerance
  BlindBandAccumulator,  // the tolerance sees a reduction accumulated in bf16
  BlindBandOperand,      // the tolerance sees operands rounded to TF32 before the products
};
const char* kindName(Kind k);  // "pre-satisfiable", "index-width-31", ...

enum class Answer { Sat, Unsat };
const char* answerName(Answer a);  // "sat", "unsat"

struct Obligation {
  std::string id;       // <contract id>/<kind>[/<detail>]
  Kind kind;
  std::string purpose;  // one sentence a user understands
  SourceRange range;    // what it comes from
  Answer expected;      // the answer that means "fine"
  std::string estimate; // what the compiler can tell without a solver ("" when nothing)
  std::string smt2;     // the complete script
  // The script's constants for input cells (Real): witness probes fix them (smt::Probe).
  std::vector<std::string> inputs;
  // Answered by fixing the inputs rather than by search (the fault models, whose floating-point
  // roundings the nonlinear search does not get through): the solver's portfolio should
  // start its probes at once.
  bool probeFirst = false;
  // A script with more models than smt2 (its roundings as bounded error terms): unsat of it is
  // unsat of smt2, sat says nothing. "" when there is none.
  std::string relaxation;
};

// An obligation that could not be built, and why (an expression the unroller cannot express,
// a shape too large to unroll).
struct Skipped {
  std::string id;
  std::string reason;
  SourceRange range;
};

struct BuildOptions {
  const SourceManager* sources = nullptr;  // for "file:line:col" in the scripts' headers
};

struct ObligationSet {
  std::vector<Obligation> obligations;
  std::vector<Skipped> skipped;
};

// Every obligation of a contract (none for a class or a contract without a kernel), in a fixed
// order: pre-satisfiable, index widths per tensor, defined sites, blind-band-detect, -correct,
// then the fault models (-accumulator, -operand) where they apply.
ObligationSet buildObligationSet(const sema::ContractInfo& c, const BuildOptions& opts = {});
std::vector<Obligation> buildObligations(const sema::ContractInfo& c);

// The reduced shape the obligations evaluate at: each dim at max(lo, min(lo + 1, hi, 3)),
// left symbolic when that is over kMaxReducedDim; dims named by dim-only pre conditions
// (H % 32 == 0) moved to the smallest values that meet them. Dtype variables take their
// first allowed dtype (after the scope's narrowing).
inline constexpr int64_t kMaxReducedDim = 8;
ReducedShape reducedShape(const sema::ContractInfo& c);

// A file name for an obligation id: letters, digits and . _ - @ kept, anything else '_'.
std::string sanitiseId(const std::string& id);

// "file:line:col" (or "line:col" without sources).
std::string locationText(const SourceRange& r, const SourceManager* sources);

}  // namespace kc::obl

#pragma once
// `kcontract mutate` (docs/mutate.md): mutation analysis of a contract. The stages, in order:
//   jobs      the contract(s) and the kernel, as `check` builds them (checker/jobs.h)
//   parse     the kernel source with libclang (ast.h)
//   generate  the mutants of the functions the entry reaches (operators.h)
//   write     each mutant's source into a work folder (mutant.h)
//   original  the unmutated kernel through every case: it must pass them all (0 kills);
//             its outputs are what equivalence is judged against
//   matrix    every mutant through the cases (kill_matrix.h), --jobs at a time; not built:
//             set aside; survived with the original's outputs on every case: equivalent
//   baseline  the plain allclose protocol on the same mutants
//   suggest   for each survivor, a plan change that kills it, checked on the original too
//             (suggest.h)
//   score     killed / (compilable, non-equivalent), naming and the baseline, per family
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "checker/jobs.h"
#include "mutate/kill_matrix.h"
#include "mutate/mutant.h"
#include "mutate/suggest.h"

namespace kc::mutate {

struct MutateOptions {
  check::JobOptions jobs;                // the contract targets or --op, -I, --backend; impl: the kernel
  check::RunOptions run;                 // seed, timeout, --dtype, --dims
  std::vector<std::string> operators;    // --operators: just these (empty: all)
  std::vector<std::string> only;         // --mutant ID...: just these mutants
  unsigned parallel = 1;                 // --jobs: mutants run at once
  bool baseline = true;                  // the allclose baseline
  bool listOnly = false;                 // --list: generate and print the mutants, run nothing
  bool suggest = true;                   // the suggest stage (--no-suggest: off)
  Naming naming = Naming::Diagnosis;     // --naming diagnosis|signatures
  std::string emit;                      // --emit FILE: write the mutant set there, run nothing (mutant_set.h)
  std::string from;                      // --from FILE: the mutants of this set instead of parse and generate
};

enum class Outcome { NotBuilt, Killed, Survived, Equivalent };
const char* outcomeName(Outcome o);  // "not-built", "killed", "survived", "equivalent"

struct MutantResult {
  Mutant mutant;
  std::string diff;
  Outcome outcome = Outcome::Survived;
  KernelRun contract;    // the contract's run
  bool allcloseRan = false;
  KernelRun allclose;    // the baseline's run
  std::optional<Suggestion> suggestion;  // a survivor's, when the suggest stage ran
  double seconds = 0;
};

struct FamilyScore {
  std::string family;
  size_t mutants = 0, notBuilt = 0, equivalent = 0, scored = 0, killed = 0, named = 0, allcloseKilled = 0;
};

struct MutationReport {
  std::string kernel, entry, language;
  std::vector<std::string> contracts;  // the jobs' contract IDs
  std::string backend;
  size_t originalCases = 0;       // cases the unmutated kernel ran
  size_t originalKills = 0;       // 0, or the report stops there
  std::string originalFailure;    // the first failing case of the original
  size_t allcloseOriginalKills = 0;
  size_t suggestChanges = 0;      // plan changes the suggest stage had to try (0: it did not run)
  std::vector<MutantResult> mutants;
  std::vector<FamilyScore> families;  // and "all" last
  double seconds = 0;
  bool listOnly = false;
  std::string emitted;  // --emit: the file the mutant set was written to
  const FamilyScore& total() const { return families.back(); }
};

// Why the run could not start: one line for stderr; `located` messages begin FILE:LINE:COL.
struct MutateError {
  std::string message;
  bool located = false;
};

// Reports each mutant as it finishes (for a progress line); called from the running thread
// under a lock.
using MutantDone = std::function<void(const MutantResult&, size_t done, size_t total)>;

// Runs the stages. False, with `error` (or c.diags) saying why, when nothing could be scored.
bool runMutation(Compilation& c, MutateOptions o, bool warningsAsErrors, MutationReport& report, MutateError& error,
                 const MutantDone& done = {});

// The per-family and total scores of `r.mutants` (the score stage).
std::vector<FamilyScore> scoreFamilies(const std::vector<MutantResult>& mutants);

}  // namespace kc::mutate

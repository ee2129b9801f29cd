#include "compiler/driver/precheck.h"

#include <unistd.h>

#include <iostream>
#include <set>

#include "backends/smt/solver.h"
#include "compiler/driver/output.h"
#include "compiler/obligations/obligations.h"

namespace kc::driver {

int refuseVacuousContracts(const Compilation& c, const std::vector<check::Job>& jobs, const GlobalOptions& opts) {
  std::set<const sema::ContractInfo*> seen;
  bool vacuous = false;
  bool color = useColor(opts, STDERR_FILENO);
  for (const auto& job : jobs) {
    if (!seen.insert(job.contract).second) continue;
    obl::BuildOptions bo;
    bo.sources = &c.sources;
    obl::ObligationSet set = obl::buildObligationSet(*job.contract, bo);
    for (const obl::Obligation& o : set.obligations) {
      if (o.kind != obl::Kind::PreSatisfiable) continue;
      smt::Options so;
      so.timeoutSeconds = 5;
      so.probes = smt::fixedValueProbes(o.inputs);
      smt::Result r = smt::solve(o.smt2, so);
      if (r.answer == smt::Answer::Unsat) {
        printLocated(std::cerr, c.sources, o.range, "error",
                     "the precondition of " + job.contract->id +
                         " is unsatisfiable: the contract is vacuous, every implementation meets it; not checking "
                         "kernels against it (kcontract prove shows the obligation)",
                     color, diagCodeString(DiagCode::VacuousPrecondition));
        vacuous = true;
      } else if (r.answer != smt::Answer::Sat) {
        printLocated(std::cerr, c.sources, o.range, "warning",
                     "could not show that the precondition of " + job.contract->id + " is satisfiable (the solver " +
                         (r.answer == smt::Answer::Timeout ? "timed out" : "answered " + std::string(smt::answerName(r.answer))) +
                         "); the check goes on, but a vacuous contract passes every kernel",
                     color, diagCodeString(DiagCode::NotProven));
      }
    }
  }
  return vacuous ? kExitInput : kExitOk;
}

}  // namespace kc::driver

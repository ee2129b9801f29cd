#include "prover/precheck.h"

#include <set>

#include "compiler/obligations/obligations.h"
#include "prover/smt/solver.h"

namespace kc::prove {

std::vector<VacuityFinding> precheckVacuity(const Compilation& c, const std::vector<const sema::ContractInfo*>& contracts) {
  std::vector<VacuityFinding> out;
  std::set<const sema::ContractInfo*> seen;
  for (const sema::ContractInfo* contract : contracts) {
    if (!seen.insert(contract).second) continue;
    obl::BuildOptions bo;
    bo.sources = &c.sources;
    obl::ObligationSet set = obl::buildObligationSet(*contract, bo);
    for (const obl::Obligation& o : set.obligations) {
      if (o.kind != obl::Kind::PreSatisfiable) continue;
      smt::Options so;
      so.timeoutSeconds = 5;
      so.probes = smt::fixedValueProbes(o.inputs);
      smt::Result r = smt::solve(o.smt2, so);
      if (r.answer == smt::Answer::Unsat) {
        out.push_back({contract, o.range, true,
                       "the precondition of " + contract->id +
                           " is unsatisfiable: the contract is vacuous, every implementation meets it; not checking "
                           "kernels against it (kcontract prove shows the obligation)",
                       DiagCode::VacuousPrecondition});
      } else if (r.answer != smt::Answer::Sat) {
        out.push_back({contract, o.range, false,
                       "could not show that the precondition of " + contract->id + " is satisfiable (the solver " +
                           (r.answer == smt::Answer::Timeout ? "timed out" : "answered " + std::string(smt::answerName(r.answer))) +
                           "); the check goes on, but a vacuous contract passes every kernel",
                       DiagCode::NotProven});
      }
    }
  }
  return out;
}

}  // namespace kc::prove

#pragma once
// The cheap symbolic obligations `kcontract check` discharges before it runs a kernel: a
// contract whose precondition is unsatisfiable is vacuous (every implementation meets it),
// so checking a kernel against it would report passes that mean nothing. `check` refuses it.
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/pipeline.h"

namespace kc::prove {

// One located finding of the precheck, for the caller to print.
struct VacuityFinding {
  const sema::ContractInfo* contract = nullptr;
  SourceRange range;     // the precondition's obligation
  bool error = false;    // unsat: the contract is vacuous (KC3xxx VacuousPrecondition); else a warning
  std::string message;
  DiagCode code = DiagCode::NotProven;
};

// For each distinct contract of `contracts`, in order: its pre-satisfiable obligation through
// the SMT backend (5 s). unsat: an error finding (the caller refuses to check). unknown or
// timeout: a warning that the contract could not be shown non-vacuous, and the check goes on.
std::vector<VacuityFinding> precheckVacuity(const Compilation& c, const std::vector<const sema::ContractInfo*>& contracts);

}  // namespace kc::prove

#pragma once
// The cheap symbolic obligations `kcontract check` discharges before it runs a kernel: a
// contract whose precondition is unsatisfiable is vacuous (every implementation meets it),
// so checking a kernel against it would report passes that mean nothing. `check` refuses it.
#include <vector>

#include "checker/check.h"
#include "compiler/driver/cli.h"
#include "compiler/pipeline.h"

namespace kc::driver {

// For each distinct contract of `jobs`: its pre-satisfiable obligation through the SMT
// backend (5 s). unsat: a located error, and kExitInput. unknown or timeout: a located
// warning that the contract could not be shown non-vacuous, and the check goes on.
int refuseVacuousContracts(const Compilation& c, const std::vector<check::Job>& jobs, const GlobalOptions& opts);

}  // namespace kc::driver

#pragma once
// `kcontract replay --inputs FILE [--impl K] [--backend B]`: one case of a contract run on
// explicit input values (checker/explicit_inputs.h), such as the counterexample `kcontract
// prove --kernel` writes, judged by the check's own rules. prove --kernel uses it on the ptx
// backend to confirm a refutation before it calls it one.
#include <string>
#include <vector>

#include "cli/cli.h"

namespace kc::driver {

struct ExplicitReplay {
  int rc = kExitInternal;  // kExitOk: the case passed; kExitFailed: it did not; kExitInput: it could not run
  std::string verdict;     // "PASS", "FAIL", ... ("" when it did not run)
  std::string line;        // the case's report line
  std::string error;       // why it could not run
};

// impl/backend: "" for the file's impl and the ptx backend. print: the case line to stdout.
ExplicitReplay replayExplicitInputs(const std::string& path, const std::string& impl, const std::string& backend,
                                    const std::vector<std::string>& includeDirs, const GlobalOptions& opts, bool print);

}  // namespace kc::driver

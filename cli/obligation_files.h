#pragma once
// What `kcontract obligations` and `kcontract prove` share: the obligations of the chosen
// contracts of a compilation, the `--smt2 DIR` writer, and an obligation's location as JSON.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/targets.h"
#include "compiler/obligations/obligations.h"
#include "compiler/pipeline.h"

namespace kc::driver {

// The obligations (and those that could not be built) of every chosen contract declared in
// the compilation's input files, in declaration order. `contracts` (optional) receives, per
// obligation, the contract it belongs to.
void collectObligations(const Compilation& c, const Targets& chosen, std::vector<obl::Obligation>& all,
                        std::vector<obl::Skipped>& skipped,
                        std::vector<const sema::ContractInfo*>* contracts = nullptr);

// Writes one <id>.smt2 per obligation into `dir` (created when missing; the id through
// obl::sanitiseId, -2, -3, ... on a clash). `fileOf` receives id -> path. False, with a
// message on stderr, when the folder or a file cannot be written.
bool writeObligationScripts(const std::string& dir, const std::vector<obl::Obligation>& all,
                            std::map<std::string, std::string>& fileOf);

// {"file", "line", "column", "end_line", "end_column"}.
nlohmann::json locationJson(const SourceRange& r, const SourceManager& sources);

}  // namespace kc::driver

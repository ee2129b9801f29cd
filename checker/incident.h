#pragma once
// kcontract incident: a Markdown incident report of one case of a results file (JSON Lines):
// what was observed, the contract ID@version and its text, the signatures and their
// evidence, the replay line, and the environment (docs/checking.md, "Incident reports").
#include <string>

#include "checker/environment.h"
#include "checker/report/result.h"

namespace kc::check {

struct IncidentInput {
  report::CaseResult result;  // the case, as the results file holds it
  std::string notes;          // Markdown put first, its own title included ("" for a title made here)
  std::string contractText;   // the contract's declaration as written ("" when it cannot be read)
  std::string contractWhere;  // FILE:LINE of it, or why it could not be read
  std::string replay;         // the `kcontract replay '...'` line
  std::string replayFrom;     // where to run it: "the repository root", "any folder"
  Environment env;
};

std::string incidentMarkdown(const IncidentInput& in);

// The declaration that starts at 1-based `line` of `file`: from that line to the brace that
// closes its body (braces in comments and strings are not counted). "" and `error` set when
// the file cannot be read or no body closes.
std::string declarationText(const std::string& file, int line, std::string& error);

// The reproducer `repro` (as formatRepro writes it) for a report meant to be shared: its
// paths relative to the root of the git repository that holds the kernel, with no dir=, and
// `from` set to "the repository root"; unchanged (`from` "any folder" with dir=, else "the
// folder the check ran in") when there is no repository or a path lies outside it.
std::string shareableRepro(const std::string& repro, std::string& from);

}  // namespace kc::check

#pragma once
// A command's targets: `.kcontract` files, or contract IDs (`acme.softmax.rows@1`, or
// without `@N` when one version exists) looked up under the search roots: every -I folder,
// then the shipped stdlib/ and contracts/. The lookup parses the files under those roots
// (recursively, in path order) and reads the IDs they declare.
#include <set>
#include <string>
#include <vector>

#include "compiler/diag/diagnostics.h"
#include "compiler/pipeline.h"

namespace kc {

struct Targets {
  std::vector<std::string> files;  // each file once, in the order first named
  std::set<std::string> only;      // contract IDs chosen by ID; empty: every contract of the files
};

// Whether `arg` is written as a contract ID rather than a path: dotted words, an optional
// `@N`, no slash and no `.kcontract` ending. An existing path is always a path.
bool looksLikeContractId(const std::string& arg);

// Resolves each argument. An unknown or ambiguous ID, or a class named where a contract is
// needed, is reported to `diags` (KC0002, KC0003) and leaves the result incomplete.
Targets resolveTargets(const std::vector<std::string>& args, const std::vector<std::string>& includeDirs,
                       DiagnosticEngine& diags);

// The standard ops (stdlib/ops/NAME.kcontract): each op's standard contract is `std.op.NAME@V`.
// standardOps lists the NAMEs of every such contract under the search roots, sorted, once each.
std::vector<std::string> standardOps(const std::vector<std::string>& includeDirs);
// The newest version of each op's standard contract: std.op.NAME@V with the highest V, once per
// NAME, sorted by NAME (what an op's calibration pair is checked against).
std::vector<std::string> standardOpContracts(const std::vector<std::string>& includeDirs);
// The contract ID of an op given as `softmax` or `std.ops.softmax`: std.op.softmax (no version).
std::string opContractId(const std::string& op);
// The newest version of the contract `unversioned` (std.op.matmul) declared under the search
// roots, as an ID with its version (std.op.matmul@2): the highest version, whatever the
// files' order; "" when none is declared. Classes do not count.
std::string newestContractId(const std::string& unversioned, const std::vector<std::string>& includeDirs);

// Every regular file under `dir` (recursively) whose name ends in `ext` (".kcontract"), sorted.
std::vector<std::string> filesUnder(const std::string& dir, const std::string& ext);

// Whether a contract is among the chosen (every contract when none was chosen by ID).
inline bool isChosen(const Targets& t, const std::string& id) { return t.only.empty() || t.only.count(id) > 0; }

// Resolves `targets` (files or contract IDs) and compiles their files up to `last`, with
// `includeDirs` as import folders and search roots. The diagnostics stay in c.diags for the
// caller to print (once, after this returns); false when there were errors. `chosen`
// receives the resolved targets.
bool compileTargets(Compilation& c, const std::vector<std::string>& targets, const std::vector<std::string>& includeDirs,
                    bool warningsAsErrors, Stage last, Targets& chosen);

}  // namespace kc

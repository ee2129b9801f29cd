#pragma once
// A mutant set: the mutants of one kernel written to a JSON file (`kcontract mutate --emit`)
// and run from it later, on another machine (`--from`). Mutants are generated with libclang,
// which the GPU machine does not have (nor room to carry it: ~140 MB with LLVM); the set
// holds what the run stages need — each mutant's id, operator, family, place, description,
// diff and its edits as byte ranges of the kernel's text — and the kernel's quoted #includes,
// as paths relative to the kernel's folder. Reading it checks that the kernel's text is the
// one the mutants were made from (its SHA-256), so an edit never lands on other bytes.
#include <stdexcept>
#include <string>
#include <vector>

#include "mutate/ast.h"
#include "mutate/mutant.h"

namespace kc::mutate {

struct MutantSetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct MutantSet {
  KernelAst ast;  // path, text, language and includes (resolved here); no function trees
  std::string entry;
  std::vector<Mutant> mutants;
  std::vector<std::string> diffs;  // per mutant, as mutantDiff wrote it
};

// Writes the set of `mutants` of `ast` (entry `entry`) to `path`. Throws MutantSetError.
void writeMutantSet(const std::string& path, const KernelAst& ast, const std::string& entry,
                    const std::vector<Mutant>& mutants, const std::vector<std::string>& diffs);

// Reads a set for the kernel at `kernelPath` (its text must hash as the set says). Throws
// MutantSetError naming the file and what is wrong.
MutantSet readMutantSet(const std::string& path, const std::string& kernelPath);

}  // namespace kc::mutate

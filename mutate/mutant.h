#pragma once
// One mutant: a small edit of a kernel source, with a stable id, a readable diff and the
// signature family it should be named by (families.h).
#include <string>
#include <vector>

#include "mutate/ast.h"

namespace kc::mutate {

struct Edit {
  size_t begin = 0, end = 0;  // the byte range replaced, in the original text
  std::string replacement;
};

struct Mutant {
  std::string id;           // OPERATOR@LINE:COL, and #2, #3 for further mutants at one place
  std::string op;           // the operator: arith, relational, guard, ... (operators.h)
  std::string family;       // the signature family (families.h): tail, precision, nan, ...
  std::string function;     // the function edited
  std::string description;  // "`+` -> `-`"
  int line = 0, column = 0;
  std::vector<Edit> edits;  // non-overlapping, in any order
};

// The mutant's source: the edits applied, and every quoted #include made absolute so that the
// mutant builds from any folder.
std::string mutantSource(const KernelAst& ast, const Mutant& m);

// The lines the edits change, as a unified diff hunk per line ("-" the original, "+" the
// mutant), each headed "@@ FILE:LINE @@".
std::string mutantDiff(const KernelAst& ast, const Mutant& m);

// Gives each mutant its id from its operator and place (after sorting by place).
void assignIds(const KernelAst& ast, std::vector<Mutant>& mutants);

}  // namespace kc::mutate

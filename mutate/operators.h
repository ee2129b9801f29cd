#pragma once
// The mutation operators (docs/mutate.md): each looks at one node of a kernel's tree and
// proposes the mutants it makes there. They edit source text by byte range, so a mutant
// differs from its kernel in exactly the tokens the operator names.
#include <string>
#include <vector>

#include "mutate/ast.h"
#include "mutate/mutant.h"

namespace kc::mutate {

struct Operator {
  const char* name;    // arith, relational, ...
  const char* family;  // families.h
  const char* what;    // one line, for --list-operators and the docs
  void (*visit)(const KernelAst& ast, const Node& n, std::vector<Mutant>& out);
};

const std::vector<Operator>& operators();

// Every mutant of the functions `entry` reaches (reachableFunctions), with ids assigned;
// `only`: just these operators (empty: all).
std::vector<Mutant> generateMutants(const KernelAst& ast, const std::string& entry, const std::vector<std::string>& only = {});

}  // namespace kc::mutate

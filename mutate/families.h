#pragma once
// The signature families: which violation signatures (the contracts' own, docs/checking.md,
// and the checker's built-in ones, checker/report/builtin_signatures.h) name the fault a
// mutation operator injects. A killed mutant is "named" when some failing case of it matches
// a signature of its family.
#include <string>
#include <vector>

namespace kc::mutate {

struct Family {
  const char* name;                     // tail, accumulator, precision, ...
  const char* what;                     // one line, for the docs and the report
  std::vector<std::string> signatures;  // empty: any signature other than "unclassified"
};

const std::vector<Family>& families();
const Family* family(const std::string& name);

// Whether a failing case's signatures name a fault of family `name`.
bool namedBy(const std::string& name, const std::vector<std::string>& signatures);

}  // namespace kc::mutate

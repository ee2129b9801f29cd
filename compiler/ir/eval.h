#pragma once
// Evaluates integer IR expressions (shapes, ranges, index arithmetic) once the dimensions
// and index variables have values. Overflow or an unbound name gives nullopt, never a
// wrapped number.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "compiler/ir/ir.h"

namespace kc::ir {

using IntEnv = std::map<std::string, int64_t>;  // dims and index variables by name

std::optional<int64_t> evalInt(const Node& n, const IntEnv& env);

// A condition over integers (comparisons of evalInt values joined by !, &&, ||, =>): its
// truth, or nullopt where it reads anything else or a name is unbound. `false && x` is
// false and `true || x` true whatever x is, so a partial assignment can already refute it.
std::optional<bool> evalCond(const Node& n, const IntEnv& env);

}  // namespace kc::ir

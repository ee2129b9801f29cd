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

}  // namespace kc::ir

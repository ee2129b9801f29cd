#pragma once
// AST dumps: a readable indented tree (expressions as S-expressions) and JSON with the
// full structure and a range on every node. `kcontract parse` prints them; golden tests
// compare them; the fuzzer compares range-free dumps to check parse(fmt(x)) == parse(x).
#include <string>

#include <nlohmann/json.hpp>

#include "compiler/ast/ast.h"

namespace kc::ast {

std::string dumpText(const File& file, bool withRanges = true);
nlohmann::json dumpJson(const File& file, bool withRanges = true);

}  // namespace kc::ast

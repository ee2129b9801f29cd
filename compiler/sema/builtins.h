#pragma once
// The functions an expression may call, with their argument kinds. docs/language.md
// ("Functions") lists the same table.
#include <string>
#include <vector>

#include "compiler/ir/ir.h"

namespace kc::sema {

enum class Arg { Number, DType, Int };

struct Builtin {
  const char* name;
  ir::Op op;            // Call, DTypeQuery or RoundTo
  std::vector<Arg> args;
  ir::Type result;      // Real or Bool; Number-typed results follow their argument
  const char* summary;
};

const Builtin* findBuiltin(const std::string& name);
const std::vector<Builtin>& builtins();

}  // namespace kc::sema

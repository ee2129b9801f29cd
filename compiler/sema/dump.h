#pragma once
// A readable dump of the semantic model: each kernel's bound signature and each contract's
// parts as IR. `kcontract ir` prints it; the sema golden tests compare it.
#include <string>

#include "compiler/sema/model.h"

namespace kc::sema {

// Kernels and contracts declared in `files` (the command-line inputs), not imported ones.
std::string dumpProgram(const Program& program, const std::vector<uint32_t>& files, bool sexpr);

}  // namespace kc::sema

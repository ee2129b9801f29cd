#pragma once
// Pass 1 — imports: loads every module the inputs import, transitively. A module
// `a.b.c` is the file a/b/c.kcontract under the first search root that has it: the
// importing file's folder, each -I directory, then the shipped library (a module
// `std.x.y` is x/y.kcontract under stdlib/ or contracts/). A module never resolves outside
// its root, even through a symbolic link.
#include <string>
#include <vector>

#include "compiler/compilation.h"

namespace kc::sema {

// Appends each newly loaded module to c.modules. Returns every file, roots first.
std::vector<const ast::File*> resolveImports(Compilation& c);

}  // namespace kc::sema

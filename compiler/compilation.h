#pragma once
// What one run of the compiler holds: the sources and their diagnostics, the syntax trees of
// the inputs and of the modules they import, and the semantic model. The stages fill it
// (pipeline.h runs them); its own header so that a stage (sema/imports.h) can take it
// without including the pipeline that includes the stage.
#include <memory>
#include <string>
#include <vector>

#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"
#include "compiler/sema/model.h"

namespace kc {

enum class Stage { Parse, Sema };

struct Compilation {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  // One entry per input, in order; null where the input failed its stage.
  std::vector<std::unique_ptr<ast::File>> files;
  std::vector<uint32_t> fileIds;  // 0 where the input could not be read
  std::vector<std::string> includeDirs;  // -I: extra roots for imports
  std::vector<std::unique_ptr<ast::File>> modules;  // files loaded by imports
  std::unique_ptr<sema::Program> program;            // after Stage::Sema
  // Contracts to check with more classes than they apply (a suite entry's `classes:`): sema
  // adds, beside each named contract (an ID, with or without its version), one more
  // contract whose ID is the contract's followed by "+CLASS" per extra class.
  std::vector<sema::ExtraClasses> extraClasses;
};

}  // namespace kc

#pragma once
// The compiler pipeline: every stage, in order, in one function (pipeline.cpp). Each stage
// lives in its own folder: parse -> sema (imports, symbols, kernels, contracts with their
// classes and protocols, all lowered to the expression IR). Obligations and measurement
// plans are built from the semantic model.
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
};

// Runs the pipeline on each input up to `last`. Returns false if any error was reported.
bool compile(Compilation& c, const std::vector<std::string>& paths, Stage last);

// The same for text already in memory (stdin, tests, the fuzzer).
bool compileText(Compilation& c, const std::string& name, const std::string& text, Stage last);

}  // namespace kc

#pragma once
// The compiler pipeline: every stage, in order, in one function (pipeline.cpp). Each stage
// lives in its own folder. Today: load -> parse. Semantic analysis, the expression IR,
// obligations and measurement plans join this list as they land.
#include <memory>
#include <string>
#include <vector>

#include "compiler/ast/ast.h"
#include "compiler/diag/diagnostics.h"

namespace kc {

enum class Stage { Parse };

struct Compilation {
  SourceManager sources;
  DiagnosticEngine diags{sources};
  // One entry per input, in order; null where the input failed its stage.
  std::vector<std::unique_ptr<ast::File>> files;
  std::vector<uint32_t> fileIds;  // 0 where the input could not be read
};

// Runs the pipeline on each input up to `last`. Returns false if any error was reported.
bool compile(Compilation& c, const std::vector<std::string>& paths, Stage last);

// The same for text already in memory (stdin, tests, the fuzzer).
bool compileText(Compilation& c, const std::string& name, const std::string& text, Stage last);

}  // namespace kc

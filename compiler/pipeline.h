#pragma once
// The compiler pipeline: every stage, in order, in one function (pipeline.cpp). Each stage
// lives in its own folder: parse -> sema (imports, symbols, kernels, contracts with their
// classes and protocols, all lowered to the expression IR). Obligations and measurement
// plans are built from the semantic model.
#include <string>
#include <vector>

#include "compiler/compilation.h"

namespace kc {

// Runs the pipeline on each input up to `last`. Returns false if any error was reported.
bool compile(Compilation& c, const std::vector<std::string>& paths, Stage last);

// The same for text already in memory (stdin, tests, the fuzzer).
bool compileText(Compilation& c, const std::string& name, const std::string& text, Stage last);

}  // namespace kc

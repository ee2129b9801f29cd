#include "compiler/pipeline.h"

#include "compiler/parse/parser.h"
#include "compiler/sema/contracts.h"
#include "compiler/sema/imports.h"
#include "compiler/sema/kernels.h"
#include "compiler/sema/symbols.h"

namespace kc {

namespace {

// The whole-program stages, in order, once every input has parsed.
void runSema(Compilation& c) {
  std::vector<const ast::File*> files = sema::resolveImports(c);   // 2. imports -> modules
  if (c.diags.hasErrors()) return;
  sema::SymbolTable symbols = sema::collectSymbols(files, c.diags);  // 3. names of declarations
  c.program = std::make_unique<sema::Program>();
  c.program->rootFiles = c.fileIds;
  sema::bindKernels(symbols, *c.program, c.diags);                  // 4. signatures, dims, dtypes
  if (c.diags.hasErrors()) return;
  sema::checkContracts(symbols, *c.program, c.diags, c.extraClasses);  // 5. contracts, classes, IR
}

bool runStages(Compilation& c, Stage last) {
  if (c.diags.hasErrors() || last == Stage::Parse) return !c.diags.hasErrors();
  runSema(c);
  return !c.diags.hasErrors();
}

}  // namespace

bool compile(Compilation& c, const std::vector<std::string>& paths, Stage last) {
  for (const auto& path : paths) {  // 1. parse every input -> AST
    std::string error;
    uint32_t id = c.sources.load(path, error);
    c.fileIds.push_back(id);
    if (id == 0) {
      c.diags.report(DiagCode::FileUnreadable, SourceRange{}, error);
      c.files.push_back(nullptr);
      continue;
    }
    c.files.push_back(parse::parseFile(id, c.sources, c.diags));
  }
  return runStages(c, last);
}

bool compileText(Compilation& c, const std::string& name, const std::string& text, Stage last) {
  uint32_t id = c.sources.add(name, text);
  c.fileIds.push_back(id);
  c.files.push_back(parse::parseFile(id, c.sources, c.diags));
  return runStages(c, last);
}

}  // namespace kc

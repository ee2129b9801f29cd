#include "compiler/pipeline.h"

#include "compiler/parse/parser.h"

namespace kc {

namespace {

// The stages, in order, for one loaded file.
std::unique_ptr<ast::File> runStages(Compilation& c, uint32_t fileId, Stage last) {
  std::unique_ptr<ast::File> file = parse::parseFile(fileId, c.sources, c.diags);  // 1. parse -> AST
  if (!file || last == Stage::Parse) return file;
  return file;
}

}  // namespace

bool compile(Compilation& c, const std::vector<std::string>& paths, Stage last) {
  for (const auto& path : paths) {
    std::string error;
    uint32_t id = c.sources.load(path, error);
    c.fileIds.push_back(id);
    if (id == 0) {
      c.diags.report(DiagCode::FileUnreadable, SourceRange{}, error);
      c.files.push_back(nullptr);
      continue;
    }
    c.files.push_back(runStages(c, id, last));
  }
  return !c.diags.hasErrors();
}

bool compileText(Compilation& c, const std::string& name, const std::string& text, Stage last) {
  uint32_t id = c.sources.add(name, text);
  c.fileIds.push_back(id);
  c.files.push_back(runStages(c, id, last));
  return !c.diags.hasErrors();
}

}  // namespace kc

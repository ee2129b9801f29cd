#include "lsp/analysis.h"

#include "compiler/fmt/formatter.h"
#include "compiler/pipeline.h"
#include "lsp/text_position.h"

namespace kc::lsp {

namespace {

using nlohmann::json;

json position(const Position& p) { return {{"line", p.line}, {"character", p.character}}; }

json range(const SourceManager& sources, const SourceRange& r) {
  if (!r.valid() || !sources.has(r.file)) return {{"start", position({})}, {"end", position({})}};
  const SourceFile& f = sources.file(r.file);
  Position begin = toPosition(f, r.begin);
  Position end = r.end.line == 0 ? begin : toPosition(f, r.end);
  if (end.line < begin.line || (end.line == begin.line && end.character < begin.character)) end = begin;
  return {{"start", position(begin)}, {"end", position(end)}};
}

int severity(Severity s) { return s == Severity::Error ? 1 : s == Severity::Warning ? 2 : 3; }

std::string where(const SourceManager& sources, const SourceRange& r) {
  if (!r.valid() || !sources.has(r.file)) return "";
  return sources.file(r.file).path() + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + ": ";
}

}  // namespace

json diagnostics(const std::string& path, const std::string& text, const std::vector<std::string>& includeDirs) {
  Compilation c;
  c.includeDirs = includeDirs;
  compileText(c, path, text, Stage::Sema);
  const uint32_t self = c.fileIds.front();
  json out = json::array();
  for (const Diagnostic& d : c.diags.sorted()) {
    const bool here = d.range.file == self;
    json diag = {{"range", here ? range(c.sources, d.range) : range(c.sources, SourceRange{})},
                 {"severity", severity(d.severity)},
                 {"code", diagCodeString(d.code)},
                 {"source", "kcontract"},
                 {"message", (here ? "" : where(c.sources, d.range)) + d.message}};
    json related = json::array();
    for (const auto& note : d.notes) {
      if (!note.range.valid() || !c.sources.has(note.range.file)) continue;
      related.push_back({{"location", {{"uri", pathToUri(c.sources.file(note.range.file).path())},
                                       {"range", range(c.sources, note.range)}}},
                         {"message", note.message}});
    }
    if (!related.empty()) diag["relatedInformation"] = related;
    out.push_back(diag);
  }
  return out;
}

std::optional<json> formattingEdits(const std::string& path, const std::string& text, std::string& error) {
  Compilation c;
  compileText(c, path, text, Stage::Parse);
  if (!c.files.front() || c.diags.hasErrors()) {
    auto all = c.diags.sorted();
    error = "the document does not parse, so it is not formatted";
    for (const Diagnostic& d : all)
      if (d.severity == Severity::Error) {
        error += " (" + std::to_string(d.range.begin.line) + ":" + std::to_string(d.range.begin.column) + ": " +
                 d.message + ")";
        break;
      }
    return std::nullopt;
  }
  std::string formatted = fmt::format(*c.files.front(), c.sources.file(c.fileIds.front()));
  if (formatted == text) return json::array();
  json edit = {{"range", {{"start", position({})}, {"end", position(endOf(text))}}}, {"newText", formatted}};
  return json::array({edit});
}

}  // namespace kc::lsp

#pragma once
// What the server says about one open document: the compiler's diagnostics and the
// formatter's edit. The document is compiled from the editor's text (not the file on disk)
// under its own path, so its relative imports resolve as `kcontract check` resolves them.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kc::lsp {

// LSP Diagnostic objects for `text`, through sema: range, severity (1 error, 2 warning,
// 3 note), code ("KC2012"), source "kcontract", message, and the notes as related
// information. A diagnostic in another file (an imported module) is placed at the start of
// the document, its message prefixed with that file's path:line:col.
nlohmann::json diagnostics(const std::string& path, const std::string& text, const std::vector<std::string>& includeDirs);

// The formatter's edits for `text`: [] when it is in canonical form, else one edit that
// replaces the whole text. nullopt, with `error` ("line:col: message" of the first syntax
// error), when the text does not parse: a broken document is never rewritten.
std::optional<nlohmann::json> formattingEdits(const std::string& path, const std::string& text, std::string& error);

}  // namespace kc::lsp

#pragma once
// `kcontract lsp`: a Language Server over stdio (docs/editors.md). Full-text document sync;
// diagnostics published when a document opens, changes or is saved (cleared when it closes);
// textDocument/formatting (the formatter, `kcontract fmt`); textDocument/hover (a standard
// class's, contract's or op's text). Requests other than these get MethodNotFound.
#include <iosfwd>
#include <string>
#include <vector>

namespace kc::lsp {

struct ServerOptions {
  std::vector<std::string> includeDirs;  // -I: more roots for imports and for hover's IDs
  std::ostream* log = nullptr;           // where to say what went wrong (stderr); null: nowhere
  std::string version;                   // serverInfo.version: kcontract's
};

// Serves one client on `in` and `out` until it sends `exit` or the input ends. Returns the
// process's exit status: 0 after `shutdown` then `exit`, 1 otherwise (as the protocol asks),
// and 1 when the input is not the protocol's framing.
int serve(std::istream& in, std::ostream& out, const ServerOptions& options);

}  // namespace kc::lsp

#include "lsp/server.h"

#include <exception>
#include <map>
#include <ostream>

#include <nlohmann/json.hpp>

#include "lsp/analysis.h"
#include "lsp/framing.h"
#include "lsp/hover.h"

namespace kc::lsp {

namespace {

using nlohmann::json;

// JSON-RPC and LSP error codes.
constexpr int kParseError = -32700, kInvalidRequest = -32600, kMethodNotFound = -32601, kInvalidParams = -32602,
              kInternalError = -32603, kServerNotInitialized = -32002, kRequestFailed = -32803;

struct RequestError {
  int code;
  std::string message;
};

class Server {
 public:
  Server(std::ostream& out, const ServerOptions& o) : out_(out), options_(o), hover_(o.includeDirs) {}

  // One message. False once `exit` arrived.
  bool handle(const json& msg) {
    const bool isRequest = msg.contains("id") && msg.contains("method");
    const std::string method = msg.value("method", "");
    if (!msg.contains("method")) return true;  // a response to something we never ask: ignored
    if (method == "exit") return false;
    const json params = msg.value("params", json::object());
    try {
      if (isRequest) {
        respond(msg["id"], request(method, params));
      } else {
        notification(method, params);
      }
    } catch (const RequestError& e) {
      if (isRequest) fail(msg["id"], e.code, e.message);
      else say(method + ": " + e.message);
    } catch (const json::exception& e) {
      if (isRequest) fail(msg["id"], kInvalidParams, std::string("invalid params: ") + e.what());
      else say(method + ": invalid params: " + e.what());
    } catch (const std::exception& e) {
      if (isRequest) fail(msg["id"], kInternalError, e.what());
      else say(method + ": " + e.what());
    }
    return true;
  }

  bool shutdownAsked() const { return shutdown_; }

  void send(const json& j) { writeMessage(out_, j.dump()); }
  void fail(const json& id, int code, const std::string& message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

 private:
  json request(const std::string& method, const json& params) {
    if (method == "initialize") {
      initialized_ = true;
      return {{"capabilities",
               {{"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
                {"documentFormattingProvider", true},
                {"hoverProvider", true}}},
              {"serverInfo", {{"name", "kcontract"}, {"version", options_.version}}}};
    }
    if (!initialized_) throw RequestError{kServerNotInitialized, "initialize first"};
    if (shutdown_) throw RequestError{kInvalidRequest, "the server is shutting down"};
    if (method == "shutdown") {
      shutdown_ = true;
      return nullptr;
    }
    if (method == "textDocument/formatting") {
      const std::string uri = params.at("textDocument").at("uri");
      std::string error;
      auto edits = formattingEdits(pathOf(uri), document(uri), error);
      if (!edits) throw RequestError{kRequestFailed, error};
      return *edits;
    }
    if (method == "textDocument/hover") {
      const std::string uri = params.at("textDocument").at("uri");
      Position at{params.at("position").at("line"), params.at("position").at("character")};
      std::string error;
      auto h = hover_.at(document(uri), at, error);
      if (!error.empty()) throw RequestError{kRequestFailed, error};
      if (!h) return nullptr;
      return {{"contents", {{"kind", "markdown"}, {"value", h->markdown}}},
              {"range", {{"start", {{"line", h->start.line}, {"character", h->start.character}}},
                         {"end", {{"line", h->end.line}, {"character", h->end.character}}}}}};
    }
    throw RequestError{kMethodNotFound, "kcontract lsp does not answer '" + method + "'"};
  }

  void notification(const std::string& method, const json& params) {
    if (!initialized_) return;  // the protocol drops notifications before initialize
    if (method == "textDocument/didOpen") {
      const json& doc = params.at("textDocument");
      open_[doc.at("uri")] = doc.at("text");
      publish(doc.at("uri"));
    } else if (method == "textDocument/didChange") {
      const std::string uri = params.at("textDocument").at("uri");
      if (!open_.count(uri)) throw RequestError{kInvalidParams, "didChange for a document that is not open: " + uri};
      for (const json& change : params.at("contentChanges")) {
        if (change.contains("range")) throw RequestError{kInvalidParams, "incremental changes: the server asked for full text"};
        open_[uri] = change.at("text");
      }
      publish(uri);
    } else if (method == "textDocument/didSave") {
      publish(params.at("textDocument").at("uri"));
    } else if (method == "textDocument/didClose") {
      const std::string uri = params.at("textDocument").at("uri");
      open_.erase(uri);
      send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"},
            {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
    }
    // initialized, $/cancelRequest, workspace/didChangeConfiguration...: nothing to do
  }

  void respond(const json& id, const json& result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}); }

  void publish(const std::string& uri) {
    auto it = open_.find(uri);
    if (it == open_.end()) return;
    send({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"},
          {"params", {{"uri", uri}, {"diagnostics", diagnostics(pathOf(uri), it->second, options_.includeDirs)}}}});
  }

  // The open document's text, else the file's.
  const std::string& document(const std::string& uri) {
    auto it = open_.find(uri);
    if (it == open_.end()) throw RequestError{kInvalidParams, "the document is not open: " + uri};
    return it->second;
  }

  static std::string pathOf(const std::string& uri) {
    std::string path = uriToPath(uri);
    return path.empty() ? uri : path;  // an untitled: document compiles under its URI
  }

  void say(const std::string& line) {
    if (options_.log) *options_.log << "kcontract lsp: " << line << "\n" << std::flush;
  }

  std::ostream& out_;
  const ServerOptions& options_;
  HoverIndex hover_;
  std::map<std::string, std::string> open_;
  bool initialized_ = false, shutdown_ = false;
};

}  // namespace

int serve(std::istream& in, std::ostream& out, const ServerOptions& options) {
  Server server(out, options);
  while (true) {
    std::string body, error;
    ReadResult r = readMessage(in, body, error);
    if (r == ReadResult::End) return 1;  // the client went away without `exit`
    if (r == ReadResult::Broken) {
      if (options.log) *options.log << "kcontract lsp: " << error << "; stopping\n";
      return 1;
    }
    json msg = json::parse(body, nullptr, false);
    if (msg.is_discarded() || !msg.is_object()) {
      server.fail(nullptr, msg.is_discarded() ? kParseError : kInvalidRequest,
                  msg.is_discarded() ? "the message is not JSON" : "a message must be a JSON object");
      continue;
    }
    if (!server.handle(msg)) return server.shutdownAsked() ? 0 : 1;
  }
}

}  // namespace kc::lsp

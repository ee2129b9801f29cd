#pragma once
// The base protocol of the Language Server Protocol: each message is a header block
// ("Content-Length: N", optionally "Content-Type: ..."), an empty line, then N bytes of JSON.
#include <iosfwd>
#include <string>

namespace kc::lsp {

enum class ReadResult { Message, End, Broken };

// Reads the next message's body. End: the stream ended cleanly before a header. Broken: a
// header without a length, a length that is not a number or too large (over 64 MiB), or a
// body cut short; `error` says which.
ReadResult readMessage(std::istream& in, std::string& body, std::string& error);

// Writes `body` with its Content-Length header and flushes.
void writeMessage(std::ostream& out, const std::string& body);

}  // namespace kc::lsp

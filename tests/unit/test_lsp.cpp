// The Language Server's pieces (lsp/): the protocol's framing, URIs and UTF-16 positions,
// and the answers about a document (diagnostics, formatting edits).
#include <catch2/catch.hpp>
#include <sstream>
#include <string>

#include "lsp/analysis.h"
#include "lsp/framing.h"
#include "lsp/text_position.h"

using namespace kc::lsp;

TEST_CASE("LSP framing reads Content-Length messages and names what is broken") {
  std::istringstream in("Content-Length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
                        "content-length: 4\r\n\r\nnull");
  std::string body, error;
  REQUIRE(readMessage(in, body, error) == ReadResult::Message);
  CHECK(body == "{}");
  REQUIRE(readMessage(in, body, error) == ReadResult::Message);  // the header's name in any case
  CHECK(body == "null");
  CHECK(readMessage(in, body, error) == ReadResult::End);

  auto broken = [](const std::string& text) {
    std::istringstream s(text);
    std::string b, e;
    CHECK(readMessage(s, b, e) == ReadResult::Broken);
    return e;
  };
  CHECK(broken("Content-Length: -3\r\n\r\n") == "Content-Length is not a number: '-3'");
  CHECK(broken("Content-Type: x\r\n\r\n{}") == "a message without Content-Length");
  CHECK(broken("Content-Length: 10\r\n\r\n{}") == "the input ended inside a message body (2 of 10 bytes)");
  CHECK(broken("Content-Length: 99999999999\r\n\r\n") == "a message of 99999999999 bytes (more than 64 MiB)");
  CHECK(broken("garbage\r\n\r\n") == "a header line without ':': 'garbage'");

  std::ostringstream out;
  writeMessage(out, "{\"a\":1}");
  CHECK(out.str() == "Content-Length: 7\r\n\r\n{\"a\":1}");
}

TEST_CASE("LSP URIs and positions: percent-decoding, UTF-16 code units, the end of a text") {
  CHECK(uriToPath("file:///home/u/my%20op/a.kcontract") == "/home/u/my op/a.kcontract");
  CHECK(uriToPath("file://localhost/tmp/a.kcontract") == "/tmp/a.kcontract");
  CHECK(uriToPath("untitled:Untitled-1").empty());
  CHECK(pathToUri("/home/u/my op/é.kcontract") == "file:///home/u/my%20op/%C3%A9.kcontract");
  CHECK(uriToPath(pathToUri("/a b/c#d.kcontract")) == "/a b/c#d.kcontract");

  // "a" "é"(2 bytes, 1 unit) "😀"(4 bytes, 2 units) "b"
  const std::string text = "x\na\xC3\xA9\xF0\x9F\x98\x80" "b\n";
  CHECK(toOffset(text, {1, 0}) == 2);
  CHECK(toOffset(text, {1, 2}) == 5);   // past é
  CHECK(toOffset(text, {1, 4}) == 9);   // past the emoji: 'b'
  CHECK(toOffset(text, {1, 99}) == 10);  // the line's end
  CHECK(toOffset(text, {9, 0}) == text.size());
  Position end = endOf(text);
  CHECK(end.line == 2);
  CHECK(end.character == 0);
  end = endOf("ab\n\xC3\xA9z");
  CHECK(end.line == 1);
  CHECK(end.character == 2);

  kc::SourceFile f("t.kcontract", text);
  Position p = toPosition(f, {2, 8, 9});  // 'b': byte column 8 on line 2
  CHECK(p.line == 1);
  CHECK(p.character == 4);
}

TEST_CASE("LSP diagnostics carry the compiler's code and range; formatting refuses a text that does not parse") {
  const std::string text = "kcontract 1\n\nkernel k(x: f32[N]) -> (y: f32[N])\n  where N in 1..8\n\ncontract a.b@1 \"t\" {\n"
                           "  scope {\n    kernel k\n  }\n  oracle f64 {\n    y[i] = z[i]\n  }\n}\n";
  auto d = diagnostics("/tmp/kc_test_lsp.kcontract", text, {});
  REQUIRE(d.size() == 2);  // in source order: no post section (6:10), then the unknown z (11:12)
  CHECK(d[0]["code"] == "KC2017");
  CHECK(d[1]["severity"] == 1);
  CHECK(d[1]["source"] == "kcontract");
  CHECK(d[1]["code"] == "KC2005");
  CHECK(d[1]["message"] == "unknown tensor 'z'");
  CHECK(d[1]["range"]["start"]["line"] == 10);
  CHECK(d[1]["range"]["start"]["character"] == 11);
  CHECK(d[1]["range"]["end"]["character"] == 12);

  std::string error;
  CHECK_FALSE(formattingEdits("/tmp/x.kcontract", "kcontract 1\ncontract {", error));
  CHECK(error == "the document does not parse, so it is not formatted (2:10: expected a name, found '{')");
}

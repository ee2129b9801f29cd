#pragma once
// Hover text: the standard class, contract or op whose ID is under the cursor (what
// `kcontract explain ID` prints), as Markdown. The catalogue (contracts/, stdlib/ops/ and the
// -I folders) is compiled once, at the first hover.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lsp/text_position.h"

namespace kc::check {
struct Catalog;
}

namespace kc::lsp {

struct HoverText {
  std::string markdown;
  Position start, end;  // the ID's range in the document
};

class HoverIndex {
 public:
  explicit HoverIndex(std::vector<std::string> includeDirs);
  ~HoverIndex();
  // The ID under `at` (letters, digits, '_', '-', '.', '@', with a '.' in it: std.mem.strides@1,
  // std.op.rmsnorm) and its entry's text; nullopt when no entry has that ID. `error` is set
  // when the catalogue could not be loaded.
  std::optional<HoverText> at(const std::string& text, const Position& at, std::string& error);

 private:
  std::vector<std::string> includeDirs_;
  std::unique_ptr<check::Catalog> catalog_;
  std::string loadError_;
};

}  // namespace kc::lsp

#include "tests/fuzz/roundtrip.h"

#include <sstream>

#include "compiler/ast/dump.h"
#include "compiler/fmt/formatter.h"
#include "compiler/pipeline.h"

namespace kc::fuzz {

std::string roundTripFailure(const std::string& text) {
  Compilation first;
  compileText(first, "input.kcontract", text, Stage::Parse);
  std::ostringstream sink;
  first.diags.print(sink, true);  // the printer must survive any input too
  if (!first.files[0]) return "";
  const ast::File& ast1 = *first.files[0];
  (void)ast::dumpJson(ast1).dump();

  std::string once = fmt::format(ast1, first.sources.file(first.fileIds[0]));
  Compilation second;
  compileText(second, "formatted.kcontract", once, Stage::Parse);
  if (!second.files[0]) {
    std::ostringstream errors;
    second.diags.print(errors, false);
    return "formatted text does not parse:\n" + once + "\n" + errors.str();
  }
  std::string dump1 = ast::dumpText(ast1, false);
  std::string dump2 = ast::dumpText(*second.files[0], false);
  if (dump1 != dump2) return "parse(fmt(x)) != parse(x):\n" + dump1 + "\n---\n" + dump2;

  std::string twice = fmt::format(*second.files[0], second.sources.file(second.fileIds[0]));
  if (twice != once) return "fmt is not idempotent:\n" + once + "\n---\n" + twice;
  return "";
}

}  // namespace kc::fuzz

// libFuzzer target: any input may fail to parse, but nothing may crash, and every input
// that parses must format to text that (1) parses, (2) has the same AST and comments, and
// (3) is a fixed point of the formatter.
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "compiler/ast/dump.h"
#include "compiler/fmt/formatter.h"
#include "compiler/pipeline.h"

namespace {

[[noreturn]] void fail(const char* what, const std::string& a, const std::string& b) {
  std::fprintf(stderr, "fuzz_parse_fmt: %s\n--- first\n%s\n--- second\n%s\n", what, a.c_str(), b.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return 0;
  std::string text(reinterpret_cast<const char*>(data), size);

  kc::Compilation first;
  kc::compileText(first, "fuzz.kcontract", text, kc::Stage::Parse);
  std::ostringstream sink;
  first.diags.print(sink, true);
  if (!first.files[0]) return 0;
  const kc::ast::File& ast1 = *first.files[0];
  (void)kc::ast::dumpJson(ast1).dump();

  std::string once = kc::fmt::format(ast1, first.sources.file(first.fileIds[0]));
  kc::Compilation second;
  kc::compileText(second, "formatted.kcontract", once, kc::Stage::Parse);
  if (!second.files[0]) {
    std::ostringstream errors;
    second.diags.print(errors, false);
    fail("formatted text does not parse", once, errors.str());
  }
  std::string dump1 = kc::ast::dumpText(ast1, false);
  std::string dump2 = kc::ast::dumpText(*second.files[0], false);
  if (dump1 != dump2) fail("parse(fmt(x)) != parse(x)", dump1, dump2);

  std::string twice = kc::fmt::format(*second.files[0], second.sources.file(second.fileIds[0]));
  if (twice != once) fail("fmt is not idempotent", once, twice);
  return 0;
}

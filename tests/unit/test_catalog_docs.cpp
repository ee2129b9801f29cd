// The diagnostic table in docs/language.md lists every code of the catalogue.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "compiler/diag/diagnostics.h"

TEST_CASE("docs/language.md lists every diagnostic code with its name", "[diag][docs]") {
  std::ifstream in(std::string(KC_SOURCE_DIR) + "/docs/language.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  for (kc::DiagCode code : kc::allDiagCodes()) {
    std::string row = "| " + kc::diagCodeString(code) + " | " + kc::diagInfo(code).name + " |";
    INFO(row);
    CHECK(text.str().find(row) != std::string::npos);
  }
}

#pragma once
// For the unit tests: one contract text compiled through semantic analysis, kept with its
// Compilation (which owns it). The diagnostics are shown when it does not compile.
#include <catch2/catch.hpp>

#include <memory>
#include <sstream>
#include <string>

#include "compiler/pipeline.h"

namespace kc::test {

struct Compiled {
  kc::Compilation c;
  const kc::sema::ContractInfo* ct = nullptr;  // the last contract that is not a class
};

inline std::unique_ptr<Compiled> compileContract(const std::string& text) {
  auto p = std::make_unique<Compiled>();
  kc::compileText(p->c, "t.kcontract", text, kc::Stage::Sema);
  std::ostringstream diags;
  p->c.diags.print(diags, false);
  INFO(diags.str());
  REQUIRE_FALSE(p->c.diags.hasErrors());
  REQUIRE(p->c.program);
  for (const auto& ct : p->c.program->contracts)
    if (!ct->isClass) p->ct = ct.get();
  REQUIRE(p->ct != nullptr);
  return p;
}

}  // namespace kc::test

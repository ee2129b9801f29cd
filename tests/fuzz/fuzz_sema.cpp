// libFuzzer target over the whole front end: parse, then sema (imports of the standard
// library, symbols, kernels, contracts, all lowered to the expression IR), then the IR dump
// that `kcontract ir` prints. Any input may be refused with diagnostics; nothing may crash.
#include <cstdint>
#include <sstream>
#include <string>

#include "compiler/pipeline.h"
#include "compiler/sema/dump.h"
#include "tests/fuzz/big_stack.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1024 * 1024) return 0;  // -max_len=1048576 (scripts/fuzz.sh)
  kc::fuzz::onBigStack([&] {
    kc::Compilation c;
    kc::compileText(c, "input.kcontract", std::string(reinterpret_cast<const char*>(data), size), kc::Stage::Sema);
    std::ostringstream sink;
    c.diags.print(sink, true);  // the printer must survive any input too
    if (c.program && !c.diags.hasErrors()) {
      (void)kc::sema::dumpProgram(*c.program, c.fileIds, false);
      (void)kc::sema::dumpProgram(*c.program, c.fileIds, true);
    }
  });
  return 0;
}

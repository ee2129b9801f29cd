// Compiles a contract, prints its plan's size, and checks a kernel against a standard op
// with kcontract's C++ API (include/kcontract/kcontract.h):
//   embed CONTRACT.kcontract OP KERNEL[:ENTRY] [DIMS]
#include <cstdio>

#include "kcontract/kcontract.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: embed CONTRACT.kcontract OP KERNEL[:ENTRY] [DIMS]\n");
    return 2;
  }
  try {
    kcontract::Kcontract kc;  // the binary installed with the package
    std::printf("%s (%s)\n", kc.version().c_str(), kc.binary().c_str());
    kcontract::CompileResult c = kc.compile({argv[1]});
    std::printf("compile %s: %s, %zu contracts\n", argv[1], c.ok ? "ok" : "errors", c.contracts.size());
    if (!c.ok) {
      std::printf("%s\n", c.diagnostics.c_str());
      return 2;
    }
    for (const auto& p : kc.plan(argv[1])) std::printf("plan %s: %zu cases\n", p.contract.c_str(), p.cases.size());
    kcontract::CheckOptions o;
    o.op = argv[2];
    o.kernel = argv[3];
    o.dtype = "f32";
    if (argc > 4) o.dims = argv[4];
    kcontract::CheckResult r = kc.check(o);
    std::printf("check --op %s %s: %s, %zu cases", argv[2], argv[3], r.verdict.c_str(), r.cases.size());
    for (size_t i = 0; i < r.causes.size(); ++i) std::printf("%s%s", i ? ", " : " (", r.causes[i].c_str());
    std::printf("%s\n", r.causes.empty() ? "" : ")");
    for (const auto& k : r.cases)
      if (k.verdict != "PASS" && k.verdict != "SKIPPED" && !k.worst.empty())
        std::printf("  %s %s: %s%s got %g, expected %g\n", k.verdict.c_str(), k.id.c_str(), k.worst[0].tensor.c_str(),
                    k.worst[0].unwritten ? " (never written)" : "", k.worst[0].got, k.worst[0].expected);
    return r.passed() ? 0 : 1;
  } catch (const kcontract::Error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "kcontract: %s (exit %d)\n", e.what(), e.exitCode);
    return 2;
  }
}

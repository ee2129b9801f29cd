// The re-run that explains a crash (probes.h): a kernel that crashes where its rows do not
// start on an aligned address, and runs where they all do.
#include "checker/diagnose/probes.h"

namespace kc::diagnose {

std::optional<std::string> crashesOnUnalignedRows(ProbeContext& ctx, const plan::Case& c, uint64_t seed, uint64_t marks,
                                                  std::vector<std::string>& log) {
  constexpr int64_t kAlign = 64;  // bytes: every vector width a kernel loads at once
  std::string at = "#" + std::to_string(c.number);
  VariantRun again = runVariant(ctx, c, seed, marks);
  if (again.result.verdict != report::Verdict::Crash) {
    log.push_back(at + " run again: " + (again.ran ? "does not crash" : again.why) + " (nothing shown)");
    return std::nullopt;
  }
  // Every tensor in rows padded to a multiple of 64 bytes, with no offset: each row then
  // starts on an aligned address (the buffers themselves are).
  plan::Case aligned = c;
  for (auto& [name, k] : aligned.layouts) {
    plan::TensorPlan* t = ctx.plan.tensor(name);
    const run::ArgSpec* arg = nullptr;
    for (const auto& a : again.setup.args)
      if (a.name == name) arg = &a;
    if (!t || !arg || arg->shape.empty()) continue;
    int64_t w = static_cast<int64_t>(arg->elementBytes());
    int64_t per = w > 0 && kAlign % w == 0 ? kAlign / w : 1;
    int64_t pad = (per - arg->shape.back() % per) % per;
    plan::Layout l = pad == 0 || arg->shape.size() < 2 ? plan::Layout{"contiguous", "contiguous", 0, {}}
                                                       : plan::Layout{"padded(" + std::to_string(pad) + ")", "padded", pad, {}};
    k = layoutIndex(*t, l);
  }
  VariantRun fixed = runVariant(ctx, aligned, seed, marks);
  std::string shown = at + " crashes again; the same case with every row starting on a 64-byte boundary (rows padded, no offset) ";
  if (fixed.result.verdict == report::Verdict::Crash || !fixed.ran) {
    log.push_back(shown + (fixed.ran ? "crashes too" : "does not run either (" + fixed.why + ")"));
    return std::nullopt;
  }
  log.push_back(shown + "runs (" + std::string(report::verdictName(fixed.result.verdict)) + ")");
  return "crashes where a row does not start on an aligned address and runs where every row does (shown on " + at +
         "): an aligned vector load or store on a view that is not aligned";
}

}  // namespace kc::diagnose

#include "checker/growth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace kc::check {

std::vector<GrowthFinding> judgeGrowth(const sema::ContractInfo& ct, const std::vector<report::CaseResult>& results) {
  std::vector<GrowthFinding> out;
  for (const sema::SignatureInfo& sig : ct.signatures) {
    for (const sema::SignatureClause& cl : sig.clauses) {
      if (cl.kind != ast::SignatureClauseKind::ErrorGrows) continue;
      bool listed = false;
      for (const auto& r : results)
        if (r.verdict == report::Verdict::Fail &&
            std::find(r.signatures.begin(), r.signatures.end(), sig.name) != r.signatures.end())
          listed = true;
      if (!listed) continue;
      std::map<int64_t, double> worst;  // D -> largest finite ulp error of any case there
      for (const auto& r : results) {
        if (r.verdict != report::Verdict::Pass && r.verdict != report::Verdict::Fail) continue;
        if (!std::isfinite(r.maxUlps)) continue;
        for (const auto& [name, v] : r.dims)
          if (name == cl.dim) worst[v] = std::max(worst[v], r.maxUlps);
      }
      GrowthFinding f{sig.name, cl.dim, false, ""};
      bool rising = worst.size() >= 3;
      double prev = -1, first = -1, last = 0;
      for (const auto& [d, e] : worst) {
        if (first < 0) first = e;
        if (prev >= 0 && e * 2 < prev) rising = false;
        prev = e;
        last = e;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s%.3g at %s=%lld", f.evidence.empty() ? "max ulps " : ", ", e, cl.dim.c_str(),
                      static_cast<long long>(d));
        f.evidence += buf;
      }
      f.confirmed = rising && last >= 4 * std::max(first, 1.0);
      if (f.evidence.empty()) f.evidence = "no case with a finite error";
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace kc::check

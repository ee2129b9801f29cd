#include "mutate/kill_matrix.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <mutex>

#include "checker/run/judge.h"
#include "compiler/plan/planner.h"
#include "stdlib/numerics/float_bits.h"
#include "mutate/families.h"

namespace kc::mutate {

namespace {

using report::Verdict;

constexpr size_t kMaxUnnamedKills = 4;

// FNV-1a over the output images of one run, every float NaN hashed as one pattern: no
// contract tells NaNs apart by sign or payload, so a mutant that only leaves another NaN (a
// later NaN of the row kept in place of the first) computes what the original computes.
uint64_t outputsDigest(const run::CaseSetup& setup, const run::LaunchRecord& rec) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](uint8_t b) { h = (h ^ b) * 1099511628211ull; };
  for (size_t a = 0; a < setup.args.size() && a < rec.images.size(); ++a) {
    const auto& arg = setup.args[a];
    if (!arg.output) continue;
    const size_t eb = arg.elementBytes();
    const bool isFloat = numerics::isFloat(arg.dtype) && eb > 0 && eb <= 8;
    for (const auto& image : rec.images[a]) {
      for (size_t i = 0; i < image.size(); i += isFloat ? eb : 1) {
        if (isFloat && i + eb <= image.size()) {
          uint64_t bits = 0;
          std::memcpy(&bits, image.data() + i, eb);
          if (std::isnan(numerics::decode(arg.dtype == numerics::DType::TF32 ? numerics::DType::F32 : arg.dtype, bits))) {
            mix(0x7f);
            continue;
          }
          for (size_t k = 0; k < eb; ++k) mix(image[i + k]);
        } else {
          mix(image[i]);
        }
      }
    }
    mix(0xff);  // between arguments
  }
  return h;
}

void note(KernelRun& out, const report::CaseResult& r, const std::string& family, bool byDiagnosis) {
  ++out.cases;
  if (r.verdict != Verdict::Pass && out.firstFailure.empty())
    out.firstFailure = r.caseId + " " + std::string(report::verdictName(r.verdict)) + ": " + r.reason;
  if (!report::isViolation(r.verdict)) return;
  std::string sigs;
  for (const auto& s : r.signatures) sigs += (sigs.empty() ? "" : ", ") + s;
  if (!out.killed) out.killedBy = r.caseId + " " + std::string(report::verdictName(r.verdict)) + (sigs.empty() ? "" : " (" + sigs + ")");
  out.killed = true;
  for (const auto& s : r.signatures)
    if (std::find(out.signatures.begin(), out.signatures.end(), s) == out.signatures.end()) out.signatures.push_back(s);
  if (!family.empty() && !byDiagnosis && namedBy(family, r.signatures)) {
    out.named = true;
    out.killedBy = r.caseId + " " + std::string(report::verdictName(r.verdict)) + " (" + sigs + ")";
  }
}

KernelRun runJobs(const std::vector<check::Job>& jobs, const std::string& kernelPath, check::RunOptions run,
                  const std::string& family, bool stopEarly, Naming naming) {
  KernelRun out;
  // A mutant is named as a user's check names a failure: by the diagnosis's primary cause
  // (checker/diagnose/: evidence across the failing cases and diagnostic re-runs), not by
  // whichever signature some case matched. The original and the baseline need none.
  run.diagnose = !family.empty() && naming == Naming::Diagnosis;
  for (size_t j = 0; j < jobs.size() && !(stopEarly && out.named); ++j) {
    check::Job job = jobs[j];
    job.kernel.path = kernelPath;
    run.onLaunch = [&, j](const plan::Case& c, size_t seedIndex, const run::CaseSetup& setup, const run::LaunchRecord& rec) {
      out.digests[{j, c.number, seedIndex}] = outputsDigest(setup, rec);
    };
    // A mutant stops at its first named kill. A FAIL not named runs on, looking for a case
    // that names it, for at most kMaxUnnamedKills kills; a CRASH, TIMEOUT or ERROR (which
    // carry no signature) stops it at once.
    // Named by the diagnosis: it weighs every failing case together (a growth seen on the
    // first few cases can be refuted by the rest), so the job runs whole, as a user's check
    // does, and is then diagnosed. By signatures: a mutant stops at its first named kill.
    size_t kills = 0;
    if (stopEarly && !run.diagnose)
      run.stopAfter = [&](const report::CaseResult& r) {
        if (!report::isViolation(r.verdict)) return out.named;
        ++kills;
        return out.named || r.verdict != Verdict::Fail || kills >= kMaxUnnamedKills;
      };
    check::JobStats st = check::runJob(job, run, [&](const report::CaseResult& r) { note(out, r, family, run.diagnose); });
    if (!st.kernelError.empty()) {
      out.built = false;
      out.buildError = st.kernelError.substr(0, st.kernelError.find('\n'));
      return out;
    }
    if (run.diagnose && !st.diagnosis.empty()) {
      std::vector<std::string> names = st.diagnosis.names();
      out.named = !names.empty() && namedBy(family, {names.front()});
      out.cause = names.front();
    }
  }
  return out;
}

}  // namespace

KernelRun runKernel(const std::vector<check::Job>& jobs, const std::string& kernelPath, const check::RunOptions& run,
                    const std::string& family, Naming naming) {
  return runJobs(jobs, kernelPath, run, family, !family.empty(), naming);
}

KernelRun runAllclose(const std::vector<check::Job>& jobs, const std::string& kernelPath, const check::RunOptions& run) {
  check::RunOptions plain = run;
  run::Allclose ac;
  plain.allclose = &ac;
  plain.dtype.clear();
  plain.narrow = {};
  KernelRun out;
  // One job is the baseline: the first contract's friendly case (a plain allclose has no
  // classes, so every job of the kernel would be the same test).
  if (jobs.empty()) return out;
  const sema::ContractInfo* ct = jobs.front().contract;
  plain.rewritePlan = [&](plan::Plan& p) {
    plan::Options po;
    po.seed = run.seed;
    p = plan::friendlyPlan(*ct, po, 5);
  };
  std::vector<check::Job> first = {jobs.front()};
  return runJobs(first, kernelPath, plain, "", false, Naming::Signatures);
}

}  // namespace kc::mutate

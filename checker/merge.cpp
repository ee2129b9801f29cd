#include "checker/merge.h"

#include <algorithm>
#include <map>

#include "checker/report/chain.h"
#include "checker/report/jsonl.h"

namespace kc::check {

namespace {

using report::CaseResult;

struct Seen {
  CaseResult result;
  std::string where;  // FILE:LINE
};

// The contract's name without its version: acme.softmax.rows@1 -> acme.softmax.rows.
std::string contractName(const std::string& id) { return id.substr(0, id.rfind('@')); }

// The job a result belongs to, as the summary groups them.
std::string jobKey(const CaseResult& r) {
  return (r.name.empty() ? r.kernel : r.name) + '\t' + contractName(r.contract) + '\t' + r.backend;
}

// A result as it compares with another run of the same case: everything but its timings.
std::string outcome(CaseResult r) {
  r.seconds = 0;
  return report::caseJson(r);
}

}  // namespace

Merged mergeResults(const std::vector<ResultsFile>& files) {
  Merged m;
  std::map<std::string, Seen> byCase;           // resumeKey -> first result
  std::map<std::string, Seen> byJob;            // jobKey -> first result (its plan and contract version)
  std::vector<std::string> jobOrder;
  std::map<std::string, std::vector<std::string>> casesOfJob;  // jobKey -> resume keys
  for (const ResultsFile& f : files) {
    report::VerifiedResults v = report::verifyResults(f.text);
    if (!v.tampered.empty()) {
      m.error = f.path + ":" + v.tampered + "; the file was changed after kcontract wrote it: not merging";
      return m;
    }
    if (!v.cut.empty())
      m.notes.push_back(f.path + ":" + v.cut + "; dropped (its case is missing unless another file holds it)");
    for (size_t i = 0; i < v.records.size(); ++i) {
      const std::string where = f.path + ":" + std::to_string(v.lines[i]);
      std::string why;
      auto r = report::parseCaseJson(v.records[i], why);
      if (!r) {
        m.error = where + ": a sealed record that is not a result (" + why + "): written by another version of kcontract?";
        return m;
      }
      ++m.records;
      const std::string job = jobKey(*r);
      auto [first, newJob] = byJob.try_emplace(job, Seen{*r, where});
      if (newJob) {
        jobOrder.push_back(job);
      } else if (first->second.result.contract != r->contract) {
        m.error = where + ": " + r->contract + ", but " + first->second.where + " holds " + first->second.result.contract +
                  " for the same kernel and backend: results of different contract versions; not merging";
        return m;
      } else if (first->second.result.plan != r->plan || first->second.result.baseSeed != r->baseSeed) {
        m.error = where + ": case " + r->caseId + " ran from plan " + (r->plan.empty() ? "(none recorded)" : r->plan) +
                  " with --seed " + std::to_string(r->baseSeed) + ", but " + first->second.where + " from plan " +
                  (first->second.result.plan.empty() ? "(none recorded)" : first->second.result.plan) + " with --seed " +
                  std::to_string(first->second.result.baseSeed) +
                  ": results of different plans (the contract, --seed or --problem-shape changed); not merging";
        return m;
      }
      const std::string key = report::resumeKey(*r);
      auto [seen, newCase] = byCase.try_emplace(key, Seen{*r, where});
      if (newCase) {
        casesOfJob[job].push_back(key);
      } else if (outcome(seen->second.result) == outcome(*r)) {
        ++m.duplicates;
      } else {
        m.error = where + ": " + std::string(report::verdictName(r->verdict)) + " for " + r->caseId + " (" + r->kernel +
                  ", " + r->backend + "), but " + seen->second.where + " has " +
                  std::string(report::verdictName(seen->second.result.verdict)) +
                  (r->verdict == seen->second.result.verdict ? " with other findings" : "") +
                  ": two runs of one case disagree; not merging";
        return m;
      }
    }
  }
  for (const std::string& job : jobOrder) {
    std::vector<const CaseResult*> mine;
    for (const std::string& key : casesOfJob[job]) mine.push_back(&byCase.at(key).result);
    std::stable_sort(mine.begin(), mine.end(), [](const CaseResult* a, const CaseResult* b) {
      return a->number != b->number ? a->number < b->number : a->seedIndex < b->seedIndex;
    });
    for (const CaseResult* r : mine) m.results.push_back(*r);
  }
  return m;
}

}  // namespace kc::check

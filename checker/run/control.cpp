#include "checker/run/control.h"

#include <algorithm>

#include "checker/report/builtin_signatures.h"
#include "checker/run/case_setup.h"
#include "checker/run/judge.h"

namespace kc::run {

namespace {

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

std::optional<plan::Case> controlCase(const plan::Plan& plan, const plan::Case& c, std::vector<std::string>* classes) {
  plan::Case out = c;
  bool changed = false;
  auto took = [&](const std::vector<std::string>& owners) {
    changed = true;
    if (classes)
      for (const auto& o : owners)
        if (!contains(*classes, o)) classes->push_back(o);
  };
  for (auto& [name, a] : out.values) {
    const auto& vs = plan.tensor(name)->values;
    std::vector<std::string> owners = plan::alternativeOwners(plan, vs[a].origins, false);
    if (!vs[a].special || owners.empty()) continue;
    // A special replaces cells of its base, the input's first distribution: the control
    // keeps the base.
    for (size_t i = 0; i < vs.size(); ++i)
      if (vs[i].text == vs[a].baseText) {
        a = i;
        took(owners);
        break;
      }
  }
  for (auto& [name, a] : out.layouts) {
    const auto& ls = plan.tensor(name)->layouts;
    std::vector<std::string> owners = plan::alternativeOwners(plan, ls[a].origins, ls[a].kind == "contiguous");
    if (owners.empty()) continue;
    for (size_t i = 0; i < ls.size(); ++i)
      if (ls[i].kind == "contiguous") {
        a = i;
        took(owners);
        break;
      }
  }
  for (const auto& p : plan.perturb) {
    std::vector<std::string> owners = plan::alternativeOwners(plan, p.origins, p.text == backend::perturb::kNone);
    if (p.text == out.perturb && !owners.empty()) {
      out.perturb = backend::perturb::kNone;
      took(owners);
    }
  }
  if (!changed) return std::nullopt;
  out.origins = {plan.contract};
  // The postconditions as the planner picks them: with special values left (the contract's
  // own), those of whoever asked for the specials; else every one.
  std::vector<std::string> specialOrigins;
  for (const auto& [name, a] : out.values) {
    const plan::Distribution& d = plan.tensor(name)->values[a];
    if (d.special) specialOrigins.push_back(d.origin);
  }
  out.post.clear();
  for (size_t i = 0; i < plan.post.size(); ++i)
    if (specialOrigins.empty() || contains(specialOrigins, plan.post[i].origin)) out.post.push_back(i);
  return out;
}

namespace {

bool isGeneric(const sema::SignatureInfo& sig) {
  return std::all_of(sig.clauses.begin(), sig.clauses.end(), [](const sema::SignatureClause& cl) {
    return cl.kind == ast::SignatureClauseKind::WrongCells || cl.kind == ast::SignatureClauseKind::ErrorGrows;
  });
}

// The generic signatures of `names` that do not come from a class in `classes` (the
// contract's own, or another class's).
std::vector<std::string> genericSignaturesNotOf(const sema::ContractInfo& ct, const std::vector<std::string>& names,
                                                const std::vector<std::string>& classes) {
  std::vector<std::string> out;
  for (const auto& sig : ct.signatures) {
    bool owned = sig.origin.fromClass && contains(classes, sig.origin.id);
    if (owned || !contains(names, sig.name) || !isGeneric(sig)) continue;
    if (!contains(out, sig.name)) out.push_back(sig.name);
  }
  return out;
}

}  // namespace

std::vector<std::string> genericSignaturesOf(const sema::ContractInfo& ct, const std::vector<std::string>& names,
                                             const std::vector<std::string>& classes) {
  std::vector<std::string> out;
  for (const auto& sig : ct.signatures) {
    if (!sig.origin.fromClass || !contains(classes, sig.origin.id) || !contains(names, sig.name)) continue;
    if (isGeneric(sig) && !contains(out, sig.name)) out.push_back(sig.name);
  }
  return out;
}

void attributeByControl(const ControlRun& in, report::CaseResult& result) {
  if (result.verdict != report::Verdict::Fail) return;
  std::vector<std::string> owners;
  std::optional<plan::Case> control = controlCase(*in.plan, *in.kase, &owners);
  if (!control) return;
  std::vector<std::string> suspect = genericSignaturesOf(*in.contract, result.signatures, owners);
  if (suspect.empty()) return;
  report::CaseResult verdict;
  try {
    CaseSetup setup = setupCase(*in.contract, *in.plan, *control);
    setMarks(setup, in.worker.setup->marks);  // the marks of the run it controls
    std::vector<std::vector<uint8_t>> storage;
    for (size_t a = 0; a < setup.args.size(); ++a) storage.push_back(makeStorage(setup, *in.plan, *control, a, in.seed, in.threads));
    WorkerRequest wr = in.worker;
    wr.setup = &setup;
    wr.storage = storage;
    wr.repeats = 1;
    LaunchRecord rec = runInWorker(wr);
    JudgeInput j{in.contract, in.plan, &*control, &setup, &storage, &rec, in.threads, nullptr};
    judge(j, verdict);
  } catch (const std::exception&) {
    return;  // no control: the names stand
  }
  if (verdict.verdict == report::Verdict::Pass) {
    // The class's inputs are needed: its names stand, and the generic names of others (an
    // "error grows with H" of the contract's own, which any wrong cell satisfies) go.
    std::vector<std::string> others = genericSignaturesNotOf(*in.contract, result.signatures, owners);
    std::vector<std::string> kept;
    for (const auto& s : result.signatures)
      if (!contains(others, s)) kept.push_back(s);
    if (!kept.empty()) result.signatures = kept;
    for (const auto& s : suspect)
      if (contains(result.signatures, s) && !contains(result.confirmed, s)) result.confirmed.push_back(s);
    return;
  }
  if (verdict.verdict != report::Verdict::Fail) return;  // no verdict from the control: the names stand
  std::vector<std::string> kept;
  for (const auto& s : result.signatures)
    if (!contains(suspect, s)) kept.push_back(s);
  for (const auto& s : verdict.signatures)
    if (!contains(kept, s)) kept.push_back(s);
  result.signatures = kept;
  result.violated.push_back("control: the same case on " + std::string("neutral inputs and contiguous views fails too (") +
                            (verdict.signatures.empty() ? std::string(report::signature::kUnclassified) : verdict.signatures.front()) +
                            "), so it is not named after " + owners.front());
}

}  // namespace kc::run

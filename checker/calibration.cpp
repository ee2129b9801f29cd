#include "checker/calibration.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>

#include "checker/report/builtin_signatures.h"
#include "checker/yaml_reader.h"
#include "stdlib/numerics/dtype.h"
#include "compiler/targets.h"

namespace kc::check {

using report::CaseResult;
using report::Verdict;

CalibrationManifest loadCalibration(const std::string& path) {
  YamlReader rd(path);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw SuiteError(path + ": cannot read the calibration manifest");
  } catch (const YAML::ParserException& e) {
    throw SuiteError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) rd.fail(root, "a calibration manifest is a map with 'kcontract-calibration: 1', 'classes' and 'ops'");
  rd.onlyKeys(root, {"kcontract-calibration", "include", "classes", "ops"}, "the manifest");
  if (!root["kcontract-calibration"] || rd.scalar(root["kcontract-calibration"], "'kcontract-calibration'") != "1")
    rd.fail(root, "a calibration manifest starts with 'kcontract-calibration: 1'");
  CalibrationManifest m;
  m.path = path;
  if (root["include"])
    for (const auto& d : rd.list(root["include"], "'include'")) m.includeDirs.push_back(rd.relative(d));
  const YAML::Node& cs = root["classes"];
  const YAML::Node& os = root["ops"];
  for (const auto& [list, name] : {std::pair{cs, "'classes'"}, std::pair{os, "'ops'"}})
    if (list && !list.IsSequence()) rd.fail(list, std::string(name) + " must be a list");
  if ((!cs || cs.size() == 0) && (!os || os.size() == 0))
    rd.fail(cs ? cs : os ? os : root, "'classes' and 'ops' cannot both be empty: a manifest lists at least one pair");
  // The keys of both kinds of entry, after the first that names what the pair calibrates.
  auto readPair = [&](const YAML::Node& c, CalibrationEntry& e) {
    e.line = c.Mark().line + 1;
    for (const char* key : {"conforming", "violating", "signature"})
      if (!c[key]) rd.fail(c, std::string("an entry needs '") + key + "'");
    e.conforming = rd.relative(rd.scalar(c["conforming"], "'conforming'"));
    e.violating = rd.relative(rd.scalar(c["violating"], "'violating'"));
    e.signature = rd.scalar(c["signature"], "'signature'");
    if (c["backend"]) e.backend = rd.scalar(c["backend"], "'backend'");
    if (c["rationale"]) e.rationale = rd.scalar(c["rationale"], "'rationale'");
    if (c["dtype"]) {
      e.dtype = rd.scalar(c["dtype"], "'dtype'");
      if (!numerics::parseDType(e.dtype)) rd.fail(c["dtype"], "'dtype' is a dtype (f32, bf16, f16, ...); got '" + e.dtype + "'");
    }
    if (c["allclose-prefill"]) {
      std::string v = rd.scalar(c["allclose-prefill"], "'allclose-prefill'");
      if (v != "reference" && v != "poison") rd.fail(c["allclose-prefill"], "'allclose-prefill' is reference or poison; got '" + v + "'");
      e.prefillReference = v == "reference";
    }
    if (c["allclose-dims"]) {
      const YAML::Node& d = c["allclose-dims"];
      if (!d.IsMap() || d.size() == 0) rd.fail(d, "'allclose-dims' is a map of dims to sizes, as in {H: 32}");
      for (const auto& kv : d) {
        std::string dim = rd.key(kv.first, "'allclose-dims'"), v = rd.scalar(kv.second, "the size of " + dim);
        char* end = nullptr;
        long long n = std::strtoll(v.c_str(), &end, 10);
        if (v.empty() || *end || n < 0) rd.fail(kv.second, "the size of " + dim + " in 'allclose-dims' is a whole number (0 or more: the dim's range decides); got '" + v + "'");
        e.allcloseDims.emplace_back(dim, n);
      }
    }
  };
  if (cs)
    for (const auto& c : cs) {
      if (!c.IsMap()) rd.fail(c, "each entry is a map: class, contract, conforming, violating, signature");
      rd.onlyKeys(c, {"class", "contract", "conforming", "violating", "signature", "backend", "rationale", "allclose-prefill", "allclose-dims", "dtype"}, "an entry");
      for (const char* key : {"class", "contract"})
        if (!c[key]) rd.fail(c, std::string("an entry needs '") + key + "'");
      CalibrationEntry e;
      e.classId = rd.scalar(c["class"], "'class'");
      std::string contract = rd.scalar(c["contract"], "'contract'");
      e.contract = contract.ends_with(".kcontract") ? rd.relative(contract) : contract;
      readPair(c, e);
      m.entries.push_back(std::move(e));
    }
  if (os)
    for (const auto& c : os) {
      if (!c.IsMap()) rd.fail(c, "each op entry is a map: op, conforming, violating, signature");
      rd.onlyKeys(c, {"op", "conforming", "violating", "signature", "backend", "rationale", "allclose-prefill", "allclose-dims", "dtype"}, "an op entry");
      if (!c["op"]) rd.fail(c, "an op entry needs 'op' (the standard op's name, as in 'op: relu')");
      CalibrationEntry e;
      e.op = rd.scalar(c["op"], "'op'");
      if (e.op.starts_with("std.ops.")) e.op = e.op.substr(8);
      e.contract = opContractId(e.op);
      readPair(c, e);
      m.entries.push_back(std::move(e));
    }
  return m;
}

const char* stateOutcomeName(StateOutcome s) {
  switch (s) {
    case StateOutcome::Shown: return "yes";
    case StateOutcome::NotShown: return "NO";
    case StateOutcome::Skipped: return "skipped";
  }
  return "?";
}

namespace {

size_t count(const std::vector<CaseResult>& rs, Verdict v) {
  return static_cast<size_t>(std::count_if(rs.begin(), rs.end(), [&](const CaseResult& r) { return r.verdict == v; }));
}

std::string describe(const CaseResult& r) {
  std::string s = r.caseId + " " + std::string(report::verdictName(r.verdict));
  if (!r.signatures.empty()) {
    s += " (";
    for (size_t i = 0; i < r.signatures.size(); ++i) s += (i ? ", " : "") + r.signatures[i];
    s += ")";
  }
  if (!r.reason.empty()) s += ": " + r.reason;
  if (!r.violated.empty()) s += "; " + r.violated.front();
  if (!r.repro.empty()) s += "\n      " + r.repro;
  return s;
}

std::string plural(size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string shapeText(const CaseResult& r) {
  std::string s;
  for (const auto& [d, v] : r.dims) s += (s.empty() ? "" : ", ") + d + "=" + std::to_string(v);
  return s;
}

}  // namespace

StateResult conformingState(const std::vector<CaseResult>& results) {
  StateResult s;
  for (const CaseResult& r : results)
    if (report::isViolation(r.verdict)) {
      s.outcome = StateOutcome::NotShown;
      s.summary = "a correct kernel is flagged";
      s.detail = describe(r);
      return s;
    }
  size_t pass = count(results, Verdict::Pass), mistrusted = count(results, Verdict::Mistrusted);
  if (pass == 0) {
    bool skipped = !results.empty() && count(results, Verdict::Skipped) == results.size();
    s.outcome = skipped ? StateOutcome::Skipped : StateOutcome::NotShown;
    s.summary = skipped ? "every case SKIPPED" : "no case passed";
    if (!results.empty()) s.detail = describe(results.front());
    return s;
  }
  s.outcome = StateOutcome::Shown;
  s.summary = plural(pass, "case") + " pass" + (pass == 1 ? "es" : "");
  if (mistrusted) s.summary += ", " + std::to_string(mistrusted) + " mistrusted";
  if (size_t skipped = count(results, Verdict::Skipped)) s.summary += ", " + std::to_string(skipped) + " SKIPPED";
  return s;
}

StateResult allcloseState(const std::vector<CaseResult>& results) {
  StateResult s;
  if (results.empty()) {
    s.summary = "no friendly case";
    return s;
  }
  const CaseResult& r = results.front();
  if (r.verdict == Verdict::Skipped) {
    s.outcome = StateOutcome::Skipped;
    s.summary = "SKIPPED";
    s.detail = describe(r);
  } else if (r.verdict == Verdict::Pass) {
    s.outcome = StateOutcome::Shown;
    s.summary = "accepted at " + shapeText(r);
  } else {
    s.summary = "rejected by allclose";
    s.detail = describe(r);
  }
  return s;
}

StateResult caughtState(const std::vector<CaseResult>& results, const std::string& signature, bool memoryCapped) {
  StateResult s;
  const CaseResult* otherFailure = nullptr;
  // Every other name the contract gave the violating kernel, so that the expectation pins
  // them: a class named beside the right one is a misattribution.
  std::vector<std::string> also;
  for (const CaseResult& r : results)
    if (r.verdict == Verdict::Fail)
      for (const auto& name : r.signatures.empty() ? std::vector<std::string>{report::signature::kUnclassified} : r.signatures)
        if (name != signature && std::find(also.begin(), also.end(), name) == also.end()) also.push_back(name);
  for (const CaseResult& r : results) {
    if (r.verdict == Verdict::Fail &&
        std::find(r.signatures.begin(), r.signatures.end(), signature) != r.signatures.end()) {
      s.outcome = StateOutcome::Shown;
      s.summary = signature + " (" + r.caseId.substr(r.caseId.find('#')) + ")";
      if (!also.empty()) {
        s.summary += "; also ";
        for (size_t i = 0; i < also.size(); ++i) s.summary += (i ? ", " : "") + also[i];
      }
      return s;
    }
    if (!otherFailure && r.verdict != Verdict::Pass && r.verdict != Verdict::Skipped) otherFailure = &r;
  }
  bool skipped = !results.empty() && count(results, Verdict::Skipped) == results.size();
  s.outcome = skipped ? StateOutcome::Skipped : StateOutcome::NotShown;
  s.summary = skipped ? "every case SKIPPED" : otherFailure ? "caught, but not as " + signature : "not caught";
  if (otherFailure) s.detail = describe(*otherFailure);
  size_t pastLimit = static_cast<size_t>(std::count_if(results.begin(), results.end(), [](const CaseResult& r) {
    return r.verdict == Verdict::Skipped && r.reason.find("(--max-memory)") != std::string::npos;
  }));
  if (memoryCapped && !skipped && pastLimit) {
    s.outcome = StateOutcome::Skipped;
    s.summary += " on the " + plural(results.size() - count(results, Verdict::Skipped), "case") + " that ran; " +
                 std::to_string(pastLimit) + " SKIPPED past --max-memory may catch it";
  }
  return s;
}

}  // namespace kc::check

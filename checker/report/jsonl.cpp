#include "checker/report/jsonl.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <utility>

#include "checker/report/format.h"

namespace kc::report {

namespace {

using Json = nlohmann::ordered_json;

Json number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

template <class T>
Json object(const std::vector<std::pair<std::string, T>>& entries) {
  Json o = Json::object();
  for (const auto& [key, value] : entries) o[key] = value;
  return o;
}

// --- reading: a mistake anywhere throws Bad, caught once in parseCaseJson -------------

struct Bad {
  std::string message;
};

const Json& field(const Json& obj, const std::string& key, const std::string& where) {
  auto it = obj.find(key);
  if (it == obj.end()) throw Bad{"missing '" + where + key + "'"};
  return *it;
}

std::string asString(const Json& j, const std::string& what) {
  if (!j.is_string()) throw Bad{"'" + what + "' is not a string"};
  return j.get<std::string>();
}

template <class Int>
Int asInt(const Json& j, const std::string& what) {
  if (j.is_number_unsigned()) {
    const auto u = j.get<uint64_t>();
    if (std::in_range<Int>(u)) return static_cast<Int>(u);
  } else if (j.is_number_integer()) {
    const auto i = j.get<int64_t>();
    if (std::in_range<Int>(i)) return static_cast<Int>(i);
  } else {
    throw Bad{"'" + what + "' is not an integer"};
  }
  throw Bad{"'" + what + "' is out of range"};
}

double asDouble(const Json& j, const std::string& what) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  throw Bad{"'" + what + "' is not a number"};
}

bool asBool(const Json& j, const std::string& what) {
  if (!j.is_boolean()) throw Bad{"'" + what + "' is not a boolean"};
  return j.get<bool>();
}

const Json& asArray(const Json& j, const std::string& what) {
  if (!j.is_array()) throw Bad{"'" + what + "' is not an array"};
  return j;
}

std::vector<std::string> strings(const Json& j, const std::string& what) {
  std::vector<std::string> out;
  for (const Json& e : asArray(j, what)) out.push_back(asString(e, what + "[]"));
  return out;
}

template <class T, class Get>
std::vector<std::pair<std::string, T>> entries(const Json& j, const std::string& what, Get get) {
  if (!j.is_object()) throw Bad{"'" + what + "' is not an object"};
  std::vector<std::pair<std::string, T>> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.emplace_back(it.key(), get(it.value(), what + "." + it.key()));
  return out;
}

WorstCell readCell(const Json& j, const std::string& where) {
  if (!j.is_object()) throw Bad{"'" + where + "' is not an object"};
  auto get = [&](const char* key) -> const Json& { return field(j, key, where + "."); };
  auto name = [&](const char* key) { return where + "." + key; };
  WorstCell c;
  c.tensor = asString(get("tensor"), name("tensor"));
  for (const Json& i : asArray(get("index"), name("index"))) c.index.push_back(asInt<int64_t>(i, name("index")));
  c.got = asDouble(get("got"), name("got"));
  c.expected = asDouble(get("expected"), name("expected"));
  c.absError = asDouble(get("abs_error"), name("abs_error"));
  c.ulps = asDouble(get("ulps"), name("ulps"));
  c.tolerance = asDouble(get("tolerance"), name("tolerance"));
  c.unwritten = asBool(get("unwritten"), name("unwritten"));
  return c;
}

CaseResult readCase(const Json& j) {
  if (!j.is_object()) throw Bad{"not a JSON object"};
  auto get = [&](const char* key) -> const Json& { return field(j, key, ""); };
  auto str = [&](const char* key) { return asString(get(key), key); };
  auto dbl = [&](const char* key) { return asDouble(get(key), key); };
  CaseResult r;
  r.caseId = str("case");
  r.number = asInt<size_t>(get("number"), "number");
  r.contract = str("contract");
  r.contractFile = str("file");
  r.contractLine = asInt<int>(get("line"), "line");
  r.kernel = str("kernel");
  if (j.contains("name")) r.name = str("name");
  r.backend = str("backend");
  const std::string verdict = str("verdict");
  const auto v = parseVerdict(verdict);
  if (!v) throw Bad{"unknown verdict '" + verdict + "'"};
  r.verdict = *v;
  r.reason = str("reason");
  r.signatures = strings(get("signatures"), "signatures");
  r.violated = strings(get("violated"), "violated");
  r.why = str("why");
  r.dims = entries<int64_t>(get("dims"), "dims", asInt<int64_t>);
  r.dtypes = entries<std::string>(get("dtypes"), "dtypes", asString);
  r.values = entries<std::string>(get("values"), "values", asString);
  r.layouts = entries<std::string>(get("layouts"), "layouts", asString);
  r.baseSeed = asInt<uint64_t>(get("base_seed"), "base_seed");
  if (j.contains("plan")) r.plan = str("plan");
  r.seed = asInt<uint64_t>(get("seed"), "seed");
  r.seedIndex = asInt<size_t>(get("seed_index"), "seed_index");
  r.repeats = asInt<int>(get("repeats"), "repeats");
  r.compared = asInt<int64_t>(get("compared"), "compared");
  r.mismatched = asInt<int64_t>(get("mismatched"), "mismatched");
  r.maxAbsError = dbl("max_abs_error");
  if (j.contains("tolerance_used")) r.toleranceUsed = dbl("tolerance_used");
  r.maxUlps = dbl("max_ulps");
  const Json& worst = asArray(get("worst"), "worst");
  for (size_t i = 0; i < worst.size(); ++i) r.worst.push_back(readCell(worst[i], "worst[" + std::to_string(i) + "]"));
  r.seconds = dbl("seconds");
  if (j.contains("kernel_output")) r.kernelOutput = str("kernel_output");
  if (j.contains("repro")) r.repro = str("repro");
  if (j.contains("perturbation")) r.perturbation = str("perturbation");
  if (j.contains("oracle")) r.oracle = str("oracle");
  if (j.contains("sanitizer")) {
    const Json& s = get("sanitizer");
    if (!s.is_object()) throw Bad{"'sanitizer' is not an object"};
    auto sf = [&](const char* key) -> const Json& { return field(s, key, "sanitizer."); };
    SanitizerRun run;
    run.tool = asString(sf("tool"), "sanitizer.tool");
    run.ran = asBool(sf("ran"), "sanitizer.ran");
    run.errors = asInt<int64_t>(sf("errors"), "sanitizer.errors");
    run.findings = strings(sf("findings"), "sanitizer.findings");
    run.note = asString(sf("note"), "sanitizer.note");
    r.sanitizer = run;
  }
  return r;
}

}  // namespace

std::string caseJson(const CaseResult& r) {
  Json j;
  j["case"] = r.caseId;
  j["number"] = r.number;
  j["contract"] = r.contract;
  j["file"] = r.contractFile;
  j["line"] = r.contractLine;
  j["kernel"] = r.kernel;
  if (!r.name.empty()) j["name"] = r.name;
  j["backend"] = r.backend;
  j["verdict"] = verdictName(r.verdict);
  j["reason"] = r.reason;
  j["signatures"] = r.signatures;
  j["violated"] = r.violated;
  j["why"] = r.why;
  j["dims"] = object(r.dims);
  j["dtypes"] = object(r.dtypes);
  j["values"] = object(r.values);
  j["layouts"] = object(r.layouts);
  j["base_seed"] = r.baseSeed;
  if (!r.plan.empty()) j["plan"] = r.plan;
  j["seed"] = r.seed;
  j["seed_index"] = r.seedIndex;
  j["repeats"] = r.repeats;
  j["compared"] = r.compared;
  j["mismatched"] = r.mismatched;
  j["max_abs_error"] = number(r.maxAbsError);
  j["max_ulps"] = number(r.maxUlps);
  j["tolerance_used"] = number(r.toleranceUsed);
  Json worst = Json::array();
  for (const WorstCell& c : r.worst) {
    Json cell;
    cell["tensor"] = c.tensor;
    cell["index"] = c.index;
    cell["got"] = number(c.got);
    cell["expected"] = number(c.expected);
    cell["abs_error"] = number(c.absError);
    cell["ulps"] = number(c.ulps);
    cell["tolerance"] = number(c.tolerance);
    cell["unwritten"] = c.unwritten;
    worst.push_back(std::move(cell));
  }
  j["worst"] = std::move(worst);
  j["seconds"] = number(r.seconds);
  if (!r.kernelOutput.empty()) j["kernel_output"] = r.kernelOutput;
  if (!r.repro.empty()) j["repro"] = r.repro;
  if (!r.perturbation.empty()) j["perturbation"] = r.perturbation;
  if (!r.oracle.empty()) j["oracle"] = r.oracle;
  if (r.sanitizer)
    j["sanitizer"] = {{"tool", r.sanitizer->tool},
                      {"ran", r.sanitizer->ran},
                      {"errors", r.sanitizer->errors},
                      {"findings", r.sanitizer->findings},
                      {"note", r.sanitizer->note}};
  // Kernel output can hold any bytes; the default handler would throw on invalid UTF-8.
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::optional<CaseResult> parseCaseJson(const std::string& line, std::string& error) {
  try {
    return readCase(Json::parse(line));
  } catch (const Bad& bad) {
    error = bad.message;
  } catch (const Json::exception& e) {
    error = std::string("not valid JSON: ") + e.what();
  }
  return std::nullopt;
}

std::string resumeKey(const CaseResult& r) { return r.caseId + '\t' + r.kernel + '\t' + r.backend; }

// --format jsonl (formats.def): a line per case as it finishes; --resume reads it back.
ReportFormat jsonlFormat() {
  ReportFormat f;
  f.name = "jsonl";
  f.description = "JSON Lines: one object per case as it finishes; --resume and kcontract replay read it back";
  f.caseRecord = caseJson;
  f.chained = true;
  f.parseRecord = parseCaseJson;
  return f;
}

}  // namespace kc::report

#include "checker/suite.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>

#include "backends/backend_names.h"
#include "checker/yaml_reader.h"
#include "stdlib/numerics/dtype.h"

namespace kc::check {

namespace fs = std::filesystem;

namespace {

// `backend: NAME`, one of the backends (backends/backend_names.h).
std::string backendName(const YamlReader& rd, const YAML::Node& n) {
  std::string name = rd.scalar(n, "'backend'");
  if (!backend::isBackendName(name)) {
    std::string list = backend::backendNamesText();
    rd.fail(n, "'backend' is " + list.replace(list.rfind(" and "), 5, " or ") + "; got '" + name + "'");
  }
  return name;
}

// `dtypes:` entries: dtype names (f32, bf16, ...).
std::vector<std::string> dtypeList(const YamlReader& rd, const YAML::Node& n, const std::string& what) {
  std::vector<std::string> out = rd.list(n, what);
  for (const auto& d : out)
    if (!numerics::parseDType(d)) rd.fail(n, what + " lists dtypes (f32, bf16, f16, ...); got '" + d + "'");
  return out;
}

// A kernel's `supports:` map (suite.h).
Supports readSupports(const YamlReader& rd, const YAML::Node& n) {
  Supports s;
  if (!n.IsMap()) rd.fail(n, "'supports' must be a map of dtypes, dims and layouts");
  rd.onlyKeys(n, {"dtypes", "dims", "layouts"}, "'supports'");
  if (n["dtypes"]) {
    const YAML::Node& d = n["dtypes"];
    if (d.IsMap())
      for (const auto& kv : d) s.dtypes[rd.key(kv.first, "'dtypes'")] = dtypeList(rd, kv.second, "a dtype list");
    else
      s.dtypes["*"] = dtypeList(rd, d, "'dtypes'");  // every dtype variable
  }
  if (n["dims"]) {
    if (!n["dims"].IsMap()) rd.fail(n["dims"], "'dims' must map dimension names to N or LO..HI");
    for (const auto& kv : n["dims"]) {
      std::string dim = rd.key(kv.first, "'dims'");
      s.dims[dim] = rd.range(kv.second, dim);
    }
  }
  if (n["layouts"]) {
    s.layouts = rd.list(n["layouts"], "'layouts'");
    for (const auto& kind : s.layouts)
      if (kind != "contiguous" && kind != "transposed" && kind != "padded" && kind != "offset" && kind != "step")
        rd.fail(n["layouts"], "'layouts' lists layout kinds (contiguous, transposed, padded, offset, step); got '" + kind + "'");
  }
  return s;
}

}  // namespace

bool isSuitePath(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml";
}

namespace {

// `expect: VERDICT` or `expect: {verdict: VERDICT, signature: NAME}` (a signature only with
// fail or crash: the diagnosis's primary cause must be it).
report::ExpectedOutcome readExpect(const YamlReader& rd, const YAML::Node& n) {
  const auto& names = report::outcomeNames();
  std::string list;
  for (size_t i = 0; i < names.size(); ++i) list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  report::ExpectedOutcome e;
  const YAML::Node* verdictNode = &n;
  YAML::Node v;
  if (n.IsMap()) {
    rd.onlyKeys(n, {"verdict", "signature"}, "'expect'");
    if (!n["verdict"]) rd.fail(n, "'expect' needs 'verdict' (" + list + ")");
    v = n["verdict"];
    verdictNode = &v;
    if (n["signature"]) e.signature = rd.scalar(n["signature"], "'signature'");
  }
  e.verdict = rd.scalar(*verdictNode, "'expect'");
  if (std::find(names.begin(), names.end(), e.verdict) == names.end())
    rd.fail(*verdictNode, "'expect' is " + list + "; got '" + e.verdict + "'");
  if (!e.signature.empty() && e.verdict != "fail" && e.verdict != "crash")
    rd.fail(n["signature"], "a signature is expected only of a kernel that is expected to fail or crash");
  return e;
}

}  // namespace

Suite loadSuite(const std::string& path) {
  YamlReader rd(path);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw SuiteError(path + ": cannot read the suite file");
  } catch (const YAML::ParserException& e) {
    throw SuiteError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) rd.fail(root, "a suite is a map with 'kcontract-suite: 1' and 'kernels'");
  rd.onlyKeys(root, {"kcontract-suite", "backend", "include", "kernels"}, "the suite");
  if (!root["kcontract-suite"] || rd.scalar(root["kcontract-suite"], "'kcontract-suite'") != "1")
    rd.fail(root, "a suite starts with 'kcontract-suite: 1'");
  Suite s;
  s.path = path;
  if (root["backend"]) s.backend = backendName(rd, root["backend"]);
  if (root["include"])
    for (const auto& d : rd.list(root["include"], "'include'")) s.includeDirs.push_back(rd.relative(d));
  const YAML::Node& ks = root["kernels"];
  if (!ks || !ks.IsSequence() || ks.size() == 0) rd.fail(ks ? ks : root, "'kernels' must be a non-empty list");
  for (const auto& k : ks) {
    if (!k.IsMap()) rd.fail(k, "each kernel is a map with at least 'impl' and 'contract'");
    rd.onlyKeys(k, {"name", "impl", "entry", "contract", "op", "backend", "expect", "supports", "classes", "bind"}, "a kernel");
    SuiteKernel sk;
    sk.line = k.Mark().line + 1;
    if (!k["impl"]) rd.fail(k, "a kernel needs 'impl' (the source or .so to check)");
    if (!k["contract"] && !k["op"])
      rd.fail(k, "a kernel needs 'contract' (a .kcontract file or a contract ID) or 'op' (a standard op)");
    if (k["contract"] && k["op"]) rd.fail(k["op"], "give 'contract' or 'op', not both");
    sk.impl = rd.relative(rd.scalar(k["impl"], "'impl'"));
    if (k["op"]) {
      sk.op = rd.scalar(k["op"], "'op'");
    } else {
      std::string contract = rd.scalar(k["contract"], "'contract'");
      sk.contract = contract.ends_with(".kcontract") ? rd.relative(contract) : contract;
    }
    if (k["name"]) sk.name = rd.scalar(k["name"], "'name'");
    if (k["entry"]) sk.entry = rd.scalar(k["entry"], "'entry'");
    sk.backend = k["backend"] ? backendName(rd, k["backend"]) : s.backend;
    if (k["expect"]) sk.expect = readExpect(rd, k["expect"]);
    if (k["supports"]) sk.supports = readSupports(rd, k["supports"]);
    if (k["classes"]) {
      sk.classes = rd.list(k["classes"], "'classes'");
      if (!sk.contract.empty() && sk.contract.ends_with(".kcontract"))
        rd.fail(k["classes"], "'classes' adds classes to a contract named by its ID or by 'op'; a file may declare several contracts");
    }
    if (k["bind"]) {
      const YAML::Node& b = k["bind"];
      if (!b.IsMap() || b.size() == 0) rd.fail(b, "'bind' is a map of contract inputs to module attributes ({weight: ln.weight})");
      for (const auto& kv : b) {
        std::string input = rd.key(kv.first, "'bind'");
        std::string attr = rd.scalar(kv.second, "the attribute bound to " + input);
        if (attr.empty()) rd.fail(kv.second, "the attribute bound to " + input + " is empty");
        sk.bind.emplace_back(input, attr);
      }
    }
    if (sk.name.empty()) sk.name = sk.impl;
    s.kernels.push_back(std::move(sk));
  }
  return s;
}

}  // namespace kc::check

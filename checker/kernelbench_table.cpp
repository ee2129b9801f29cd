// Reading stdlib/ops/kernelbench_level1.yaml, and holding it against the op library.
#include "checker/kernelbench_table.h"

#include <algorithm>
#include <set>

#include "checker/yaml_reader.h"

namespace kc::check {

namespace {

// A whole number, decimal digits only, at least `least` (a dim's size may be 0 where its range
// allows it; checkAgainstLibrary holds it to the range).
int64_t size(const YamlReader& rd, const YAML::Node& n, const std::string& what, int64_t least) {
  std::string s = rd.scalar(n, what);
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos || std::stoll(s) < least)
    rd.fail(n, what + " must be a whole number of at least " + std::to_string(least) + "; got '" + s + "'");
  return std::stoll(s);
}

KernelBenchProblem readProblem(const YamlReader& rd, const YAML::Node& e) {
  if (!e.IsMap()) rd.fail(e, "a problem is a map with 'problem', 'file', and 'op' or 'reason'");
  rd.onlyKeys(e, {"problem", "file", "op", "dims", "how", "reason"}, "a problem");
  KernelBenchProblem p;
  p.line = e.Mark().line + 1;
  for (const char* key : {"problem", "file"})
    if (!e[key]) rd.fail(e, std::string("a problem needs '") + key + "'");
  p.number = static_cast<int>(size(rd, e["problem"], "'problem'", 1));
  if (p.number > kKernelBenchLevel1Problems)
    rd.fail(e["problem"], "'problem' is a number from 1 to " + std::to_string(kKernelBenchLevel1Problems) + "; got " +
                              std::to_string(p.number));
  const std::string n = std::to_string(p.number);
  p.file = rd.scalar(e["file"], "'file'");
  if (!p.file.starts_with(n + "_") || !p.file.ends_with(".py"))
    rd.fail(e["file"], "problem " + n + ": 'file' is the problem's file name, " + n + "_NAME.py; got '" + p.file + "'");
  if (e["op"].IsDefined() == e["reason"].IsDefined())
    rd.fail(e, "problem " + n + ": give either 'op' (with 'dims' and 'how') or 'reason', not " +
                   (e["op"] ? "both" : "neither"));
  if (e["reason"]) {
    for (const char* key : {"dims", "how"})
      if (e[key]) rd.fail(e[key], "problem " + n + ": '" + key + "' goes with 'op', not with 'reason'");
    p.reason = rd.scalar(e["reason"], "'reason'");
    if (p.reason.empty()) rd.fail(e["reason"], "problem " + n + ": 'reason' is empty");
    return p;
  }
  p.op = rd.scalar(e["op"], "'op'");
  for (const char* key : {"dims", "how"})
    if (!e[key]) rd.fail(e, "problem " + n + ": an entry with 'op' needs '" + key + "'");
  if (!e["dims"].IsMap()) rd.fail(e["dims"], "problem " + n + ": 'dims' is a map of the op's dims to sizes");
  for (const auto& kv : e["dims"]) {
    std::string dim = rd.key(kv.first, "'dims'");
    if (!p.dims.emplace(dim, size(rd, kv.second, "the size of " + dim, 0)).second)
      rd.fail(kv.first, "problem " + n + ": dim " + dim + " is given twice");
  }
  p.how = rd.scalar(e["how"], "'how'");
  return p;
}

// "1..2^31"-style text of a dim's range.
std::string rangeText(const sema::DimInfo& d) {
  if (!d.allowed.empty()) {
    std::string s;
    for (int64_t v : d.allowed) s += (s.empty() ? "{" : ", ") + std::to_string(v);
    return s + "}";
  }
  return std::to_string(d.lo) + ".." + std::to_string(d.hi);
}

}  // namespace

KernelBenchTable loadKernelBenchTable(const std::string& path) {
  YamlReader rd(path);
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw SuiteError(path + ": cannot read the KernelBench table");
  } catch (const YAML::ParserException& e) {
    throw SuiteError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) rd.fail(root, "the KernelBench table is a map with 'kernelbench-level1: 1' and 'problems'");
  rd.onlyKeys(root, {"kernelbench-level1", "problems"}, "the table");
  if (!root["kernelbench-level1"] || rd.scalar(root["kernelbench-level1"], "'kernelbench-level1'") != "1")
    rd.fail(root, "the KernelBench table starts with 'kernelbench-level1: 1'");
  const YAML::Node& list = root["problems"];
  if (!list || !list.IsSequence()) rd.fail(list ? list : root, "'problems' must be a list");
  KernelBenchTable t;
  t.path = path;
  std::map<int, int> seen;  // number -> line
  for (const auto& e : list) {
    KernelBenchProblem p = readProblem(rd, e);
    auto [it, fresh] = seen.emplace(p.number, p.line);
    if (!fresh)
      rd.fail(e, "problem " + std::to_string(p.number) + " is listed twice (also at line " + std::to_string(it->second) + ")");
    t.problems.push_back(std::move(p));
  }
  std::string missing;
  int count = 0;
  for (int n = 1; n <= kKernelBenchLevel1Problems; ++n)
    if (!seen.count(n)) {
      if (++count <= 10) missing += (missing.empty() ? "" : ", ") + std::to_string(n);
    }
  if (count > 10) missing += ", ...";
  if (count > 0)
    throw SuiteError(path + ": " + std::to_string(count) + " of the " + std::to_string(kKernelBenchLevel1Problems) +
                     " problems " + (count == 1 ? "is" : "are") + " missing: " + missing);
  std::sort(t.problems.begin(), t.problems.end(),
            [](const KernelBenchProblem& a, const KernelBenchProblem& b) { return a.number < b.number; });
  return t;
}

std::vector<std::string> checkAgainstLibrary(const KernelBenchTable& table, const Catalog& cat) {
  std::vector<std::string> out;
  for (const auto& p : table.problems) {
    if (p.op.empty()) continue;
    const std::string at = table.path + ":" + std::to_string(p.line) + ": problem " + std::to_string(p.number) + ": ";
    const Entry* e = p.op.find('.') == std::string::npos && p.op.find('@') == std::string::npos ? findEntry(cat, p.op) : nullptr;
    if (!e || !e->info->kernel) {
      out.push_back(at + "no standard op '" + p.op + "' (kcontract ops lists them)");
      continue;
    }
    const sema::ContractInfo& ct = *e->info;
    std::string dimsText;
    for (const auto& d : ct.kernel->dims) dimsText += (dimsText.empty() ? "" : ", ") + d.name;
    for (const auto& [name, v] : p.dims) {
      const sema::DimInfo* d = ct.kernel->dim(name);
      for (const auto& narrowed : ct.scope.dims)
        if (narrowed.name == name) d = &narrowed;
      if (!d) {
        out.push_back(at + p.op + " has no dim " + name + " (its dims: " + dimsText + ")");
        continue;
      }
      if (!d->admits(v))
        out.push_back(at + name + " = " + std::to_string(v) + " is outside " + ct.id + "'s range " + rangeText(*d));
    }
    for (const auto& d : ct.kernel->dims)
      if (!p.dims.count(d.name)) out.push_back(at + "'dims' gives no size for " + p.op + "'s dim " + d.name);
  }
  return out;
}

}  // namespace kc::check

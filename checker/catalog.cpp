#include "checker/catalog.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/ast/ast.h"
#include "compiler/targets.h"
#include "stdlib/data_root.h"

namespace kc::check {

namespace fs = std::filesystem;

namespace {

std::string root() { return stdlib::dataDir(); }

std::string relativeToRoot(const std::string& p) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::weakly_canonical(p, ec), fs::weakly_canonical(root(), ec), ec);
  return ec || rel.empty() || rel.string().starts_with("..") ? p : rel.string();
}

}  // namespace

std::string trimRight(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

namespace {

// The `//` lines directly above line `line` (1-based), joined into a paragraph; a leading
// "Rationale:" is dropped.
std::string commentAbove(const SourceFile& f, uint32_t line) {
  std::vector<std::string> lines;
  for (uint32_t l = line; l-- > 1;) {
    std::string_view text = f.line(l);
    size_t start = text.find_first_not_of(" \t");
    if (start == std::string_view::npos || text.substr(start, 2) != "//") break;
    std::string body(text.substr(start + 2));
    if (!body.empty() && body[0] == ' ') body.erase(0, 1);
    lines.insert(lines.begin(), trimRight(body));
  }
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : " ") + l;
  if (out.starts_with("Rationale: ")) out.erase(0, 11);
  return out;
}

}  // namespace

bool loadCatalog(Catalog& cat, const std::vector<std::string>& includeDirs, bool warningsAsErrors, std::string& error,
                 bool everything) {
  fs::path contracts = fs::path(root()) / "contracts";
  std::vector<std::string> files = filesUnder(contracts.string(), ".kcontract");
  const size_t shippedFiles = files.size();
  if (everything) {
    for (const auto& f : filesUnder((fs::path(root()) / "stdlib" / "ops").string(), ".kcontract")) files.push_back(f);
    for (const auto& dir : includeDirs)
      for (const auto& f : filesUnder(dir, ".kcontract")) files.push_back(f);
  }
  Targets chosen;
  if (!compileTargets(cat.c, files, includeDirs, warningsAsErrors, Stage::Sema, chosen)) return false;
  std::set<std::string> shipped;
  for (size_t i = 0; i < shippedFiles; ++i) shipped.insert(fs::weakly_canonical(files[i]).string());
  try {
    cat.manifest = loadCalibration((contracts / "calibration.yaml").string());
  } catch (const SuiteError& e) {
    error = e.what();
    return false;
  }
  for (const auto& p : filesUnder((contracts / "incidents").string(), ".md")) {
    if (p.ends_with(".notes.md")) continue;  // the narrative `kcontract incident --notes` puts first
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    Incident inc{relativeToRoot(p), "", ss.str()};
    std::istringstream lines(inc.text);
    std::string cites;  // its first "**Contract:**" line: the class it is about
    for (std::string l; std::getline(lines, l);) {
      if (inc.title.empty() && l.starts_with("# ")) inc.title = l.substr(2);
      if (cites.empty() && l.starts_with("**Contract:**")) cites = l;
    }
    // A generated report quotes whole contracts (every class they apply): only the line cites.
    if (!cites.empty()) inc.text = cites;
    cat.incidents.push_back(std::move(inc));
  }
  for (const auto& ct : cat.c.program->contracts) {
    if (!cat.c.sources.has(ct->range.file)) continue;
    const SourceFile& f = cat.c.sources.file(ct->range.file);
    Entry e;
    e.info = ct.get();
    e.file = relativeToRoot(f.path());
    e.line = static_cast<int>(ct->range.begin.line);
    e.rationale = commentAbove(f, ct->range.begin.line);
    e.source = f.text().substr(ct->range.begin.offset, ct->range.end.offset - ct->range.begin.offset);
    e.shipped = shipped.count(fs::weakly_canonical(f.path()).string()) > 0;
    for (const auto& m : cat.manifest.entries)
      if (m.classId == ct->id || m.contract == ct->id || (!m.op.empty() && ct->id.starts_with("std.op." + m.op + "@")))
        e.calibration.push_back(&m);
    for (const auto& inc : cat.incidents)
      if (inc.text.find(ct->id) != std::string::npos) e.incidents.push_back(&inc);
    cat.entries.push_back(std::move(e));
  }
  std::stable_sort(cat.entries.begin(), cat.entries.end(), [](const Entry& a, const Entry& b) {
    if (a.info->isClass != b.info->isClass) return a.info->isClass;
    return a.info->id < b.info->id;
  });
  return true;
}

const Entry* findEntry(const Catalog& cat, const std::string& id) {
  auto versionOf = [](const std::string& x) {
    size_t at = x.find('@');
    return at == std::string::npos ? -1L : std::strtol(x.c_str() + at + 1, nullptr, 10);
  };
  std::string want = id;
  if (want.find('@') == std::string::npos && want.find('.') == std::string::npos) want = "std.op." + want;  // an op: rmsnorm
  if (want.starts_with("std.ops.")) want = "std.op." + want.substr(8);
  const Entry* found = nullptr;
  for (const auto& e : cat.entries) {
    const std::string& x = e.info->id;
    if (x == want) return &e;
    if (x.substr(0, x.find('@')) == want && (!found || versionOf(x) > versionOf(found->info->id))) found = &e;
  }
  return found;
}

namespace {

// The signature names a contract or class declares (a class's are lowered only where it is
// applied, so they are read from its declaration).
std::vector<std::string> signatureNames(const sema::ContractInfo& ct) {
  std::vector<std::string> names;
  if (ct.decl)
    for (const auto& sec : ct.decl->sections)
      if (sec->kind == ast::SectionKind::Signature)
        names.push_back(static_cast<const ast::SignatureSection&>(*sec).name.text);
  return names;
}

}  // namespace

// Its own signatures, else the checker's built-in ones its calibration pairs expect.
std::string signaturesOf(const Entry& e) {
  std::string s;
  for (const auto& name : signatureNames(*e.info)) s += (s.empty() ? "" : ", ") + ("`" + name + "`");
  if (s.empty())
    for (const auto* m : e.calibration)
      if (s.find("`" + m->signature + "`") == std::string::npos) s += (s.empty() ? "" : ", ") + ("`" + m->signature + "` (built-in)");
  return s.empty() ? "—" : s;
}

std::string calibrationLine(const CalibrationEntry& m) {
  return "conforming `" + relativeToRoot(m.conforming) + "`, violating `" + relativeToRoot(m.violating) + "`" +
         (m.rationale.empty() ? "" : " (" + m.rationale + ")") + " → `" + m.signature + "`, under `" + m.contract +
         "` on " + m.backend;
}

std::string catalogMarkdown(const Catalog& cat) {
  std::ostringstream out;
  out << "# The standard contract catalog\n\n"
      << "Generated by `kcontract catalog` from `contracts/` (the classes, `calibration.yaml`, `incidents/`);\n"
      << "do not edit by hand: `tests/e2e/catalog_fresh.sh` fails when this file is stale.\n"
      << "A contract applies a class with `applies ID` (`import std.classes`); `kcontract explain ID`\n"
      << "prints one entry, `kcontract calibrate --all` proves every class's three states.\n\n"
      << "| class | guards | signatures | calibration pairs |\n|---|---|---|---|\n";
  for (const auto& e : cat.entries)
    if (e.shipped && e.info->isClass)
      out << "| [`" << e.info->id << "`](#" << e.info->name << ") | " << e.info->title << " | " << signaturesOf(e)
          << " | " << e.calibration.size() << " |\n";
  for (const auto& e : cat.entries) {
    if (!e.shipped || !e.info->isClass) continue;
    out << "\n<a id=\"" << e.info->name << "\"></a>\n## `" << e.info->id << "`\n\n**" << e.info->title << "**  \n"
        << "Version " << e.info->version << ", `" << e.file << ":" << e.line << "`.\n\n";
    if (!e.rationale.empty()) out << e.rationale << "\n\n";
    out << "```kcontract\n" << trimRight(e.source) << "\n```\n\n";
    out << "Signatures: " << signaturesOf(e) << ".\n\n";
    if (e.calibration.empty()) out << "Calibration: **none** (`kcontract calibrate --all` fails).\n";
    for (const auto* m : e.calibration) out << "- Calibration: " << calibrationLine(*m) << ".\n";
    for (const auto* inc : e.incidents) out << "- Incident: [" << inc->title << "](../" << inc->path << ").\n";
  }
  out << "\n## Calibration contracts\n\nThe contracts the calibration pairs are checked against (`contracts/calibration/`):\n\n";
  for (const auto& e : cat.entries)
    if (e.shipped && !e.info->isClass)
      out << "- `" << e.info->id << "` — " << e.info->title << " (`" << e.file << ":" << e.line << "`)\n";
  return out.str();
}

nlohmann::ordered_json catalogEntryJson(const Entry& e) {
  nlohmann::ordered_json j;
  j["id"] = e.info->id;
  j["kind"] = e.info->isClass ? "class" : "contract";
  j["title"] = e.info->title;
  j["version"] = e.info->version;
  j["file"] = e.file;
  j["line"] = e.line;
  j["rationale"] = e.rationale;
  j["signatures"] = nlohmann::ordered_json::array();
  for (const auto& name : signatureNames(*e.info)) j["signatures"].push_back(name);
  j["applies"] = e.info->applies;
  j["calibration"] = nlohmann::ordered_json::array();
  for (const auto* m : e.calibration)
    j["calibration"].push_back({{"class", m->classId}, {"contract", m->contract},
                                {"conforming", relativeToRoot(m->conforming)}, {"violating", relativeToRoot(m->violating)},
                                {"signature", m->signature}, {"backend", m->backend}, {"rationale", m->rationale}});
  j["incidents"] = nlohmann::ordered_json::array();
  for (const auto* inc : e.incidents) j["incidents"].push_back({{"path", inc->path}, {"title", inc->title}});
  j["source"] = e.source;
  return j;
}

}  // namespace kc::check

// kcontract catalog [--format md|json] [--out FILE]   the standard contract classes, for docs/
// kcontract explain ID                                one contract or class and what it guards against
// Both read the shipped contracts/ folder: the classes (their rationale is the comment block
// directly above each), contracts/calibration.yaml (the calibration pairs) and
// contracts/incidents/*.md (the incidents that cite a class).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/calibration.h"
#include "compiler/ast/ast.h"
#include "compiler/driver/cli.h"
#include "compiler/driver/output.h"
#include "stdlib/stdlib_path.h"

namespace kc::driver {

namespace fs = std::filesystem;

namespace {

struct Incident {
  std::string path;   // relative to the source root
  std::string title;  // its first heading
  std::string text;
};

struct Entry {
  const sema::ContractInfo* info = nullptr;
  std::string file;       // relative to the source root
  int line = 0;
  std::string rationale;  // the comment block above the declaration, markers removed
  std::string source;     // the declaration as written
  std::vector<const check::CalibrationEntry*> calibration;
  std::vector<const Incident*> incidents;
};

struct Catalog {
  Compilation c;
  check::CalibrationManifest manifest;
  std::vector<Incident> incidents;
  std::vector<Entry> entries;  // classes first (by id), then contracts (by id)
};

std::string root() { return stdlib::sourceRoot(); }

std::string relativeToRoot(const std::string& p) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::weakly_canonical(p, ec), fs::weakly_canonical(root(), ec), ec);
  return ec || rel.empty() || rel.string().starts_with("..") ? p : rel.string();
}

std::string trimRight(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

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

bool loadCatalog(Catalog& cat, const GlobalOptions& opts, const std::vector<std::string>& includeDirs) {
  fs::path contracts = fs::path(root()) / "contracts";
  InputOptions in;
  in.includeDirs = includeDirs;
  in.targets = filesUnder(contracts.string(), ".kcontract");
  Targets chosen;
  if (!compileInputs(cat.c, in, opts, Stage::Sema, chosen)) return false;
  try {
    cat.manifest = check::loadCalibration((contracts / "calibration.yaml").string());
  } catch (const check::SuiteError& e) {
    std::cerr << e.what() << "\n";
    return false;
  }
  for (const auto& p : filesUnder((contracts / "incidents").string(), ".md")) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    Incident inc{relativeToRoot(p), "", ss.str()};
    std::istringstream lines(inc.text);
    for (std::string l; std::getline(lines, l);)
      if (l.starts_with("# ")) {
        inc.title = l.substr(2);
        break;
      }
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
    for (const auto& m : cat.manifest.entries)
      if (m.classId == ct->id || m.contract == ct->id) e.calibration.push_back(&m);
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

// Its own signatures, else the checker's built-in ones its calibration pairs expect.
std::string signaturesOf(const Entry& e) {
  std::string s;
  for (const auto& name : signatureNames(*e.info)) s += (s.empty() ? "" : ", ") + ("`" + name + "`");
  if (s.empty())
    for (const auto* m : e.calibration)
      if (s.find("`" + m->signature + "`") == std::string::npos) s += (s.empty() ? "" : ", ") + ("`" + m->signature + "` (built-in)");
  return s.empty() ? "—" : s;
}

std::string calibrationLine(const check::CalibrationEntry& m) {
  return "conforming `" + relativeToRoot(m.conforming) + "`, violating `" + relativeToRoot(m.violating) + "`" +
         (m.rationale.empty() ? "" : " (" + m.rationale + ")") + " → `" + m.signature + "`, under `" + m.contract +
         "` on " + m.backend;
}

std::string markdown(const Catalog& cat) {
  std::ostringstream out;
  out << "# The standard contract catalog\n\n"
      << "Generated by `kcontract catalog` from `contracts/` (the classes, `calibration.yaml`, `incidents/`);\n"
      << "do not edit by hand: `tests/e2e/catalog_fresh.sh` fails when this file is stale.\n"
      << "A contract applies a class with `applies ID` (`import std.classes`); `kcontract explain ID`\n"
      << "prints one entry, `kcontract calibrate --all` proves every class's three states.\n\n"
      << "| class | guards | signatures | calibration pairs |\n|---|---|---|---|\n";
  for (const auto& e : cat.entries)
    if (e.info->isClass)
      out << "| [`" << e.info->id << "`](#" << e.info->name << ") | " << e.info->title << " | " << signaturesOf(e)
          << " | " << e.calibration.size() << " |\n";
  for (const auto& e : cat.entries) {
    if (!e.info->isClass) continue;
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
    if (!e.info->isClass)
      out << "- `" << e.info->id << "` — " << e.info->title << " (`" << e.file << ":" << e.line << "`)\n";
  return out.str();
}

nlohmann::ordered_json entryJson(const Entry& e) {
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

struct CatalogOptions {
  std::string format = "md";
  std::string out;
  std::vector<std::string> includeDirs;
  std::string id;
} gCat;

int runCatalog(const GlobalOptions& opts) {
  if (gCat.format != "md" && gCat.format != "json") {
    std::cerr << "kcontract catalog: --format is md or json; not '" << gCat.format << "'\n";
    return kExitInput;
  }
  Catalog cat;
  if (!loadCatalog(cat, opts, gCat.includeDirs)) return kExitInput;
  std::string doc;
  if (gCat.format == "md") {
    doc = markdown(cat);
  } else {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& e : cat.entries) j.push_back(entryJson(e));
    doc = j.dump(2) + "\n";
  }
  if (gCat.out.empty()) {
    std::cout << doc;
    return kExitOk;
  }
  std::string tmp = gCat.out + ".tmp";
  std::ofstream f(tmp);
  f << doc;
  f.close();
  if (!f || std::rename(tmp.c_str(), gCat.out.c_str()) != 0) {
    std::cerr << "kcontract catalog: cannot write '" << gCat.out << "'\n";
    return kExitInput;
  }
  return kExitOk;
}

int runExplain(const GlobalOptions& opts) {
  Catalog cat;
  if (!loadCatalog(cat, opts, gCat.includeDirs)) return kExitInput;
  const Entry* found = nullptr;
  for (const auto& e : cat.entries)
    if (e.info->id == gCat.id || e.info->id.substr(0, e.info->id.find('@')) == gCat.id) found = &e;
  if (!found) {
    std::cerr << "kcontract explain: no class or contract '" << gCat.id << "' in the shipped contracts/ (kcontract catalog lists them)\n";
    return kExitInput;
  }
  const Entry& e = *found;
  std::cout << e.info->id << " — " << e.info->title << "\n"
            << (e.info->isClass ? "class" : "contract") << ", " << e.file << ":" << e.line << "\n\n";
  if (!e.rationale.empty()) std::cout << "What it guards against:\n  " << e.rationale << "\n\n";
  std::cout << trimRight(e.source) << "\n\n";
  if (!e.info->applies.empty()) {
    std::cout << "Applies:\n";
    for (const auto& id : e.info->applies) {
      const sema::ContractInfo* cls = cat.c.program->contract(id);
      std::cout << "  " << id << (cls ? " — " + cls->title : "") << "\n";
    }
    std::cout << "\n";
  }
  std::cout << "Signatures: " << signaturesOf(e) << "\n";
  for (const auto* m : e.calibration) std::cout << "Calibration: " << calibrationLine(*m) << "\n";
  if (e.calibration.empty() && e.info->isClass) std::cout << "Calibration: none\n";
  for (const auto* inc : e.incidents) std::cout << "Incident: " << inc->title << " (" << inc->path << ")\n";
  return kExitOk;
}

}  // namespace

void addCatalogCommands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& commands) {
  CLI::App* cat = app.add_subcommand("catalog", "The standard contract classes, for docs/catalog.md");
  cat->add_option("--format", gCat.format, "md (default) or json");
  cat->add_option("--out", gCat.out, "Write to this file instead of stdout");
  commands.emplace_back(cat, &runCatalog);
  CLI::App* ex = app.add_subcommand("explain", "Print one standard contract or class and what it guards against");
  ex->add_option("id", gCat.id, "A class or contract ID (the @N may be left out)")->required();
  commands.emplace_back(ex, &runExplain);
}

}  // namespace kc::driver

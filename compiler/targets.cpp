#include "compiler/targets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

#include "compiler/parse/parser.h"
#include "stdlib/data_root.h"

namespace kc {

namespace fs = std::filesystem;

namespace {

struct Declared {
  std::string file;
  std::string id;  // name@version
  bool isClass = false;
};

// Every contract and class declared under `root`, files in path order. Files that do not
// parse are counted, not reported: they are not what the user named.
void scanRoot(const fs::path& root, std::vector<Declared>& out, size_t& unparsable) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return;
  std::vector<fs::path> files;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       it != end; it.increment(ec)) {
    if (ec) break;
    const fs::path& p = it->path();
    if (it->is_directory(ec) && p.filename().string().starts_with(".")) {
      it.disable_recursion_pending();
      continue;
    }
    if (p.extension() == ".kcontract" && it->is_regular_file(ec)) files.push_back(p);
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    SourceManager sources;
    DiagnosticEngine quiet(sources);
    std::string error;
    uint32_t id = sources.load(p.string(), error);
    std::unique_ptr<ast::File> file = id ? parse::parseFile(id, sources, quiet) : nullptr;
    if (!file) {
      ++unparsable;
      continue;
    }
    for (const auto& item : file->items) {
      if (item->kind != ast::ItemKind::Contract && item->kind != ast::ItemKind::Class) continue;
      const auto& decl = static_cast<const ast::ContractDecl&>(*item);
      out.push_back({p.string(), decl.id.str(), item->kind == ast::ItemKind::Class});
    }
  }
}

std::vector<fs::path> searchRoots(const std::vector<std::string>& includeDirs) {
  std::vector<fs::path> roots(includeDirs.begin(), includeDirs.end());
  roots.push_back(fs::path(stdlib::dataDir()) / "stdlib");
  roots.push_back(fs::path(stdlib::dataDir()) / "contracts");
  return roots;
}

std::string rootList(const std::vector<std::string>& includeDirs) {
  std::string s;
  for (const auto& d : includeDirs) s += "'" + d + "', ";
  return s + "the shipped stdlib/ and contracts/";
}

}  // namespace

bool looksLikeContractId(const std::string& arg) {
  std::error_code ec;
  if (arg.empty() || fs::exists(arg, ec)) return false;
  if (arg.find('/') != std::string::npos || arg.ends_with(".kcontract")) return false;
  size_t at = arg.find('@');
  std::string name = arg.substr(0, at);
  if (at != std::string::npos) {
    std::string v = arg.substr(at + 1);
    if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  }
  if (name.empty() || name.front() == '.' || name.back() == '.') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; });
}

std::string opContractId(const std::string& op) {
  std::string name = op.starts_with("std.ops.") ? op.substr(8) : op;
  return "std.op." + name;
}

std::vector<std::string> standardOps(const std::vector<std::string>& includeDirs) {
  std::vector<Declared> declared;
  size_t unparsable = 0;
  for (const fs::path& root : searchRoots(includeDirs)) scanRoot(root, declared, unparsable);
  std::set<std::string> names;
  const std::string prefix = "std.op.";
  for (const Declared& d : declared)
    if (!d.isClass && d.id.starts_with(prefix)) names.insert(d.id.substr(prefix.size(), d.id.find('@') - prefix.size()));
  return {names.begin(), names.end()};
}

std::vector<std::string> standardOpContracts(const std::vector<std::string>& includeDirs) {
  std::vector<Declared> declared;
  size_t unparsable = 0;
  for (const fs::path& root : searchRoots(includeDirs)) scanRoot(root, declared, unparsable);
  std::map<std::string, std::pair<long, std::string>> newest;  // NAME -> (version, ID)
  const std::string prefix = "std.op.";
  for (const Declared& d : declared) {
    size_t at = d.id.find('@');
    if (d.isClass || !d.id.starts_with(prefix) || at == std::string::npos) continue;
    long version = std::strtol(d.id.c_str() + at + 1, nullptr, 10);
    auto [it, fresh] = newest.try_emplace(d.id.substr(prefix.size(), at - prefix.size()), version, d.id);
    if (!fresh && version > it->second.first) it->second = {version, d.id};
  }
  std::vector<std::string> out;
  for (const auto& [name, v] : newest) out.push_back(v.second);
  return out;
}

std::string newestContractId(const std::string& unversioned, const std::vector<std::string>& includeDirs) {
  std::vector<Declared> declared;
  size_t unparsable = 0;
  for (const fs::path& root : searchRoots(includeDirs)) scanRoot(root, declared, unparsable);
  std::string best;
  long long bestVersion = -1;
  for (const Declared& d : declared) {
    size_t at = d.id.find('@');
    if (d.isClass || at == std::string::npos || d.id.substr(0, at) != unversioned) continue;
    long long v = std::stoll(d.id.substr(at + 1));
    if (v > bestVersion) bestVersion = v, best = d.id;
  }
  return best;
}

Targets resolveTargets(const std::vector<std::string>& args, const std::vector<std::string>& includeDirs,
                       DiagnosticEngine& diags) {
  Targets t;
  auto addFile = [&](const std::string& f) {
    if (std::find(t.files.begin(), t.files.end(), f) == t.files.end()) t.files.push_back(f);
  };
  std::vector<Declared> declared;
  size_t unparsable = 0;
  bool scanned = false;
  for (const std::string& arg : args) {
    if (!looksLikeContractId(arg)) {
      addFile(arg);
      continue;
    }
    if (!scanned) {
      for (const fs::path& root : searchRoots(includeDirs)) scanRoot(root, declared, unparsable);
      scanned = true;
    }
    bool versioned = arg.find('@') != std::string::npos;
    std::vector<const Declared*> hits;
    for (const Declared& d : declared)
      if (versioned ? d.id == arg : d.id.substr(0, d.id.find('@')) == arg) hits.push_back(&d);
    std::string skipped = unparsable ? " (" + std::to_string(unparsable) + " file(s) there did not parse)" : "";
    if (hits.empty()) {
      diags.report(DiagCode::UnknownContractId, SourceRange{},
                   "no contract '" + arg + "' under " + rootList(includeDirs) + skipped +
                       "; name its file, or add its folder with -I");
      continue;
    }
    std::map<std::string, const Declared*> distinct;  // the same file reached through two roots counts once
    for (const Declared* d : hits) {
      std::error_code ec;
      distinct.emplace(fs::weakly_canonical(d->file, ec).string() + "\n" + d->id, d);
    }
    if (distinct.size() > 1) {
      std::string where;
      for (const auto& [key, d] : distinct) where += (where.empty() ? "" : ", ") + d->id + " in " + d->file;
      diags.report(DiagCode::AmbiguousContractId, SourceRange{},
                   "'" + arg + "' names more than one contract: " + where +
                       (versioned ? "" : "; add the version, as in " + distinct.begin()->second->id));
      continue;
    }
    const Declared& d = *distinct.begin()->second;
    if (d.isClass) {
      diags.report(DiagCode::UnknownContractId, SourceRange{},
                   "'" + d.id + "' is a class (in " + d.file +
                       "); a class is checked through the contracts that apply it");
      continue;
    }
    addFile(d.file);
    t.only.insert(d.id);
  }
  return t;
}

std::vector<std::string> filesUnder(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ext) out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

bool compileTargets(Compilation& c, const std::vector<std::string>& targets, const std::vector<std::string>& includeDirs,
                    bool warningsAsErrors, Stage last, Targets& chosen) {
  c.diags.setWarningsAsErrors(warningsAsErrors);
  c.includeDirs = includeDirs;
  chosen = resolveTargets(targets, includeDirs, c.diags);
  if (c.diags.hasErrors()) return false;
  compile(c, chosen.files, last);
  return !c.diags.hasErrors();
}

}  // namespace kc

#include "compiler/sema/imports.h"

#include <filesystem>
#include <map>
#include <set>

#include "compiler/parse/parser.h"
#include "stdlib/data_root.h"

namespace kc::sema {

namespace fs = std::filesystem;

namespace {

struct Root {
  fs::path dir;
  bool shipped = false;  // modules under it are named std.<path>
};

std::vector<std::string> split(const std::string& module) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : module) {
    if (ch == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

// The file for `module` under `root`, or empty. Refuses anything that leaves the root.
fs::path lookIn(const Root& root, const std::vector<std::string>& parts, bool& escaped) {
  size_t first = 0;
  if (root.shipped) {
    if (parts.size() < 2 || parts[0] != "std") return {};
    first = 1;
  }
  fs::path p = root.dir;
  for (size_t k = first; k < parts.size(); ++k) p /= parts[k];
  p += ".kcontract";
  std::error_code ec;
  if (!fs::is_regular_file(p, ec)) return {};
  fs::path real = fs::weakly_canonical(p, ec);
  fs::path base = fs::weakly_canonical(root.dir, ec);
  auto rel = real.lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") {
    escaped = true;
    return {};
  }
  return real;
}

}  // namespace

std::vector<const ast::File*> resolveImports(Compilation& c) {
  std::vector<const ast::File*> all;
  for (const auto& f : c.files)
    if (f) all.push_back(f.get());

  std::vector<Root> shipped = {{fs::path(stdlib::dataDir()) / "stdlib", true},
                               {fs::path(stdlib::dataDir()) / "contracts", true}};
  std::map<fs::path, const ast::File*> loaded;  // canonical path -> module
  for (size_t i = 0; i < all.size(); ++i) {
    std::error_code ec;
    fs::path self = fs::weakly_canonical(c.sources.file(all[i]->fileId).path(), ec);
    loaded.emplace(self, all[i]);
  }

  // Breadth-first over the import graph; `all` grows as modules load.
  for (size_t i = 0; i < all.size(); ++i) {
    const ast::File& file = *all[i];
    fs::path folder = fs::path(c.sources.file(file.fileId).path()).parent_path();
    std::vector<Root> roots = {{folder.empty() ? fs::path(".") : folder, false}};
    for (const auto& dir : c.includeDirs) roots.push_back({dir, false});
    roots.insert(roots.end(), shipped.begin(), shipped.end());

    for (const auto& item : file.items) {
      if (item->kind != ast::ItemKind::Import) continue;
      const auto& imp = static_cast<const ast::ImportDecl&>(*item);
      std::vector<std::string> parts = split(imp.module.text);
      bool escaped = false;
      fs::path found;
      for (const auto& root : roots) {
        found = lookIn(root, parts, escaped);
        if (!found.empty()) break;
      }
      auto reportMissing = [&] {
        std::string rel;
        for (size_t k = 0; k < parts.size(); ++k) rel += (k ? "/" : "") + parts[k];
        if (escaped)
          c.diags.report(DiagCode::ImportEscapesRoot, imp.module.range,
                         "module '" + imp.module.text + "' resolves outside its search root; imports stay inside");
        else
          c.diags.report(DiagCode::UnknownModule, imp.module.range,
                         "no module '" + imp.module.text + "': looked for " + rel +
                             ".kcontract beside this file and in each -I directory" +
                             (parts.size() > 1 && parts[0] == "std"
                                  ? ", and for " + rel.substr(4) + ".kcontract under the shipped stdlib/ and contracts/"
                                  : ""));
      };
      if (found.empty()) {
        reportMissing();
        continue;
      }
      if (loaded.count(found)) continue;
      std::string error;
      uint32_t id = c.sources.load(found.string(), error);
      if (id == 0) {
        reportMissing();
        continue;
      }
      std::unique_ptr<ast::File> module = parse::parseFile(id, c.sources, c.diags);
      if (!module) continue;  // its syntax errors are reported
      loaded.emplace(found, module.get());
      all.push_back(module.get());
      c.modules.push_back(std::move(module));
    }
  }
  return all;
}

}  // namespace kc::sema

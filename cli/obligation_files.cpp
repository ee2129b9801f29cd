#include "cli/obligation_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>

namespace kc::driver {

void collectObligations(const Compilation& c, const Targets& chosen, std::vector<obl::Obligation>& all,
                        std::vector<obl::Skipped>& skipped, std::vector<const sema::ContractInfo*>* contracts) {
  obl::BuildOptions bo;
  bo.sources = &c.sources;
  for (const auto& ct : c.program->contracts) {
    if (std::find(c.fileIds.begin(), c.fileIds.end(), ct->range.file) == c.fileIds.end() || !isChosen(chosen, ct->id))
      continue;
    obl::ObligationSet set = obl::buildObligationSet(*ct, bo);
    for (auto& o : set.obligations) {
      all.push_back(std::move(o));
      if (contracts) contracts->push_back(ct.get());
    }
    for (auto& s : set.skipped) skipped.push_back(std::move(s));
  }
}

bool writeObligationScripts(const std::string& dir, const std::vector<obl::Obligation>& all,
                            std::map<std::string, std::string>& fileOf) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "kcontract: cannot create " << dir << ": " << ec.message() << "\n";
    return false;
  }
  std::set<std::string> used;
  for (const auto& o : all) {
    std::string base = obl::sanitiseId(o.id);
    std::string name = base + ".smt2";
    for (int n = 2; used.count(name); ++n) name = base + "-" + std::to_string(n) + ".smt2";
    used.insert(name);
    fs::path p = fs::path(dir) / name;
    std::ofstream f(p, std::ios::binary);
    f << o.smt2;
    if (!f) {
      std::cerr << "kcontract: cannot write " << p.string() << "\n";
      return false;
    }
    fileOf[o.id] = p.string();
    if (!o.relaxation.empty()) {  // beside it: NAME.relaxed.smt2 (its unsat is the script's unsat)
      fs::path r = fs::path(dir) / (name.substr(0, name.size() - 5) + ".relaxed.smt2");
      std::ofstream rf(r, std::ios::binary);
      rf << o.relaxation;
      if (!rf) {
        std::cerr << "kcontract: cannot write " << r.string() << "\n";
        return false;
      }
    }
  }
  return true;
}

nlohmann::json locationJson(const SourceRange& r, const SourceManager& sources) {
  nlohmann::json j;
  j["file"] = sources.has(r.file) ? sources.file(r.file).path() : "";
  j["line"] = r.begin.line;
  j["column"] = r.begin.column;
  j["end_line"] = r.end.line;
  j["end_column"] = r.end.column;
  return j;
}

}  // namespace kc::driver

#include "mutate/mutant_set.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checker/report/chain.h"

namespace kc::mutate {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kFormat = 1;

std::string readText(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MutantSetError("cannot read " + what + " '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

void writeMutantSet(const std::string& path, const KernelAst& ast, const std::string& entry,
                    const std::vector<Mutant>& mutants, const std::vector<std::string>& diffs) {
  json j;
  j["kcontract_mutant_set"] = kFormat;
  j["kernel"] = ast.path;
  j["sha256"] = report::sha256Hex(ast.text);
  j["entry"] = entry;
  j["language"] = languageName(ast.language);
  const fs::path dir = fs::absolute(fs::path(ast.path)).lexically_normal().parent_path();
  json incs = json::array();
  for (const auto& inc : ast.includes)
    incs.push_back({{"begin", inc.begin}, {"end", inc.end},
                    {"path", fs::path(inc.resolved).lexically_proximate(dir).generic_string()}});
  j["includes"] = incs;
  json ms = json::array();
  for (size_t k = 0; k < mutants.size(); ++k) {
    const Mutant& m = mutants[k];
    json edits = json::array();
    for (const auto& e : m.edits) edits.push_back({{"begin", e.begin}, {"end", e.end}, {"replacement", e.replacement}});
    ms.push_back({{"id", m.id}, {"operator", m.op}, {"family", m.family}, {"function", m.function},
                  {"description", m.description}, {"line", m.line}, {"column", m.column},
                  {"diff", k < diffs.size() ? diffs[k] : ""}, {"edits", edits}});
  }
  j["mutants"] = ms;
  std::ofstream out(path, std::ios::binary);
  out << j.dump(1) << "\n";
  if (!out) throw MutantSetError("cannot write the mutant set '" + path + "'");
}

MutantSet readMutantSet(const std::string& path, const std::string& kernelPath) {
  json j;
  try {
    j = json::parse(readText(path, "the mutant set"));
  } catch (const json::exception& e) {
    throw MutantSetError(path + ": not a mutant set (" + std::string(e.what()) + ")");
  }
  MutantSet set;
  try {
    if (j.value("kcontract_mutant_set", 0) != kFormat)
      throw MutantSetError(path + ": not a mutant set of format " + std::to_string(kFormat) +
                           " (write it with kcontract mutate --emit)");
    set.ast.path = kernelPath;
    set.ast.text = readText(kernelPath, "the kernel");
    if (report::sha256Hex(set.ast.text) != j.at("sha256").get<std::string>())
      throw MutantSetError(path + ": the mutants were made from another text of " + j.at("kernel").get<std::string>() +
                           " than " + kernelPath + " has now; emit them again");
    if (!languageOf(kernelPath, set.ast.language)) throw MutantSetError(kernelPath + ": not a C, C++, CUDA or OpenCL source");
    set.entry = j.at("entry").get<std::string>();
    const fs::path dir = fs::absolute(fs::path(kernelPath)).lexically_normal().parent_path();
    for (const auto& inc : j.at("includes")) {
      KernelAst::Include i;
      i.begin = inc.at("begin").get<size_t>();
      i.end = inc.at("end").get<size_t>();
      fs::path resolved = (dir / inc.at("path").get<std::string>()).lexically_normal();
      if (!fs::exists(resolved))
        throw MutantSetError(path + ": the kernel's #include \"" + inc.at("path").get<std::string>() + "\" is not at " +
                             resolved.string());
      i.resolved = resolved.string();
      if (i.begin > i.end || i.end > set.ast.text.size()) throw MutantSetError(path + ": an #include outside the kernel's text");
      set.ast.includes.push_back(i);
    }
    for (const auto& m : j.at("mutants")) {
      Mutant mu;
      mu.id = m.at("id").get<std::string>();
      mu.op = m.at("operator").get<std::string>();
      mu.family = m.at("family").get<std::string>();
      mu.function = m.at("function").get<std::string>();
      mu.description = m.at("description").get<std::string>();
      mu.line = m.at("line").get<int>();
      mu.column = m.at("column").get<int>();
      for (const auto& e : m.at("edits")) {
        Edit ed{e.at("begin").get<size_t>(), e.at("end").get<size_t>(), e.at("replacement").get<std::string>()};
        if (ed.begin > ed.end || ed.end > set.ast.text.size())
          throw MutantSetError(path + ": mutant " + mu.id + " edits bytes outside the kernel's text");
        mu.edits.push_back(std::move(ed));
      }
      set.diffs.push_back(m.at("diff").get<std::string>());
      set.mutants.push_back(std::move(mu));
    }
  } catch (const json::exception& e) {
    throw MutantSetError(path + ": " + std::string(e.what()));
  }
  return set;
}

}  // namespace kc::mutate

// Where the data folder is (stdlib/data_root.h, docs/install.md).
#include "stdlib/data_root.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace kc::stdlib {

namespace fs = std::filesystem;

namespace {

// Set by stdlib/CMakeLists.txt: the data folder relative to the installed binary's folder
// (../share/kcontract), and the trees of this build. The trees are used only by a binary
// that still runs from KC_BUILD_DIR: an installed or bundled one never reads them.
constexpr const char* kDataFromBinary = KC_DATA_FROM_BIN;
constexpr const char* kSourceTree = KC_SOURCE_DIR;
constexpr const char* kBuildTree = KC_BUILD_DIR;

const char* const kWhatHomeIs =
    "; KC_HOME names kcontract's data folder, the one with stdlib/ and contracts/ in it (docs/install.md)";

bool hasStdlib(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "stdlib", ec);
}

bool inside(const fs::path& file, const fs::path& dir) {
  std::error_code ec;
  fs::path rel = fs::weakly_canonical(file, ec).lexically_relative(fs::weakly_canonical(dir, ec));
  return !ec && !rel.empty() && *rel.begin() != "..";
}

}  // namespace

DataRoot findDataRoot(const char* kcHome, const std::string& exe) {
  if (kcHome && *kcHome) {
    std::error_code ec;
    fs::path home = fs::absolute(kcHome, ec).lexically_normal();
    if (!fs::is_directory(home, ec))
      throw DataRootError("KC_HOME is '" + std::string(kcHome) + "', which is not a folder" + kWhatHomeIs);
    if (!hasStdlib(home))
      throw DataRootError("KC_HOME is '" + std::string(kcHome) + "', which has no stdlib/ in it" + kWhatHomeIs);
    return {home.string(), DataOrigin::KcHome};
  }
  fs::path installed = (fs::path(exe).parent_path() / kDataFromBinary).lexically_normal();
  if (hasStdlib(installed)) return {installed.string(), DataOrigin::Installed};
  // A binary in its build tree (build/kcontract, build/bench/..., build/tests/...): the data
  // folder is the source tree, so an edit there needs no install.
  if (inside(exe, kBuildTree) && hasStdlib(kSourceTree)) return {kSourceTree, DataOrigin::BuildTree};
  throw DataRootError("no data folder: " + installed.string() + " (beside " + exe +
                      ") has no stdlib/ in it; install kcontract with its data (cmake --install), or set KC_HOME "
                      "to the folder with stdlib/ and contracts/ in it (docs/install.md)");
}

const DataRoot& dataRoot() {
  // Looked up once: KC_HOME and the binary do not change while the process runs.
  struct Found {
    std::optional<DataRoot> root;
    std::string error;
  };
  static const Found found = [] {
    std::error_code ec;
    std::string exe = fs::read_symlink("/proc/self/exe", ec).string();
    try {
      return Found{findDataRoot(std::getenv("KC_HOME"), exe), ""};
    } catch (const DataRootError& e) {
      return Found{std::nullopt, e.what()};
    }
  }();
  if (!found.root) throw DataRootError(found.error);
  return *found.root;
}

std::string dataDir() { return dataRoot().path; }

std::string originText(DataOrigin origin) {
  switch (origin) {
    case DataOrigin::KcHome: return "from KC_HOME";
    case DataOrigin::Installed: return "installed";
    case DataOrigin::BuildTree: return "the source tree of this build";
  }
  return "";
}

}  // namespace kc::stdlib

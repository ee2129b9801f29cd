// The data folder's lookup (stdlib/data_root.h): KC_HOME first and never passed over, then
// ../share/kcontract beside the binary, then the source tree for a binary in its build tree.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "stdlib/data_root.h"

namespace fs = std::filesystem;
using kc::stdlib::DataOrigin;
using kc::stdlib::DataRootError;
using kc::stdlib::findDataRoot;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "kc-data-root.XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string messageOf(const char* home, const std::string& exe) {
  try {
    findDataRoot(home, exe);
  } catch (const DataRootError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("KC_HOME names the data folder, before the installed one", "[data-root]") {
  TempDir t;
  fs::create_directories(t.path / "home/stdlib");
  fs::create_directories(t.path / "prefix/bin");
  fs::create_directories(t.path / "prefix/share/kcontract/stdlib");
  std::string exe = (t.path / "prefix/bin/kcontract").string();

  auto home = findDataRoot((t.path / "home").c_str(), exe);
  CHECK(home.path == (t.path / "home").string());
  CHECK(home.origin == DataOrigin::KcHome);

  auto installed = findDataRoot(nullptr, exe);
  CHECK(installed.path == (t.path / "prefix/share/kcontract").string());
  CHECK(installed.origin == DataOrigin::Installed);
  CHECK(findDataRoot("", exe).origin == DataOrigin::Installed);  // empty is unset
}

TEST_CASE("a KC_HOME that cannot be the data folder is an error, never passed over", "[data-root]") {
  TempDir t;
  fs::create_directories(t.path / "prefix/bin");
  fs::create_directories(t.path / "prefix/share/kcontract/stdlib");
  fs::create_directories(t.path / "empty");
  std::ofstream(t.path / "file") << "x";
  std::string exe = (t.path / "prefix/bin/kcontract").string();
  const std::string tail =
      "; KC_HOME names kcontract's data folder, the one with stdlib/ and contracts/ in it (docs/install.md)";

  std::string missing = (t.path / "missing").string();
  CHECK(messageOf(missing.c_str(), exe) == "KC_HOME is '" + missing + "', which is not a folder" + tail);
  std::string file = (t.path / "file").string();
  CHECK(messageOf(file.c_str(), exe) == "KC_HOME is '" + file + "', which is not a folder" + tail);
  std::string empty = (t.path / "empty").string();
  CHECK(messageOf(empty.c_str(), exe) == "KC_HOME is '" + empty + "', which has no stdlib/ in it" + tail);
}

TEST_CASE("a binary in its build tree reads the source tree; elsewhere, without data, an error", "[data-root]") {
  // The unit tests themselves run from the build tree.
  auto build = findDataRoot(nullptr, KC_BINARY);
  CHECK(build.origin == DataOrigin::BuildTree);
  CHECK(fs::equivalent(build.path, KC_SOURCE_DIR));

  TempDir t;
  fs::create_directories(t.path / "bin");
  std::string exe = (t.path / "bin/kcontract").string();
  std::string beside = (t.path / "share/kcontract").string();
  CHECK(messageOf(nullptr, exe) == "no data folder: " + beside + " (beside " + exe +
                                       ") has no stdlib/ in it; install kcontract with its data (cmake --install), "
                                       "or set KC_HOME to the folder with stdlib/ and contracts/ in it (docs/install.md)");
}

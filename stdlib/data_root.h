#pragma once
// kcontract's data folder: the standard ops (stdlib/ops/), the contract classes, the
// calibration manifest and its kernels, the incidents (contracts/), the kernel headers
// (include/kcontract/), the exec adaptors (adaptors/), the CUDA support sources
// (backends/cuda/) and the catalogue (docs/catalog.md). It has the layout of the source
// tree, so in a build tree the source tree is the data folder (docs/install.md).
#include <stdexcept>
#include <string>

namespace kc::stdlib {

enum class DataOrigin {
  KcHome,     // $KC_HOME
  Installed,  // ../share/kcontract beside the binary (cmake --install, the .deb)
  BuildTree,  // the source tree, for a binary that runs from the build tree it was built in
};

struct DataRoot {
  std::string path;  // absolute; has stdlib/ in it
  DataOrigin origin = DataOrigin::Installed;
};

// No usable data folder; what() is the whole message, without a "kcontract: " prefix.
struct DataRootError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The lookup, in this order:
//   1. $KC_HOME when it is set and not empty: a folder with stdlib/ in it, else DataRootError
//      (a wrong KC_HOME is never passed over for another folder);
//   2. ../share/kcontract beside the binary `exe`, when it has stdlib/ in it;
//   3. the source tree, when `exe` lies in the build tree it was built in.
// Anything else is DataRootError. kcHome is nullptr when KC_HOME is unset.
DataRoot findDataRoot(const char* kcHome, const std::string& exe);

// findDataRoot for this process ($KC_HOME, /proc/self/exe), once; throws DataRootError (again
// on every call) when there is none. The command line asks before any subcommand runs.
const DataRoot& dataRoot();
// dataRoot().path.
std::string dataDir();

// How --version and the reports say where the folder came from: "from KC_HOME",
// "installed", "the source tree of this build".
std::string originText(DataOrigin origin);

}  // namespace kc::stdlib

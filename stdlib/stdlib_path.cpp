// Where the shipped .kcontract library lives: next to the sources in a build tree.
#include "stdlib/stdlib_path.h"

namespace kc::stdlib {

std::string sourceRoot() { return KC_SOURCE_DIR; }

}  // namespace kc::stdlib

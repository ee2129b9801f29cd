#pragma once
#include <string>

namespace kc::stdlib {

// The project source root; stdlib/ and contracts/ below it hold the shipped library.
std::string sourceRoot();

}  // namespace kc::stdlib

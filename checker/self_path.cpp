#include "checker/self_path.h"

#include <cstdlib>
#include <filesystem>

namespace kc::check {

std::string selfPath() {
  if (const char* s = std::getenv("KC_SELF"); s && *s) return s;
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? "kcontract" : p.string();
}

}  // namespace kc::check

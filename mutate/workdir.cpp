#include "mutate/workdir.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <stdlib.h>

namespace kc::mutate {

namespace fs = std::filesystem;

MutantFolder::MutantFolder(const std::string& kernelPath) {
  fs::path k(kernelPath);
  stem_ = k.stem().string();
  ext_ = k.extension().string();
  std::string pattern = (fs::temp_directory_path() / "kcontract-mutants-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back(0);
  if (!mkdtemp(name.data())) throw std::runtime_error("cannot create a folder for the mutants: " + std::string(std::strerror(errno)));
  dir_ = name.data();
}

MutantFolder::~MutantFolder() {
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string MutantFolder::write(const Mutant& m, const std::string& source) {
  std::string safe;
  for (char c : m.id) safe += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  std::string path = (fs::path(dir_) / (stem_ + "." + safe + ext_)).string();
  std::ofstream out(path, std::ios::binary);
  out << source;
  if (!out) throw std::runtime_error("cannot write the mutant '" + path + "'");
  return path;
}

}  // namespace kc::mutate

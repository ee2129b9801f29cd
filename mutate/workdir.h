#pragma once
// The folder the mutants' sources are written to while a run lasts (a fresh one under the
// system's temporary folder, removed afterwards). The kernel cache keys on each source's
// bytes, so a second run of the same mutants builds none of them again.
#include <string>

#include "mutate/mutant.h"

namespace kc::mutate {

class MutantFolder {
 public:
  explicit MutantFolder(const std::string& kernelPath);
  ~MutantFolder();
  MutantFolder(const MutantFolder&) = delete;
  MutantFolder& operator=(const MutantFolder&) = delete;
  // Writes the mutant's source as STEM.ID.EXT (the id's punctuation made file-safe); returns its path.
  std::string write(const Mutant& m, const std::string& source);
  const std::string& path() const { return dir_; }

 private:
  std::string dir_, stem_, ext_;
};

}  // namespace kc::mutate

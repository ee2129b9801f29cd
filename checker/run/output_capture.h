#pragma once
// What a kernel prints, read from a pipe while it runs: the last kKeptBytes are kept and the
// rest counted, so a kernel that writes a gigabyte costs the checker 64 KiB (docs/security.md).
#include <cstddef>
#include <string>

namespace kc::run {

class OutputCapture {
 public:
  static constexpr size_t kKeptBytes = 64 * 1024;
  OutputCapture();  // throws backend::BackendError when no pipe can be made
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  int writeEnd() const { return write_; }  // for the cell's stdout and stderr
  int readEnd() const { return read_; }    // to poll
  void closeWriteEnd();                    // once the cell has its copy
  void drain();                            // reads whatever is there now, never blocks
  // The run's output (drained first), with "[N bytes printed; the last 65536 kept]" in front
  // when it was cut; then starts over for the next run.
  std::string take();

 private:
  int read_ = -1, write_ = -1;
  std::string kept_;
  size_t total_ = 0;
};

}  // namespace kc::run

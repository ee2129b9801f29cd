#pragma once
// What a cell prints, read from a pipe while it runs, at a bounded cost: a kernel that writes
// a gigabyte costs the checker 64 KiB (docs/security.md, "Containment"). A kernel's output
// keeps its end (the last lines say what went wrong); a compiler's keeps its start (the first
// errors are the ones to read). The rest is counted.
#include <cstddef>
#include <string>

namespace kc::sandbox {

class OutputCapture {
 public:
  static constexpr size_t kKeptBytes = 64 * 1024;
  enum class Keep { Head, Tail };
  struct Captured {
    std::string kept;  // at most kKeptBytes
    size_t total = 0;  // bytes printed in all
    bool cut() const { return total > kept.size(); }
  };

  explicit OutputCapture(Keep keep = Keep::Tail);  // throws std::runtime_error when no pipe can be made
  ~OutputCapture();
  OutputCapture(const OutputCapture&) = delete;
  OutputCapture& operator=(const OutputCapture&) = delete;

  int writeEnd() const { return write_; }  // for the cell's stdout and stderr
  int readEnd() const { return read_; }    // to poll
  void closeWriteEnd();                    // once the cell has its copy
  // Reads whatever is there now, never blocks. Returns false at the end of the output (every
  // writer has closed its end).
  bool drain();
  // What was printed since the last take (drained first); then starts over.
  Captured takeCaptured();
  // The same as text, with "[N bytes printed; the last 65536 kept]" in front when it was cut.
  std::string take();

 private:
  Keep keep_;
  int read_ = -1, write_ = -1;
  std::string kept_;
  size_t total_ = 0;
};

}  // namespace kc::sandbox

#include "checker/run/output_capture.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "backends/backend.h"

namespace kc::run {

OutputCapture::OutputCapture() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0)
    throw backend::BackendError("cannot make a pipe for the kernel's output: " + std::string(std::strerror(errno)));
  read_ = fds[0];
  write_ = fds[1];
}

OutputCapture::~OutputCapture() {
  if (read_ >= 0) close(read_);
  closeWriteEnd();
}

void OutputCapture::closeWriteEnd() {
  if (write_ >= 0) close(write_);
  write_ = -1;
}

void OutputCapture::drain() {
  char buf[16384];
  for (;;) {
    ssize_t got = read(read_, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return;
    total_ += static_cast<size_t>(got);
    kept_.append(buf, static_cast<size_t>(got));
    if (kept_.size() > 2 * kKeptBytes) kept_.erase(0, kept_.size() - kKeptBytes);
  }
}

std::string OutputCapture::take() {
  drain();
  if (kept_.size() > kKeptBytes) kept_.erase(0, kept_.size() - kKeptBytes);
  std::string out = total_ > kept_.size() ? "[" + std::to_string(total_) + " bytes printed; the last " +
                                                std::to_string(kept_.size()) + " kept]\n" + kept_
                                          : kept_;
  kept_.clear();
  total_ = 0;
  return out;
}

}  // namespace kc::run

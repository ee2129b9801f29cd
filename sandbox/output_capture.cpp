#include "sandbox/output_capture.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kc::sandbox {

OutputCapture::OutputCapture(Keep keep) : keep_(keep) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0 || fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0)
    throw std::runtime_error("cannot make a pipe for the output: " + std::string(std::strerror(errno)));
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

bool OutputCapture::drain() {
  char buf[16384];
  for (;;) {
    ssize_t got = read(read_, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0) return false;
    if (got < 0) return true;  // nothing more now
    total_ += static_cast<size_t>(got);
    if (keep_ == Keep::Head) {
      kept_.append(buf, std::min(static_cast<size_t>(got), kKeptBytes - kept_.size()));
      continue;
    }
    kept_.append(buf, static_cast<size_t>(got));
    if (kept_.size() > 2 * kKeptBytes) kept_.erase(0, kept_.size() - kKeptBytes);
  }
}

OutputCapture::Captured OutputCapture::takeCaptured() {
  drain();
  if (kept_.size() > kKeptBytes) kept_.erase(0, kept_.size() - kKeptBytes);
  Captured c{std::move(kept_), total_};
  kept_.clear();
  total_ = 0;
  return c;
}

std::string OutputCapture::take() {
  Captured c = takeCaptured();
  if (!c.cut()) return c.kept;
  return "[" + std::to_string(c.total) + " bytes printed; the last " + std::to_string(c.kept.size()) + " kept]\n" + c.kept;
}

}  // namespace kc::sandbox

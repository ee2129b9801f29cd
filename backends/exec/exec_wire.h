#pragma once
// The transport of exec protocol v2 (docs/backends.md, "Protocol v2"): messages over a Unix
// stream socket, each a 4-byte little-endian length and then that many bytes of UTF-8 JSON.
// File descriptors (the buffers' memfds) ride along with a message as SCM_RIGHTS. The
// worker's side never trusts the adaptor: a message longer than the limit, one that comes
// with descriptors when none may, or a socket closed in the middle is reported, not obeyed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kc::backend::execwire {

// The longest reply the worker accepts (a reply is a few hundred bytes).
inline constexpr size_t kMaxReplyBytes = size_t{1} << 20;
// The most descriptors one message may carry.
inline constexpr size_t kMaxFds = 64;

// Sends one message with `fds` attached. Never raises SIGPIPE. Returns "" or why it failed
// ("the adaptor closed its socket", an errno text).
std::string sendMessage(int socket, const std::string& body, const std::vector<int>& fds = {});

struct Received {
  enum Status { Ok, Closed, TooLong, Failed } status = Failed;
  std::string body;      // Ok: the message
  std::vector<int> fds;  // descriptors that came with it (the receiver owns and closes them)
  size_t length = 0;     // TooLong: the length its prefix announced
  std::string error;     // Failed: why
};
// Receives one message of at most `maxBytes` bytes; blocks until it is whole or the socket
// closes. Closed: the socket closed before or inside the message.
Received receiveMessage(int socket, size_t maxBytes);

// Bytes as lowercase hex, two digits each (scalars and fill patterns in requests).
std::string hex(const uint8_t* p, size_t n);

// A buffer the worker allocates for v2: memory of a memfd, mapped MAP_SHARED, so that the
// adaptor maps the very same bytes from the descriptor.
struct SharedBuffer {
  int fd = -1;
  void* data = nullptr;
  size_t bytes = 0;
};
SharedBuffer allocateShared(size_t bytes);  // throws BackendError
void releaseShared(SharedBuffer& b);

}  // namespace kc::backend::execwire

// Exec protocol v2's transport (backends/exec/exec_wire.h): length-prefixed messages over a
// socketpair, descriptors alongside, and what the worker's side does with a hostile peer:
// a message over the limit, one cut short by a closed socket, descriptors where none may
// come. And the spec's protocol and interpreter (exec_spec.h).
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "backends/backend.h"
#include "backends/exec/exec_spec.h"
#include "backends/exec/exec_wire.h"

namespace fs = std::filesystem;
using namespace kc::backend;

namespace {

struct Pair {
  int a = -1, b = -1;
  Pair() {
    int p[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) == 0);
    a = p[0];
    b = p[1];
  }
  ~Pair() {
    if (a >= 0) close(a);
    if (b >= 0) close(b);
  }
};

}  // namespace

TEST_CASE("exec wire: a message and its descriptors arrive whole", "[backend][exec]") {
  Pair p;
  execwire::SharedBuffer buf = execwire::allocateShared(4096);
  std::memcpy(buf.data, "poison", 6);
  REQUIRE(execwire::sendMessage(p.a, R"({"type":"launch","id":1})", {buf.fd}).empty());
  REQUIRE(execwire::sendMessage(p.a, "{}").empty());
  execwire::Received r = execwire::receiveMessage(p.b, 1024);
  REQUIRE(r.status == execwire::Received::Ok);
  CHECK(r.body == R"({"type":"launch","id":1})");
  REQUIRE(r.fds.size() == 1);
  // The descriptor maps the very bytes: a write through it shows in the worker's mapping.
  void* other = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, r.fds[0], 0);
  REQUIRE(other != MAP_FAILED);
  CHECK(std::memcmp(other, "poison", 6) == 0);
  std::memcpy(other, "output", 6);
  CHECK(std::memcmp(buf.data, "output", 6) == 0);
  munmap(other, 4096);
  // The peer cannot shrink the buffer under the worker (a SIGBUS there) nor grow it.
  CHECK(ftruncate(r.fds[0], 0) != 0);
  CHECK(ftruncate(r.fds[0], 8192) != 0);
  close(r.fds[0]);
  execwire::Received second = execwire::receiveMessage(p.b, 1024);
  CHECK(second.status == execwire::Received::Ok);
  CHECK(second.body == "{}");
  CHECK(second.fds.empty());  // the descriptors went with the first message only
  execwire::releaseShared(buf);
  CHECK(buf.fd == -1);
}

TEST_CASE("exec wire: a hostile peer is reported, never obeyed", "[backend][exec]") {
  SECTION("a length over the limit is refused before anything is read") {
    Pair p;
    unsigned char head[4] = {0, 0, 0, 0x80};  // 2 GiB
    REQUIRE(write(p.a, head, 4) == 4);
    execwire::Received r = execwire::receiveMessage(p.b, execwire::kMaxReplyBytes);
    CHECK(r.status == execwire::Received::TooLong);
    CHECK(r.length == (size_t{1} << 31));
  }
  SECTION("a socket closed inside a message") {
    Pair p;
    unsigned char head[4] = {10, 0, 0, 0};
    REQUIRE(write(p.a, head, 4) == 4);
    REQUIRE(write(p.a, "abc", 3) == 3);
    close(p.a);
    p.a = -1;
    CHECK(execwire::receiveMessage(p.b, 1024).status == execwire::Received::Closed);
  }
  SECTION("a socket closed before a message") {
    Pair p;
    close(p.a);
    p.a = -1;
    CHECK(execwire::receiveMessage(p.b, 1024).status == execwire::Received::Closed);
    // Sending to a peer that is gone says so, and raises no SIGPIPE.
    Pair q;
    close(q.b);
    q.b = -1;
    CHECK(execwire::sendMessage(q.a, "{}") == "the adaptor closed its socket");
  }
  SECTION("descriptors that come with a reply are handed over, for the caller to refuse") {
    Pair p;
    REQUIRE(execwire::sendMessage(p.a, R"({"type":"ok"})", {2}).empty());
    execwire::Received r = execwire::receiveMessage(p.b, 1024);
    CHECK(r.status == execwire::Received::Ok);
    REQUIRE(r.fds.size() == 1);
    close(r.fds[0]);
  }
}

TEST_CASE("exec spec: protocol and interpreter", "[backend][exec]") {
  fs::path dir = fs::temp_directory_path() / ("kc-unit-wire-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::string path = (dir / "k.kcexec").string();
  std::ofstream(path) << R"({"command": ["a.py"]})";
  CHECK(readExecSpec(path).protocol == 1);
  CHECK(readExecSpec(path).argv() == std::vector<std::string>{"a.py"});
  std::ofstream(path) << R"({"protocol": "kcontract-exec/2", "python": "python3", "command": ["a.py", "x"]})";
  ExecSpec s = readExecSpec(path);
  CHECK(s.protocol == 2);
  unsetenv("KC_PYTHON");
  CHECK(s.argv() == std::vector<std::string>{"python3", "a.py", "x"});
  setenv("KC_PYTHON", "/opt/py/bin/python3", 1);
  CHECK(s.argv() == std::vector<std::string>{"/opt/py/bin/python3", "a.py", "x"});
  CHECK_THROWS_WITH(requireProgram(s), "the adaptor cannot start: '/opt/py/bin/python3' (the interpreter, from KC_PYTHON) is not an executable file");
  unsetenv("KC_PYTHON");
  std::ofstream(path) << R"({"protocol": "kcontract-exec/3", "command": ["a.py"]})";
  CHECK_THROWS_WITH(readExecSpec(path), Catch::Contains("\"protocol\" must be \"kcontract-exec/1\" or \"kcontract-exec/2\""));
  std::ofstream(path) << R"({"python": "", "command": ["a.py"]})";
  CHECK_THROWS_WITH(readExecSpec(path), Catch::Contains("\"python\" must be the interpreter's name or path"));
  fs::remove_all(dir);
}

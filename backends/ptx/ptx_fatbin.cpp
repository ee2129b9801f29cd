#include "backends/ptx/ptx_fatbin.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kc::ptx {

namespace {

constexpr uint32_t kFatbinMagic = 0xBA55ED50;
constexpr uint16_t kPtxKind = 1;

template <class T>
T read(const std::string& d, size_t at) {
  T v{};
  if (at + sizeof v <= d.size()) std::memcpy(&v, d.data() + at, sizeof v);
  return v;
}

}  // namespace

std::string ptxFromLibrary(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FatbinError("cannot read '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string d = ss.str();
  std::string ptx;
  const char magic[4] = {'\x50', '\xed', '\x55', '\xba'};
  for (size_t at = d.find(std::string(magic, 4)); at != std::string::npos; at = d.find(std::string(magic, 4), at + 4)) {
    // Header: magic (4), version (2), header size (2), size of the entries (8).
    uint16_t version = read<uint16_t>(d, at + 4), headerSize = read<uint16_t>(d, at + 6);
    uint64_t size = read<uint64_t>(d, at + 8);
    if (version != 1 || headerSize != 16 || at + headerSize + size > d.size()) continue;
    // Entries: kind (2), version (2), header size (4), payload size (8), ... then the payload.
    for (size_t e = at + headerSize; e + 16 <= at + headerSize + size;) {
      uint16_t kind = read<uint16_t>(d, e);
      uint32_t entryHeader = read<uint32_t>(d, e + 4);
      uint64_t payload = read<uint64_t>(d, e + 8);
      if (entryHeader < 16 || e + entryHeader + payload > d.size()) break;
      if (kind == kPtxKind) {
        std::string text = d.substr(e + entryHeader, payload);
        text = text.substr(0, text.find('\0'));
        if (text.find(".version") == std::string::npos)
          throw FatbinError("the PTX in '" + path + "' is compressed: build it with nvcc --no-compress");
        ptx += text + "\n";
      }
      e += entryHeader + payload;
    }
    at += headerSize + size - 4;
  }
  return ptx;
}

}  // namespace kc::ptx

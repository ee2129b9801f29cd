#include "backends/exec/npy.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "kcontract/abi.h"

namespace kc::backend::npy {

namespace {

const char kMagic[] = "\x93NUMPY";

int64_t itemSize(const std::string& descr) {
  if (descr.size() < 3) throw std::runtime_error("unsupported .npy dtype '" + descr + "'");
  if (descr[0] != '<' && descr[0] != '|' && descr[0] != '=')
    throw std::runtime_error("unsupported .npy dtype '" + descr + "' (big-endian)");
  const std::string kind = descr.substr(1, 1);
  if (kind != "f" && kind != "i" && kind != "u" && kind != "b")
    throw std::runtime_error("unsupported .npy dtype '" + descr + "'");
  return std::stoll(descr.substr(2));
}

// The value of `key` in the header dict, as its raw text up to the next top-level ',' or '}'.
std::string field(const std::string& header, const std::string& key) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw std::runtime_error(".npy header has no '" + key + "'");
  size_t colon = header.find(':', k);
  if (colon == std::string::npos) throw std::runtime_error("malformed .npy header");
  size_t i = colon + 1;
  while (i < header.size() && header[i] == ' ') ++i;
  int depth = 0;
  size_t j = i;
  for (; j < header.size(); ++j) {
    char c = header[j];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
  }
  if (depth == 0 && j < header.size() && header[i] == '(') return header.substr(i, j - i);
  return header.substr(i, j - i);
}

}  // namespace

std::string descrOf(int32_t t) {
  switch (t) {
    case KC_BOOL: return "|b1";
    case KC_U8: return "|u1";
    case KC_I8: return "|i1";
    case KC_I16: return "<i2";
    case KC_I32: return "<i4";
    case KC_I64: return "<i8";
    case KC_F8E4M3: case KC_F8E5M2: return "|u1";
    case KC_F16: return "<f2";
    case KC_BF16: return "<u2";
    case KC_F32: return "<f4";
    case KC_F64: return "<f8";
    default: throw std::runtime_error("unknown ABI dtype " + std::to_string(t));
  }
}

std::string nameOf(int32_t t) {
  static const char* names[] = {"bool", "u8", "i8", "i16", "i32", "i64", "f8e4m3", "f8e5m2", "f16", "bf16", "f32", "f64"};
  if (t < 0 || t > KC_F64) throw std::runtime_error("unknown ABI dtype " + std::to_string(t));
  return names[t];
}

void write(const std::string& path, const Array& a) {
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + (a.shape.size() == 1 ? "," : i + 1 < a.shape.size() ? ", " : "");
  shape += ")";
  std::string header = "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Magic (6) + version (2) + length (2) + header + '\n', padded with spaces to 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
  out.write(kMagic, 6);
  const char version[2] = {1, 0};
  out.write(version, 2);
  uint16_t len = static_cast<uint16_t>(header.size());
  const char lenBytes[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
  out.write(lenBytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(a.data.data()), static_cast<std::streamsize>(a.data.size()));
  if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

Array read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0) throw std::runtime_error("'" + path + "' is not a .npy file");
  int major = bytes[6];
  size_t headerLen = 0, start = 0;
  if (major == 1) {
    headerLen = bytes[8] | (size_t{bytes[9]} << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) throw std::runtime_error("'" + path + "' is truncated");
    headerLen = bytes[8] | (size_t{bytes[9]} << 8) | (size_t{bytes[10]} << 16) | (size_t{bytes[11]} << 24);
    start = 12;
  } else {
    throw std::runtime_error("'" + path + "': unsupported .npy version " + std::to_string(major));
  }
  if (start + headerLen > bytes.size()) throw std::runtime_error("'" + path + "' is truncated");
  std::string header(bytes.begin() + static_cast<long>(start), bytes.begin() + static_cast<long>(start + headerLen));
  Array a;
  std::string descr = field(header, "descr");
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"'))
    throw std::runtime_error("'" + path + "': unsupported dtype " + descr);
  a.descr = descr.substr(1, descr.size() - 2);
  if (field(header, "fortran_order").find("False") == std::string::npos)
    throw std::runtime_error("'" + path + "' is in Fortran order; write C order (np.ascontiguousarray)");
  std::string shape = field(header, "shape");
  int64_t numel = 1;
  for (size_t i = 0; i < shape.size();) {
    if (std::isdigit(static_cast<unsigned char>(shape[i]))) {
      size_t used = 0;
      int64_t d = std::stoll(shape.substr(i), &used);
      a.shape.push_back(d);
      numel *= d;
      i += used;
    } else {
      ++i;
    }
  }
  size_t need = static_cast<size_t>(numel * itemSize(a.descr));
  if (bytes.size() - start - headerLen < need)
    throw std::runtime_error("'" + path + "' holds fewer bytes than its shape needs");
  a.data.assign(bytes.begin() + static_cast<long>(start + headerLen), bytes.begin() + static_cast<long>(start + headerLen + need));
  return a;
}

}  // namespace kc::backend::npy

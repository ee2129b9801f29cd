#include "lsp/framing.h"

#include <cctype>
#include <istream>
#include <ostream>

namespace kc::lsp {

namespace {

constexpr size_t kMaxBody = 64u << 20;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

ReadResult readMessage(std::istream& in, std::string& body, std::string& error) {
  long long length = -1;
  bool sawHeader = false;
  std::string line;
  while (true) {
    if (!std::getline(in, line)) {
      if (!sawHeader) return ReadResult::End;
      error = "the input ended inside a message header";
      return ReadResult::Broken;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      if (!sawHeader) continue;  // blank lines between messages
      break;
    }
    sawHeader = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      error = "a header line without ':': '" + line + "'";
      return ReadResult::Broken;
    }
    if (lower(line.substr(0, colon)) != "content-length") continue;
    std::string value = line.substr(colon + 1);
    size_t first = value.find_first_not_of(' ');
    value = first == std::string::npos ? "" : value.substr(first);
    if (value.empty() || value.size() > 12 || value.find_first_not_of("0123456789") != std::string::npos) {
      error = "Content-Length is not a number: '" + value + "'";
      return ReadResult::Broken;
    }
    length = std::stoll(value);
  }
  if (length < 0) {
    error = "a message without Content-Length";
    return ReadResult::Broken;
  }
  if (static_cast<size_t>(length) > kMaxBody) {
    error = "a message of " + std::to_string(length) + " bytes (more than 64 MiB)";
    return ReadResult::Broken;
  }
  body.assign(static_cast<size_t>(length), '\0');
  in.read(body.data(), length);
  if (in.gcount() != length) {
    error = "the input ended inside a message body (" + std::to_string(in.gcount()) + " of " + std::to_string(length) +
            " bytes)";
    return ReadResult::Broken;
  }
  return ReadResult::Message;
}

void writeMessage(std::ostream& out, const std::string& body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

}  // namespace kc::lsp

#include "checker/report/chain.h"

#include <openssl/evp.h>
#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kc::report {

namespace {

constexpr std::string_view kChainKey = ",\"chain\":\"";
constexpr std::string_view kRunKey = ",\"run\":\"";
constexpr size_t kDigestHex = 64, kNonceHex = 32;
// ,"chain":"<64 hex>"}
constexpr size_t kChainSuffix = kChainKey.size() + kDigestHex + 2;

std::string hex(const unsigned char* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

bool isHex(std::string_view s) {
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string link(const std::string& previous, std::string_view content) {
  std::string bytes = previous;
  bytes += '\n';
  bytes.append(content);
  return sha256Hex(bytes);
}

// The record's text without its ,"chain":"D" part, and D; false when the line does not end so.
bool split(std::string_view line, std::string& content, std::string& digest) {
  if (line.size() < kChainSuffix + 2 || line.front() != '{' || line.back() != '}') return false;
  std::string_view tail = line.substr(line.size() - kChainSuffix);
  if (tail.substr(0, kChainKey.size()) != kChainKey || tail.substr(tail.size() - 2) != "\"}") return false;
  digest = std::string(tail.substr(kChainKey.size(), kDigestHex));
  if (!isHex(digest)) return false;
  content = std::string(line.substr(0, line.size() - kChainSuffix)) + "}";
  return true;
}

// Whether a record's content (chain removed) starts a run: it ends with ,"run":"<32 hex>"}.
bool startsRun(std::string_view content) {
  const size_t n = kRunKey.size() + kNonceHex + 2;
  if (content.size() < n) return false;
  std::string_view tail = content.substr(content.size() - n);
  return tail.substr(0, kRunKey.size()) == kRunKey && isHex(tail.substr(kRunKey.size(), kNonceHex)) &&
         tail.substr(tail.size() - 2) == "\"}";
}

}  // namespace

std::string sha256Hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed (OpenSSL EVP_Digest)");
  return hex(md, n);
}

std::string newRunNonce() {
  unsigned char b[kNonceHex / 2];
  size_t got = 0;
  while (got < sizeof b) {
    ssize_t r = getrandom(b + got, sizeof b - got, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) throw std::runtime_error(std::string("no random bytes for the run's nonce: ") + std::strerror(errno));
    got += static_cast<size_t>(r);
  }
  return hex(b, sizeof b);
}

ResultsChain::ResultsChain(std::string last, std::string nonce) : last_(std::move(last)), nonce_(std::move(nonce)) {}

std::string ResultsChain::seal(const std::string& record) {
  if (record.size() < 2 || record.front() != '{' || record.back() != '}')
    throw std::logic_error("a chained record is a JSON object");
  std::string content = record.substr(0, record.size() - 1);
  if (!started_) content += std::string(kRunKey) + nonce_ + "\"";
  content += "}";
  started_ = true;
  last_ = link(last_, content);
  content.pop_back();
  return content + std::string(kChainKey) + last_ + "\"}";
}

VerifiedResults verifyResults(std::string_view text) {
  VerifiedResults v;
  size_t at = 0, lineNo = 0;
  std::string previous;
  while (at < text.size()) {
    ++lineNo;
    size_t end = text.find('\n', at);
    const bool whole = end != std::string_view::npos;  // ends with a newline
    std::string_view line = text.substr(at, (whole ? end : text.size()) - at);
    const bool lastLine = !whole || end + 1 == text.size();
    const std::string where = std::to_string(lineNo) + ": ";
    std::string content, digest;
    const bool sealed = split(line, content, digest);
    if (!whole) {
      v.cut = where + "the last line has no newline at its end (a run killed while writing it)";
      return v;
    }
    if (line.empty()) {
      v.tampered = where + "a blank line (kcontract never writes one)";
      return v;
    }
    if (!sealed) {
      if (lastLine) v.cut = where + "the last line is not a whole record (it ends without its \"chain\" digest)";
      else v.tampered = where + "the line has no \"chain\" digest at its end";
      return v;
    }
    if (lineNo == 1 && !startsRun(content)) {
      v.tampered = where + "the first record starts no run (no \"run\" nonce): not a results file kcontract wrote";
      return v;
    }
    if (link(previous, content) != digest) {
      v.tampered = where + "its \"chain\" digest does not match its content and the line before it (edited, inserted, "
                           "removed or moved after it was written)";
      return v;
    }
    previous = digest;
    v.records.emplace_back(line);
    v.lines.push_back(lineNo);
    v.last = digest;
    v.keptBytes = end + 1;
    at = end + 1;
  }
  return v;
}

}  // namespace kc::report
